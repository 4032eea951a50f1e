// `tether opencode` at a terminal: opencode's own TUI in tether's PTY, heard through an opencode server
// on a loopback port behind a password (cli/src/agents/opencode/bridge.ts): the TUI's own at 1.18.33;
// at the floor pin (1.17.0, whose TUI does not send the password to its own server) `opencode serve`
// started by tether and `opencode attach` in the PTY (served.ts). The real opencode against the fake
// chat completions API, in its sandbox: a prompt from the hub typed into its input box reaches the
// fake and the answer shows in the hub's chat; a prompt typed at the desk shows there too; a shell
// command asked about is answered from the hub (allowed: it ran; denied: it did not) or at the desk
// (the hub's request is withdrawn); a file it would write is asked with its path and diff (allowed:
// written; denied: not); its mode (agent) switched from the hub shows at the desk and reaches its
// model, and the desk's Tab is heard on the hub; its model switched from the hub through its picker
// shows at the desk and answers the next turn (one it does not offer: refused). Ended from the hub,
// no opencode process is left (the floor's server too).
// The floor: TETHER_OPENCODE_BIN=.tools/opencode-1.17.0/node_modules/.bin/opencode.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFailed } from 'vitest';
import type { SessionCommandFinished } from '@tether/shared';
import { startFakeChatCompletions, text, toolCall, userSays, hasToolResult, when, type ScriptTurn } from '../fixtures/fake-chat-completions/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startHub } from '../harness/hub.ts';
import { processesUnder } from '../harness/leftovers.ts';
import { until } from '../harness/waiting.ts';
import { createOpencodeSandbox, FAKE_OPENCODE_MODEL, FAKE_OPENCODE_MODEL_2, newFileCard, opencodeBin, writeAsked } from '../harness/opencode.ts';
import { chatText, startRunner, watchSession } from '../harness/runner.ts';
import { compareVersions } from '../../cli/src/agents/version.ts';
import { opencodeVersions } from '../../cli/src/agents/opencode/version.ts';

const defer = useCleanups();
/** opencode's start and each turn take tens of seconds on a loaded 2-core machine (up to 190 s seen at load 20). */
const STEP_MS = 240_000;
/** Below 1.18.33 (the floor pin) tether runs the server its TUI attaches to (pty.ts's table). */
const served = compareVersions(opencodeVersions.read(opencodeBin(), { timeoutMs: 60_000 }) ?? '0', '1.18.33') < 0;

async function startWorld(script: ScriptTurn[]) {
  const fake = await startFakeChatCompletions({ script });
  defer(() => fake.stop());
  const hub = await startHub();
  defer(() => hub.stop());
  const sandbox = createOpencodeSandbox({ fakeApiUrl: fake.url });
  defer(() => sandbox.stop());
  const runner = startRunner({ hub, sandbox, agent: 'opencode', cols: 110, rows: 35, env: { TETHER_OPENCODE_BIN: opencodeBin() } });
  // A failure shows the desk and the runner's log as they were (read before the cleanups remove them).
  let atFailure: string | null = null;
  onTestFailed(() => console.log(atFailure));
  defer(() => runner.stop());
  defer(() => {
    const logs = join(runner.home, 'logs');
    const read = existsSync(logs) ? readdirSync(logs).map((name) => `[opencode-pty] ${name}:\n${readFileSync(join(logs, name), 'utf8').slice(-6000)}`) : ['(no logs)'];
    atFailure = `[opencode-pty] desk:\n${runner.screenText()}\n${read.join('\n')}`;
  });
  return { fake, hub, sandbox, runner };
}

const said = (phone: Awaited<ReturnType<typeof watchSession>>, role: 'user' | 'assistant', words: string) => () => phone.messages().find((m) => m.role === role && chatText(m).includes(words));

/** `opencode serve` processes, not counting a child it is starting (git, rg), which shows the server's
 *  command line until it execs (a CI rehearsal counted two). */
