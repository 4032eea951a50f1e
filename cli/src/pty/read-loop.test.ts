import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnPty } from './pty.ts';

const quietPty = (script: string) =>
  spawnPty({ file: '/bin/sh', args: ['-c', script], cwd: '/tmp', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' }, cols: 80, rows: 24, quiet: () => true });

// A quiet session's read loop sleeps until the kernel says the child wrote or exited (read-loop.ts).
describe('read loop while quiet', () => {
  it('in a process of its own, late output and a silent kill are seen at once, not at the safety net', async () => {
    const proc = Bun.spawn([process.execPath, join(import.meta.dirname, 'read-loop.fixture.ts')], { stdout: 'pipe', stderr: 'pipe' });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(code, err).toBe(0);
    const result = JSON.parse(out.trim()) as { lateMs: number; exitCode: number; killSeenMs: number };
    expect(result.exitCode).toBe(3);
    // Linux: inotify and SIGCHLD (tens of ms); the safety net alone would take up to 5 s.
    const bound = process.platform === 'linux' ? 2_000 : 6_000;
    expect(result.lateMs, out).toBeLessThan(bound);
    expect(result.killSeenMs, out).toBeLessThan(bound);
  }, 20_000);

  it('where SIGCHLD does not arrive (this worker thread), the safety net still sees the exit', async () => {
    const pty = quietPty('sleep 1; echo late-line; sleep 1; exit 3');
    let text = '';
    const decoder = new TextDecoder();
    pty.onData(({ data }) => (text += decoder.decode(data, { stream: true })));
    const exit = await pty.exited;
    expect(text).toContain('late-line');
    expect(exit.exitCode).toBe(3);
  }, 20_000);
});
