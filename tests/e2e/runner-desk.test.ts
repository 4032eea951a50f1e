// The desk side of `tether claude`: SIGTERM/SIGHUP put the terminal back and end the session with
// claude's exit; without a TTY the runner works headless-of-desk (output only to the hub).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { text } from '../fixtures/fake-anthropic/index.ts';
import { claudeBin } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText, TETHER_MAIN } from '../harness/runner.ts';
import { DESK_READY, startWorld, startStage } from '../harness/world.ts';
/** What local-terminal.ts writes when it hands the terminal back (bracketed paste off, …, cursor on). */
const RESTORED = '\x1b[?2004l';

const defer = useCleanups();
const SCRIPT = [text('headless hello')];

/** The process state letter from /proc (R, S, T = stopped, …). */
function procState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

async function until(probe: () => boolean, what: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const waitForProcState = (pid: number, want: string) =>
  until(() => procState(pid) === want, () => `pid ${pid} to reach state ${want} (is ${procState(pid)})`);

describe('desk terminal', () => {
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} restores the terminal and ends the session`, async () => {
      const { runner, phone } = await startWorld(defer, { script: SCRIPT });
      const before = runner.output().length;
      runner.kill(signal);
      await runner.exited;
      expect(runner.output().slice(before)).toContain(RESTORED);
      await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
    });
  }

  it('Ctrl-Z suspends tether with claude (terminal handed back); fg (SIGCONT) resumes the same session', async () => {
    const { runner, phone, fake } = await startWorld(defer, { script: [text('after fg')] });
    const before = runner.output().length;
    runner.write('\x1a');
    await waitForProcState(runner.pid, 'T');
    // Stopped is seen through /proc, the bytes through our PTY reader: what the stopped process
    // wrote before it stopped may still be on its way to us (it can write nothing after).
    await until(() => runner.output().slice(before).includes(RESTORED), () => 'the terminal handed back before the stop');
    const continued = runner.output().length;
    process.kill(runner.pid, 'SIGCONT');
    // The screen still shows claude's prompt from before the stop, and keys typed before tether is
    // back in raw mode go through the terminal's line discipline (a CI run's Enter became a newline
    // in claude's input, never submitted). tether sets raw mode first and then continues claude,
    // which redraws: its input box drawn after the continue means the desk's keys reach it as keys.
    await until(() => runner.output().slice(continued).includes('❯'), () => "claude's redraw after fg");
    await runner.waitForScreen(DESK_READY);
    runner.write('hello after fg');
    await runner.waitForScreen('hello after fg');
    runner.write('\r');
    await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m) === 'after fg'), { what: 'the reply after fg' });
    expect(phone.messages().filter((m) => m.role === 'user').map(chatText)).toEqual(['hello after fg']);
    expect(fake.mainRequests().length).toBe(1);
    expect(procState(runner.pid)).not.toBe('T');
  });

  it('without a TTY the session runs headless-of-desk: driven and read from the hub only', async () => {
    const { hub, sandbox, startWatch, tempDir } = await startStage(defer, { script: SCRIPT });
    const home = tempDir('tether-headless-');
    const sessionId = crypto.randomUUID();
    const proc = Bun.spawn([process.execPath, TETHER_MAIN, 'claude'], {
      cwd: sandbox.cwd,
      env: { ...sandbox.env, TETHER_HOME: home, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_CLAUDE_BIN: claudeBin(), TETHER_SESSION_ID: sessionId },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    defer(() => proc.kill('SIGKILL'));
    const phone = await startWatch(sessionId);
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