const serveProcesses = (dir: string) => {
  const serving = processesUnder(dir).filter((p) => / serve --port /.test(p.command));
  const pids = new Set(serving.map((p) => p.pid));
  return serving.filter((p) => !pids.has(p.parent));
};

type Step = { phone: Awaited<ReturnType<typeof watchSession>>; runner: ReturnType<typeof startRunner>; fake: Awaited<ReturnType<typeof startFakeChatCompletions>> };

/** Its mode from the hub: its own Tab, so the desk shows the plan agent and the next turn is its;
 *  the desk's Tab back to build is heard on the hub. */
async function modeFromTheHubAndTheDesk({ phone, runner, fake }: Step): Promise<void> {
  await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
  expect((await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'plan' })).ok).toBe(true);
  await phone.waitFor(() => phone.session()?.permissionMode === 'plan', { what: 'plan mode on the hub', timeoutMs: STEP_MS });
  await runner.waitForScreen(/┃\s+Plan · /, { timeoutMs: STEP_MS });
  await phone.send('plan it');
  await phone.waitFor(said(phone, 'assistant', 'planned'), { what: 'the reply in plan mode', timeoutMs: STEP_MS });
  // opencode's plan agent tells its model, in a reminder after the person's words, it may not edit.
  expect(JSON.stringify(fake.mainRequests().at(-1)?.messages)).toMatch(/Plan mode ACTIVE/);
  // Tab at the desk: back to build, heard on the hub.
  await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the plan turn', timeoutMs: STEP_MS });
  runner.write('\t');
  await runner.waitForScreen(/┃\s+Build · /, { timeoutMs: STEP_MS });
  await phone.waitFor(() => phone.session()?.permissionMode === 'default', { what: 'the desk\'s build agent on the hub', timeoutMs: STEP_MS });
  await phone.send('build it');
  await phone.waitFor(said(phone, 'assistant', 'built'), { what: 'the reply in build mode', timeoutMs: STEP_MS });
  // The person's last words carry no plan reminder (the earlier turn's stay in its history).
  expect(JSON.stringify(fake.mainRequests().at(-1)?.messages?.at(-1))).toContain('build it');
  expect(JSON.stringify(fake.mainRequests().at(-1)?.messages?.at(-1))).not.toMatch(/Plan mode ACTIVE/);
}

/** Its model from the hub: its /models picker, as at the desk. One it does not offer: refused before
 *  any key; one it offers: shown at the desk and asked for at the API; then back. */
async function modelFromTheHub({ phone, runner, fake }: Step): Promise<void> {
  const finished: SessionCommandFinished[] = [];
  phone.socket.on('session:command-finished', (fact: SessionCommandFinished) => {
    finished.push(fact);
    phone.changed();
  });
  await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the build turn', timeoutMs: STEP_MS });
  const before = phone.session()?.model;
  expect(await phone.emit('session:set-model', { sessionId: runner.sessionId, model: 'fake/not-offered' })).toMatchObject({ ok: true });
  await phone.waitFor(() => finished.find((f) => f.args === 'fake/not-offered'), { what: 'the refused switch finished', timeoutMs: STEP_MS });
  expect(finished).toEqual([expect.objectContaining({ args: 'fake/not-offered', outcome: 'kept' })]);
  expect(phone.session()?.model).toBe(before);
  expect(runner.screenText()).not.toContain('Select model');
  // Offered: the desk's input box names it, and the next request at the API is for it; then back
  // (the current model is the first row no more: the highlight starts on the first match).
  for (const [model, shown, words] of [[FAKE_OPENCODE_MODEL_2, /┃\s+Build · Fake Model 2 Fake/, 'which model'], [FAKE_OPENCODE_MODEL, /┃\s+Build · Fake Model Fake/, 'and now']] as const) {
    expect(await phone.emit('session:set-model', { sessionId: runner.sessionId, model })).toMatchObject({ ok: true });
    await phone.waitFor(() => finished.find((f) => f.args === model), { what: `the switch to ${model} finished`, timeoutMs: STEP_MS });
    expect(finished.find((f) => f.args === model)).toMatchObject({ outcome: 'applied' });
    await phone.waitFor(() => phone.session()?.model === model, { what: `${model} on the hub`, timeoutMs: STEP_MS });
    await runner.waitForScreen(shown, { timeoutMs: STEP_MS });
    await phone.send(words);
    await phone.waitFor(said(phone, 'assistant', `told: ${words}`), { what: `the reply from ${model}`, timeoutMs: STEP_MS });
    expect(fake.mainRequests().at(-1)?.model).toBe(model.slice(model.indexOf('/') + 1));
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the turn', timeoutMs: STEP_MS });
  }
}

