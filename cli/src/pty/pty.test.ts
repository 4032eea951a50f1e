// pty.ts's stop path: a signal reaches every process of the agent's group, not its pid alone.
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawnPty } from './pty.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a PTY child that is a launcher', () => {
  it('stop() ends the launcher and the process it waits for (the whole group), within the grace', async () => {
    const pty = spawnPty({ file: process.execPath, args: [join(import.meta.dirname, 'launcher.fixture.ts')], cwd: '/tmp', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' }, cols: 80, rows: 24 });
    // Whatever happens, nothing of this test outlives it.
    onTestFinished(() => {
      try {
        process.kill(-pty.pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    });
    let text = '';
    const decoder = new TextDecoder();
    pty.onData(({ data }) => (text += decoder.decode(data, { stream: true })));
    await expect.poll(() => /child-pid (\d+)/.exec(text), { timeout: 15_000 }).not.toBeNull();
    const childPid = Number(/child-pid (\d+)/.exec(text)![1]);
    pty.kill('SIGTERM');
    // The launcher ignores SIGTERM: it exits because its child got the signal too, not by stop()'s
    // SIGKILL (that would be signal 9).
    const exit = await pty.exited;
    expect(exit.signal).toBeNull();
    expect(exit.exitCode).not.toBe(0);
    await expect.poll(() => alive(childPid), { timeout: 5_000 }).toBe(false);
  }, 30_000);
});
