// Fail closed with real claude. Nothing is ever allowed because tether failed:
//   - the runner SIGKILLed while a request waits → nothing ran; the hub withdraws the request once the
//     runner stays gone;
//   - the hook endpoint dies (or errors) while claude waits on it → claude's own dialog stays at the
//     desk in every mode that asks, and the tool only runs when the desk says so; modes that never ask
//     (dontAsk, bypassPermissions) behave exactly as plain claude;
//   - Esc in claude's dialog while the phone is asked → the phone clears, the audit says denied;
//   - a hook server request without the secret is rejected.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, hasToolResult, text, toolUse, userSays, when, type FakeAnthropic } from '../fixtures/fake-anthropic/index.ts';
import { answerDeskDialog, DESK_DIALOG, startApprovalWorld, type ApprovalWorld } from '../harness/approvals.ts';
import { createClaudeSandbox, spawnClaudeInPty, type ClaudePty, type ClaudeSandbox } from '../harness/claude.ts';
import { startHookServer, type HookServer } from '../../cli/src/hooks/server.ts';
import { writeHookSettings } from '../../cli/src/agents/claude/hook-settings.ts';

let world: ApprovalWorld | null = null;
const stops: Array<() => unknown> = [];
afterEach(async () => {
  await world?.stop();
  world = null;
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** claude in a PTY with tether's own hook settings pointing at a hook server this test controls. */
async function claudeWithHooks(options: { mode: string; onPermission: () => Promise<Record<string, unknown>>; script: Parameters<typeof startFakeAnthropic>[0] }) {
  const fake: FakeAnthropic = await startFakeAnthropic(options.script);
  stops.push(() => fake.stop());
  const sandbox: ClaudeSandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  stops.push(() => sandbox.stop());
  const permissionCalls: string[] = [];
  const server: HookServer = startHookServer({
    onHook: async (request) => {
      if (request.event !== 'permission-request') return {};
      permissionCalls.push(String(request.payload.tool_name));
      return options.onPermission();
    },
  });
  let serverStopped = false;
  const stopServer = () => {
    if (!serverStopped) server.stop();
    serverStopped = true;
  };
  stops.push(stopServer);
  const settings = writeHookSettings({ endpoint: server.endpoint });
  stops.push(() => settings.remove());
  // claude refuses bypassPermissions as root unless it is told it runs in a sandbox (CI runs as root).
  const env: Record<string, string> = options.mode === 'bypassPermissions' ? { IS_SANDBOX: '1' } : {};
  if (options.mode === 'bypassPermissions') acceptBypassWarning(sandbox);
  const claude: ClaudePty = spawnClaudeInPty({ sandbox, args: ['--permission-mode', options.mode, '--settings', settings.settingsPath], cols: 110, rows: 40, env });
  stops.push(() => claude.stop());
  await claude.waitForScreen(/❯/);
  return { claude, sandbox, permissionCalls, stopServer };
}

/** claude asks once to accept bypass mode; a user who runs it has accepted (its `.claude.json` flag). */
function acceptBypassWarning(sandbox: ClaudeSandbox): void {
  const file = join(sandbox.configDir, '.claude.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), bypassPermissionsModeAccepted: true }));
}

const never = () => new Promise<Record<string, unknown>>(() => {});

describe('approvals fail closed', () => {
  it('runner killed while a request waits → nothing ran; the hub withdraws the request', async () => {
    world = await startApprovalWorld({ script: [when(userSays(/go/), toolUse('Bash', { command: 'touch killed.txt', description: 'x' }))], runnerGoneGraceMs: 300 });
    const { phone, runner, sandbox } = world;
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    runner.kill('SIGKILL');
    await phone.waitFor(() => phone.resolved.some((r) => r.requestId === request.id && r.outcome === 'withdrawn'), { what: 'request withdrawn' });
    expect(await world.hub.store.listPending({ namespace: world.hub.namespace, sessionId: runner.sessionId })).toEqual([]);
    expect(existsSync(join(sandbox.cwd, 'killed.txt'))).toBe(false);
  }, 60_000);

  // Each mode in which claude asks a person: the hook endpoint vanishing mid-wait leaves claude's own
  // dialog at the desk and runs nothing until the desk answers.
  for (const { mode, tool } of [
    { mode: 'default', tool: toolUse('Bash', { command: 'touch made.txt', description: 'make it' }) },
    // acceptEdits lets file commands like touch through; a program that writes is still asked.
    { mode: 'acceptEdits', tool: toolUse('Bash', { command: "node -e \"require('fs').writeFileSync('made.txt', 'x')\"", description: 'make it' }) },
    { mode: 'plan', tool: toolUse('ExitPlanMode', { plan: '1. touch made.txt' }) },
  ]) {
    it(`${mode}: the hook endpoint dies while claude waits → claude's dialog stays at the desk, nothing runs`, async () => {
      const { claude, sandbox, permissionCalls, stopServer } = await claudeWithHooks({
        mode,
        onPermission: never,
        script: { script: [when(userSays(/go/), tool), when(hasToolResult({}), text('after the dialog'))] },
      });
      await claude.submit('go');
      await expect.poll(() => permissionCalls.length, { timeout: 20_000 }).toBe(1);
      await claude.waitForScreen(DESK_DIALOG);
      stopServer(); // the runner is gone: its hook server resets claude's request
      await Bun.sleep(1_500);
      expect(claude.screenText()).toMatch(DESK_DIALOG);
      expect(existsSync(join(sandbox.cwd, 'made.txt'))).toBe(false);
      claude.write('\x1b'); // the desk says no
      await claude.waitForScreen((screen) => !DESK_DIALOG.test(screen));
      expect(existsSync(join(sandbox.cwd, 'made.txt'))).toBe(false);
    }, 60_000);
  }

  it('default: a hook that answers HTTP 500 leaves claude’s dialog; the desk decides', async () => {
    const { claude, sandbox, permissionCalls } = await claudeWithHooks({
      mode: 'default',
      onPermission: async () => {
        throw new Error('runner broke');
      },
      script: { script: [when(userSays(/go/), toolUse('Bash', { command: 'touch five-hundred.txt', description: 'x' })), when(hasToolResult({}), text('after 500'))] },
    });
    await claude.submit('go');
    await claude.waitForScreen(DESK_DIALOG);
    await expect.poll(() => permissionCalls.length).toBe(1);
    await Bun.sleep(1_000);
    expect(claude.screenText()).toMatch(DESK_DIALOG);
    expect(existsSync(join(sandbox.cwd, 'five-hundred.txt'))).toBe(false);
    claude.write('1');
    await claude.waitForScreen(/after 500/);
    expect(existsSync(join(sandbox.cwd, 'five-hundred.txt'))).toBe(true);
  }, 60_000);

  for (const { mode, ran } of [
    { mode: 'dontAsk', ran: false },
    { mode: 'bypassPermissions', ran: true },
  ]) {
    it(`${mode}: claude asks nobody, so a dead hook endpoint changes nothing (${ran ? 'runs' : 'refused'}, as plain claude)`, async () => {
      const { claude, sandbox, permissionCalls, stopServer } = await claudeWithHooks({
        mode,
        onPermission: never,
        script: { script: [when(userSays(/go/), toolUse('Bash', { command: 'touch quiet.txt', description: 'x' })), when(hasToolResult({}), text('mode done'))] },
      });
      stopServer();
      await claude.submit('go');
      await claude.waitForScreen(/mode done/);
      expect(permissionCalls).toEqual([]);
      expect(existsSync(join(sandbox.cwd, 'quiet.txt'))).toBe(ran);
    }, 60_000);
  }

  it('Esc in claude’s dialog while the phone is asked → the phone clears; the audit says denied at the desk', async () => {
    world = await startApprovalWorld({
      script: [when(userSays(/go/), toolUse('Bash', { command: 'touch esc.txt', description: 'x' })), when(hasToolResult({}), text('after esc'))],
    });
    const { phone, runner, sandbox } = world;
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    await answerDeskDialog(runner, '\x1b');
    const resolution = await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id && r.answer !== null), { what: 'approval:resolved after Esc' });
    expect(resolution).toMatchObject({ outcome: 'answered', answeredBy: 'desk', answer: { decision: 'deny' } });
    await phone.waitFor(() => phone.session()?.pendingCount === 0, { what: 'badge cleared' });
    expect(existsSync(join(sandbox.cwd, 'esc.txt'))).toBe(false);
  }, 60_000);

  it('the hook server rejects a request without the secret (or with a wrong one)', async () => {
    world = await startApprovalWorld({ script: [] });
    const { port, secret } = world.hookEndpoint();
    const body = JSON.stringify({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    const none = await fetch(`http://127.0.0.1:${port}/hook/permission-request`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(none.status).toBe(403);
    const wrong = await fetch(`http://127.0.0.1:${port}/hook/permission-request`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-tether-hook-secret': `${secret.slice(0, -1)}x` },
    });
    expect(wrong.status).toBe(403);
    expect(world.phone.requested).toEqual([]);
  }, 60_000);
});

