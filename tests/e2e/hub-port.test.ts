// `tether hub` and its port: without --port it takes 8787, or the next free port up to 8797, and says
// so (the URL uses it; on loopback there is no pairing link, and a token is never in one); with an
// explicit --port a taken port is one clear line that names the port and the process holding it,
// never a stack trace.
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../harness/cleanups.ts';
import { readUntil, spawnHubCommand } from '../harness/hub.ts';

const defer = useCleanups();

/** Holds `port` on 127.0.0.1 if it is free (another process may hold it already: taken either way). */
function hold(port: number): void {
  try {
    const server = Bun.serve({ hostname: '127.0.0.1', port, fetch: () => new Response('held') });
    defer(() => server.stop(true));
  } catch {
    // someone else has it
  }
}

describe('tether hub port', () => {
  it('without --port: the next free port after a taken 8787, said in the output and used in the URL', async () => {
    hold(8787);
    hold(8788);
    const proc = spawnHubCommand(defer, { args: [] });
    const out = await readUntil(proc.stdout, /tether hub ready[^\n]*\n/);
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
    expect(port).toBeGreaterThan(8788);
    expect(port).toBeLessThanOrEqual(8797);
    expect(out).toMatch(/port 8787, 8788 were in use, so it took \d+/);
    // Bound to loopback: a one-time pairing link for this machine, never in a QR, never the token.
    expect(out).toMatch(new RegExp(`open on this machine: http://127\\.0\\.0\\.1:${port}/#pair=tpc_`));
    expect(out).not.toContain('#token=');
    expect(out).not.toContain('▄');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).ok).toBe(true);
  }, 60_000);

  it('an explicit --port that is taken: one line naming the port and its holder, exit non-zero', async () => {
    const blocker = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('held') });
    defer(() => blocker.stop(true));
    const proc = spawnHubCommand(defer, { args: ['--port', String(blocker.port)] });
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
