// outside.ts (harness): conversations found on a machine (issue 40): an agent run outside tether in a
// sandbox (its past conversation), and the hub's list of one machine's found conversations.
import type { OutsideListResponse, OutsideSession } from '@tether/shared';
import type { Defer } from './cleanups.ts';

/** Runs an agent's own command (`claude -p …`, `codex exec …`) to its end; its stdout. Not spawnSync:
 *  the fake API answers from the test's own process. */
export async function runOutsideTether(o: { defer: Defer; argv: string[]; cwd: string; env: Record<string, string> }): Promise<string> {
  const child = Bun.spawn(o.argv, { cwd: o.cwd, env: o.env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  o.defer(() => child.kill());
  const out = await new Response(child.stdout).text();
  const code = await child.exited;
  if (code !== 0) throw new Error(`${o.argv.join(' ')} exited ${code}:\n${out}\n${await new Response(child.stderr).text()}`);
  return out;
}

/** GET /api/machines/:id/outside as `token`. */
export async function listFound(o: { hubUrl: string; token: string; machineId: string; q?: string }): Promise<{ status: number; body: OutsideListResponse }> {
  const res = await fetch(`${o.hubUrl}/api/machines/${o.machineId}/outside?q=${encodeURIComponent(o.q ?? '')}`, { headers: { Authorization: `Bearer ${o.token}` } });
  return { status: res.status, body: (await res.json()) as OutsideListResponse };
}

/** The first listed conversation that `match` takes, once the daemon has reported it. */
export async function waitFound(o: { hubUrl: string; token: string; machineId: string; match: (s: OutsideSession) => boolean; timeoutMs?: number }): Promise<OutsideSession> {
  const end = Date.now() + (o.timeoutMs ?? 30_000);
  for (;;) {
    const found = (await listFound(o)).body.sessions.find(o.match);
    if (found) return found;
    if (Date.now() > end) throw new Error('timed out waiting for a found conversation');
    await Bun.sleep(200);
  }
}