describe('tether opencode: its TUI in a PTY', () => {
  it('prompts from the hub and the desk in the hub chat; a shell command allowed and denied from the hub, and answered at the desk; a write allowed and denied from the hub; its mode from the hub and the desk, its model from the hub; ended, nothing left running', async () => {
    const { fake, sandbox, runner, hub } = await startWorld([
      when(userSays('hello from the hub'), text('hub prompt answered')),
      when(userSays('typed at the desk'), text('desk prompt answered')),
      when(userSays('run allowed'), toolCall('bash', { command: 'touch allowed.txt', description: 'make a file' })),
      when(hasToolResult(), text('after the command')),
      when(userSays('run denied'), toolCall('bash', { command: 'touch denied.txt', description: 'make another' })),
      when(hasToolResult(), text('after the denial')),
      when(userSays('run at the desk'), toolCall('bash', { command: 'touch desk.txt', description: 'make a third' })),
      when(hasToolResult(), text('after the desk')),
      when(userSays('write allowed'), toolCall('write', { filePath: 'allowed.md', content: 'written from the hub\n' })),
      when(hasToolResult(), text('after the write')),
      when(userSays('write denied'), toolCall('write', { filePath: 'denied.md', content: 'never\n' })),
      when(hasToolResult(), text('after the refused write')),
      when(userSays('plan it'), text('planned')),
      when(userSays('build it'), text('built')),
      when(userSays('which model'), text('told: which model')),
      when(userSays('and now'), text('told: and now')),
    ]);
    const phone = await watchSession({ hub, sessionId: runner.sessionId, timeoutMs: STEP_MS });
    defer(() => phone.stop());
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session', timeoutMs: STEP_MS });

    // From the hub: typed into its input box, answered by the fake.
    expect((await phone.send('hello from the hub')).ok).toBe(true);
    await phone.waitFor(said(phone, 'assistant', 'hub prompt answered'), { what: 'the answer in the hub chat', timeoutMs: STEP_MS });
    expect(phone.messages().find((m) => m.role === 'user' && chatText(m) === 'hello from the hub'), JSON.stringify(phone.messages().map((m) => [m.role, chatText(m)]))).toBeTruthy();
    expect(fake.mainRequests().length).toBeGreaterThanOrEqual(1);
    // The hub learnt its session id (opencode's own, `ses_…`), what a resume from the phone continues.
    await phone.waitFor(() => /^ses_[A-Za-z0-9]+$/.test(phone.session()?.agentSessionId ?? ''), { what: "opencode's session id on the hub", timeoutMs: STEP_MS });

    // At the desk.
    await runner.waitForScreen(/ctrl\+p commands/, { timeoutMs: STEP_MS });
    runner.write('typed at the desk');
    await runner.waitForScreen('typed at the desk', { timeoutMs: STEP_MS });
    runner.write('\r');
    await phone.waitFor(said(phone, 'user', 'typed at the desk'), { what: 'the desk prompt in the hub chat', timeoutMs: STEP_MS });
    await phone.waitFor(said(phone, 'assistant', 'desk prompt answered'), { what: 'its answer in the hub chat', timeoutMs: STEP_MS });

    // A shell command allowed from the hub: it ran.
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
    await phone.send('run allowed');
    const allowed = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash' && JSON.stringify(r.toolInput).includes('allowed.txt')), { what: 'the allowed request', timeoutMs: STEP_MS });
    expect((await phone.emit('approval:answer', { requestId: allowed.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await phone.waitFor(said(phone, 'assistant', 'after the command'), { what: 'the turn after the command', timeoutMs: STEP_MS });
    expect(existsSync(join(sandbox.cwd, 'allowed.txt'))).toBe(true);

    // Denied from the hub: it did not run.
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
    await phone.send('run denied');
    const denied = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash' && JSON.stringify(r.toolInput).includes('denied.txt')), { what: 'the denied request', timeoutMs: STEP_MS });
    expect((await phone.emit('approval:answer', { requestId: denied.id, answer: { decision: 'deny', reason: 'not this one' } })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.status === 'idle' && fake.mainRequests().some((r) => JSON.stringify(r.messages).includes('not this one') || JSON.stringify(r.messages).includes('rejected')), { what: 'the turn after the denial', timeoutMs: STEP_MS });
    expect(existsSync(join(sandbox.cwd, 'denied.txt'))).toBe(false);

    // Answered at the desk first (its dialog's first choice is "Allow once"): the hub's request is withdrawn.
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
    await phone.send('run at the desk');
    const atDesk = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash' && JSON.stringify(r.toolInput).includes('desk.txt')), { what: 'the desk request', timeoutMs: STEP_MS });
    await runner.waitForScreen(/Permission required/, { timeoutMs: STEP_MS });
    runner.write('\r');
    await phone.waitFor(() => phone.resolved.find((r) => r.requestId === atDesk.id), { what: 'the hub request withdrawn', timeoutMs: STEP_MS });
    await phone.waitFor(said(phone, 'assistant', 'after the desk'), { what: 'the turn after the desk answer', timeoutMs: STEP_MS });
    expect(existsSync(join(sandbox.cwd, 'desk.txt'))).toBe(true);

    // A file to write, asked from the hub with its path and diff: allowed, it is written.
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
    await phone.send('write allowed');
    const write = await phone.waitFor(() => writeAsked(phone.requested, 'allowed.md'), { what: 'the write request', timeoutMs: STEP_MS });
    expect(write.toolInput).toEqual(newFileCard(join(sandbox.cwd, 'allowed.md'), 'written from the hub'));
    expect((await phone.emit('approval:answer', { requestId: write.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await phone.waitFor(said(phone, 'assistant', 'after the write'), { what: 'the turn after the write', timeoutMs: STEP_MS });
    expect(readFileSync(join(sandbox.cwd, 'allowed.md'), 'utf8')).toBe('written from the hub\n');

    // Denied: it is not.
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
    await phone.send('write denied');
    const refused = await phone.waitFor(() => writeAsked(phone.requested, 'denied.md'), { what: 'the refused write', timeoutMs: STEP_MS });
    expect((await phone.emit('approval:answer', { requestId: refused.id, answer: { decision: 'deny', reason: 'not that file' } })).ok).toBe(true);
    await phone.waitFor(said(phone, 'assistant', 'after the refused write'), { what: 'the turn after the refused write', timeoutMs: STEP_MS });
    expect(existsSync(join(sandbox.cwd, 'denied.md'))).toBe(false);

    await modeFromTheHubAndTheDesk({ phone, runner, fake });
    await modelFromTheHub({ phone, runner, fake });
    expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]);
    expect(phone.duplicates()).toBe(0);

    // The server: the TUI's own, or (floor) tether's, whose output never reached the desk.
    expect(serveProcesses(sandbox.cwd).length).toBe(served ? 1 : 0);
    expect(runner.output()).not.toMatch(/server listening|OPENCODE_SERVER_PASSWORD/);
    // Ended from the hub: the session's opencode processes end with it.
    expect((await phone.emit('session:stop', { sessionId: runner.sessionId })).ok).toBe(true);
    await runner.exited;
    await until(() => processesUnder(sandbox.cwd).length === 0, 15_000, 'no opencode process left');
  }, 1_800_000);
});
