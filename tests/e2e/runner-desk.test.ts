// The desk side of `tether claude`: SIGTERM/SIGHUP put the terminal back and end the session with
// claude's exit; without a TTY the runner works headless-of-desk (output only to the hub).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic, text } from '../fixtures/fake-anthropic/index.ts';
import { claudeBin, createClaudeSandbox } from '../harness/claude.ts';
import { startHub } from '../harness/hub.ts';
import { chatText, startRunner, TETHER_MAIN, watchSession } from '../harness/runner.ts';

const DESK_READY = /❯\s*\n─+\n\s+\? for shortcuts/;
/** What local-terminal.ts writes when it hands the terminal back (bracketed paste off, …, cursor on). */
const RESTORED = '\x1b[?2004l';

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn();
  cleanups = [];
});

async function setup() {
  const fake = await startFakeAnthropic({ script: [text('headless hello')] });
  cleanups.push(() => fake.stop());
  const hub = await startHub();
  cleanups.push(() => hub.stop());
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  cleanups.push(() => sandbox.stop());
  return { hub, sandbox };
}

describe('desk terminal', () => {
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} restores the terminal and ends the session`, async () => {
      const { hub, sandbox } = await setup();
      const runner = startRunner({ hub, sandbox });
      cleanups.push(() => runner.stop());
      const phone = await watchSession({ hub, sessionId: runner.sessionId });
      cleanups.push(() => phone.stop());
      await runner.waitForScreen(DESK_READY);
      const before = runner.output().length;
      runner.kill(signal);
      await runner.exited;
      expect(runner.output().slice(before)).toContain(RESTORED);
      await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
    });
  }

  it('without a TTY the session runs headless-of-desk: driven and read from the hub only', async () => {
    const { hub, sandbox } = await setup();
    const home = mkdtempSync(join(tmpdir(), 'tether-headless-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const sessionId = crypto.randomUUID();
    const proc = Bun.spawn([process.execPath, TETHER_MAIN, 'claude'], {
      cwd: sandbox.cwd,
      env: { ...sandbox.env, TETHER_HOME: home, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_CLAUDE_BIN: claudeBin(), TETHER_SESSION_ID: sessionId },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    cleanups.push(() => proc.kill('SIGKILL'));
    const phone = await watchSession({ hub, sessionId });
    cleanups.push(() => phone.stop());
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'ready (idle) headless session' });
    const sent = await phone.send('hello headless');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('headless hello')), { what: 'reply' });
    expect(phone.prompts().get(sent.promptId)?.status).toBe('delivered');
    proc.kill('SIGTERM');
    await proc.exited;
    expect(await new Response(proc.stdout).text()).toBe('');
    await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
  });
});
