// runner-exits.ts: which runner process is a session's current one, and what its exit means. The
// hub that started a runner records its pid (PID_STARTING until the daemon's spawn ack says it)
// and whether a person asked it to stop; a daemon's runner:exited is then judged here: an earlier
// runner's exit is stale, a stopped one ends the session `ended`, anything else unready `failed`.
// With several hubs the daemon may report to another hub than the starter: it asks the cluster,
// and the hub that knows the runner answers `{ handled }`.
import { ackError, type Ack, type Namespace, type RunnerExitedSchema } from '@tether/shared';
import type { z } from 'zod';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { SessionReadiness } from '../sessions/readiness.ts';
import type { ClusterBus } from '../cluster/bus.ts';

/** No real pid: the runner is being started and the daemon has not said its pid yet. */
const PID_STARTING = -1;

type Exit = z.output<typeof RunnerExitedSchema>;
export type RunnerExits = ReturnType<typeof createRunnerExits>;

export function createRunnerExits(deps: { sessions: Sessions; readiness: SessionReadiness; bus: ClusterBus; stopGraceMs: number }) {
  const { sessions, readiness } = deps;
  /** Sessions a person asked to stop: their forced end is `ended`, not `failed`. */
  const stopping = new Set<string>();
  /** The pid of the runner the hub last started per session: exits of earlier runners are stale. */
  const runnerPids = new Map<string, number>();
  const k = (ns: Namespace, id: string) => `${ns}\u0000${id}`;

  /** Whether this hub started the session's runner or is stopping it. */
  const knows = (ns: Namespace, sessionId: string) => runnerPids.has(k(ns, sessionId)) || stopping.has(k(ns, sessionId));
  const exited = async (ns: Namespace, exit: Exit): Promise<void> => {
    const current = runnerPids.get(k(ns, exit.sessionId));
    if (exit.pid !== null && current !== undefined && current !== exit.pid) return; // an earlier runner
    runnerPids.delete(k(ns, exit.sessionId));
    const stopped = stopping.has(k(ns, exit.sessionId));
    const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode ?? 'unknown'}`;
    const reason = stopped ? `stopped (runner killed after ${deps.stopGraceMs / 1000} s)` : (exit.reason ?? `the runner exited (${how})`);
    readiness.runnerExited(ns, exit.sessionId, { exitCode: exit.exitCode, reason });
    await sessions.endOnBehalf(ns, {
      sessionId: exit.sessionId,
      status: stopped || exit.exitCode === 0 ? 'ended' : 'failed',
      exitCode: exit.exitCode,
      reason: stopped || exit.exitCode === 0 ? null : reason,
    });
  };
  // Another hub's daemon saw a runner exit: the hub that started it ends the session.
  deps.bus.on('runner-exited', async ({ namespace, exit }) => {
    if (!knows(namespace, exit.sessionId)) return { handled: false };
    await exited(namespace, exit);
    return { handled: true };
  });

  return {
    /** A new runner is being started: until its pid is known, only its own exit counts (a resumed
     *  session's previous runner may still be on its way out, and its report is about that one). */
    starting: (ns: Namespace, sessionId: string) => void runnerPids.set(k(ns, sessionId), PID_STARTING),
    started: (ns: Namespace, sessionId: string, pid: number) => void runnerPids.set(k(ns, sessionId), pid),
    notStarted: (ns: Namespace, sessionId: string) => void runnerPids.delete(k(ns, sessionId)),
    /** A person asked the session to stop, until `stopDone`. */
    stopAsked: (ns: Namespace, sessionId: string) => void stopping.add(k(ns, sessionId)),
    stopDone: (ns: Namespace, sessionId: string) => void stopping.delete(k(ns, sessionId)),
    /** A daemon saw a runner exit (`machineId`: the reporting socket's registered machine). */
    async report(ns: Namespace, machineId: string | null, exit: Exit): Promise<Ack<object>> {
      if (!machineId) return ackError('forbidden', 'only a registered daemon reports runner exits');
      if (!(await sessions.get(ns, exit.sessionId))) return ackError('not_found', 'no such session');
      if (!knows(ns, exit.sessionId)) {
        const answers = await deps.bus.ask('runner-exited', { namespace: ns, exit });
        if (answers.some((a) => (a as { handled?: unknown } | null)?.handled === true)) return { ok: true };
      }
      await exited(ns, exit);
      return { ok: true };
    },
  };
}
