// `tether hub` and its port: without --port it takes 8787, or the next free port up to 8797, and says
// so (the URL and pairing link use it); with an explicit --port a taken port is one clear line that
// names the port and the process holding it, never a stack trace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_MAIN } from '../harness/runner.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

/** Holds `port` on 127.0.0.1 if it is free (another process may hold it already: taken either way). */
function hold(port: number): void {
  try {
    const server = Bun.serve({ hostname: '127.0.0.1', port, fetch: () => new Response('held') });
    cleanups.push(() => server.stop(true));
  } catch {
    // someone else has it
  }
}

function startHub(args: string[]) {
  const home = mkdtempSync(join(tmpdir(), 'tether-hub-port-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const proc = Bun.spawn([process.execPath, TETHER_MAIN, 'hub', ...args], { env: { ...process.env, TETHER_HOME: home }, stdout: 'pipe', stderr: 'pipe' });
  cleanups.push(() => proc.kill('SIGKILL'));
  return proc;
}

async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs));
  while (!pattern.test(text)) {
    const chunk = await Promise.race([reader.read(), timeout]);
    if (chunk === null || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

describe('tether hub port', () => {
  it('without --port: the next free port after a taken 8787, said in the output and used in the URL', async () => {
    hold(8787);
    hold(8788);
    const proc = startHub([]);
    const out = await readUntil(proc.stdout, /open on your phone[^\n]*\n/);
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
    expect(port).toBeGreaterThan(8788);
    expect(port).toBeLessThanOrEqual(8797);
    expect(out).toMatch(/port 8787, 8788 were in use, so it took \d+/);
    expect(out).toContain(`:${port}/#token=`);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).ok).toBe(true);
  }, 60_000);

  it('an explicit --port that is taken: one line naming the port and its holder, exit non-zero', async () => {
    const blocker = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('held') });
    cleanups.push(() => blocker.stop(true));
    const proc = startHub(['--port', String(blocker.port)]);
    const code = await proc.exited;
    const stderr = await new Response(proc.stderr).text();
    expect(code).not.toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    // The holder is this test's own process (Bun), found through /proc.
    expect(lines[0]).toMatch(new RegExp(`port ${blocker.port} is in use \\(by [^,]+, pid ${process.pid}\\)`));
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
