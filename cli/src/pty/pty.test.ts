// pty.ts with real children in real PTYs: the environment, every byte before the exit, the exit's
// code and signal, the size, the hold, and a signal reaching the agent's whole process group.
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawnPty, type PtyProcess } from './pty.ts';

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function sh(script: string, extra: Partial<Parameters<typeof spawnPty>[0]> = {}): PtyProcess & { text(): string } {
  const pty = spawnPty({ file: '/bin/sh', args: ['-c', script], cwd: '/tmp', env: ENV, cols: 80, rows: 24, ...extra });
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
  return Object.assign(pty, { text: () => text });
}

describe('a PTY child', () => {
  it('gets exactly the environment it is given: nothing of ours (a hub token) leaks in', async () => {
    process.env.TETHER_PTY_TEST_SECRET = 'leaked';
    onTestFinished(() => void delete process.env.TETHER_PTY_TEST_SECRET);
    const pty = sh('env', { env: { ...ENV, ASKED: 'yes' } });
    expect(await pty.exited).toEqual({ exitCode: 0, signal: null });
    expect(pty.text()).toContain('ASKED=yes');
    expect(pty.text()).not.toContain('TETHER_PTY_TEST_SECRET');
  });

  it('hands out every byte before its exit, with the exit code', async () => {
    const pty = sh("head -c 3000000 /dev/zero | tr '\\0' x; exit 3");
    const exit = await pty.exited;
    expect(exit).toEqual({ exitCode: 3, signal: null });
    expect(pty.offset()).toBe(3_000_000);
  });

  it('reports a death by signal as the signal, with the shell’s code for it', async () => {
    const pty = sh('kill -TERM $$');
    expect(await pty.exited).toEqual({ exitCode: 143, signal: 'SIGTERM' });
  });

  it('echoes what is written and takes a new size (the child sees it)', async () => {
    const pty = sh('read line; stty size; echo "got $line"');
    pty.resize({ cols: 120, rows: 40 });
    pty.write('hello\r');
    await pty.exited;
    expect(pty.text()).toMatch(/hello\r\n40 120\r\ngot hello/);
    expect([pty.cols, pty.rows]).toEqual([120, 40]);
  });

  it('stops the writing process group while held, loses nothing, and goes on when the hold settles', async () => {
    let release!: () => void;
    let holding: Promise<void> | null = null;
    const pty = sh('yes 0123456789abcdef | head -c 20000000; echo; echo end', {
      hold: () => holding,
    });
    await expect.poll(() => pty.offset(), { timeout: 15_000 }).toBeGreaterThan(1_000_000);
    holding = new Promise<void>((resolve) => (release = resolve));
    // The output already in the kernel's buffers still arrives; then nothing more.
    let before = -1;
    await expect
      .poll(
        async () => {
          const at = pty.offset();
          await new Promise((resolve) => setTimeout(resolve, 200));
          const still = pty.offset() === at && at === before;
          before = pty.offset();
          return still;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(pty.offset()).toBeLessThan(20_000_000);
    holding = null;
    release();
    expect(await pty.exited).toEqual({ exitCode: 0, signal: null });
    expect(pty.text()).toMatch(/\r\nend\r\n$/);
    // 20,000,000 bytes of 17-byte lines (the last one cut short), each \n turned into \r\n by the
    // PTY, then echo's \r\n and "end\r\n".
    expect(pty.offset()).toBe(20_000_000 + Math.floor(20_000_000 / 17) + '\r\n'.length + 'end\r\n'.length);
  }, 30_000);

  it('stop() ends a launcher and the process it waits for (the whole group), within the grace', async () => {
    const pty = spawnPty({ file: process.execPath, args: [join(import.meta.dirname, 'launcher.fixture.ts')], cwd: '/tmp', env: ENV, cols: 80, rows: 24 });
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
