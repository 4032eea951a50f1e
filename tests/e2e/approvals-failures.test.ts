// Fail closed with real claude: the runner killed while a hook waits → the hook denies within 2 s and
// the hub withdraws the request once the runner stays gone; Esc at the desk while a hook waits →
// the request is withdrawn on the hub; a hook server request without the secret is rejected.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { startApprovalWorld, type ApprovalWorld } from '../harness/approvals.ts';
import { TETHER_MAIN } from '../harness/runner.ts';

let world: ApprovalWorld | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

/** The hook must answer this fast when its runner dies (the bound). */
const HOOK_DENY_BOUND_MS = 2_000;

function spawnHook(options: { endpointPath: string; payload: Record<string, unknown> }) {
  const child = spawn(process.execPath, [TETHER_MAIN, 'hook', 'pre-tool-use'], {
    env: { ...process.env, TETHER_HOOK_FILE: options.endpointPath },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stdin.end(JSON.stringify(options.payload));
  const exited = new Promise<{ at: number; code: number | null }>((resolve) => child.once('exit', (code) => resolve({ at: Date.now(), code })));
  return { child, exited, stdout: () => stdout };
}

describe('approvals fail closed', () => {
  it('runner killed while a hook waits → the hook denies within 2 s; the hub withdraws the request', async () => {
    world = await startApprovalWorld({ script: [when(userSays(/go/), toolUse('Bash', { command: 'touch x', description: 'x' }))], runnerGoneGraceMs: 300 });
    const { phone, runner } = world;
    await phone.send('go');
    const claudeRequest = await world.nextRequest('Bash');
    // A second hook process of our own on the same runner, so its output can be read.
    const hook = spawnHook({
      endpointPath: world.hookEndpoint().path,
      payload: { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch y' }, permission_mode: 'default', cwd: world.sandbox.cwd },
    });
    const ours = await world.nextRequest('Bash');
    expect(ours.toolInput.command).toBe('touch y');
    const killedAt = Date.now();
    runner.kill('SIGKILL');
    const { at, code } = await hook.exited;
    expect(at - killedAt).toBeLessThan(HOOK_DENY_BOUND_MS);
    expect(code).toBe(0);
    const out = JSON.parse(hook.stdout()) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(/runner/);
    // The runner never comes back: every tab clears both requests.
    await phone.waitFor(() => [claudeRequest.id, ours.id].every((id) => phone.resolved.some((r) => r.requestId === id && r.outcome === 'withdrawn')), {
      what: 'both requests withdrawn',
    });
    expect(world.hub.store.listPending({ namespace: world.hub.namespace, sessionId: runner.sessionId })).toEqual([]);
  }, 60_000);

  it('Esc at the desk while a hook waits → the request is withdrawn on the hub', async () => {
    world = await startApprovalWorld({
      script: [when(userSays(/go/), toolUse('Bash', { command: 'touch esc.txt', description: 'x' })), when(hasToolResult({}), text('after esc'))],
    });
    const { phone, runner } = world;
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    await runner.waitForScreen('claude is waiting for an answer');
    runner.write('\x1b');
    const resolution = await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id), { what: 'approval:resolved after Esc' });
    expect(resolution.outcome).toBe('withdrawn');
    await phone.waitFor(() => phone.session()?.pendingCount === 0, { what: 'badge cleared' });
    await runner.waitForScreen('Interrupted');
    expect(runner.screenText()).not.toContain('claude is waiting for an answer');
  }, 60_000);

  it('the hook server rejects a request without the secret (or with a wrong one)', async () => {
    world = await startApprovalWorld({ script: [] });
    const { port, secret } = world.hookEndpoint();
    const body = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    const none = await fetch(`http://127.0.0.1:${port}/hook/pre-tool-use`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(none.status).toBe(403);
    const wrong = await fetch(`http://127.0.0.1:${port}/hook/pre-tool-use`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-tether-hook-secret': `${secret.slice(0, -1)}x` },
    });
    expect(wrong.status).toBe(403);
    expect(world.phone.requested).toEqual([]);
  }, 60_000);
});
