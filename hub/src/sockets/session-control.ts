// session-control.ts: sessions started, stopped and resumed from afar. The `/web` handlers of
// session:spawn/stop/resume and the `/cli` handler of the daemon's runner:exited.
//
//   web ─session:spawn─► here ─daemon:spawn─► daemon (validates the dir, starts a runner process)
//        ◄─ack {session}── readiness: runner registered and idle │ runner:exited / failed / timeout ─► error
//   web ─session:stop──► runner session:stop ─(grace)─► daemon:kill ─► ack once ended
//
// Invariants: a spawn/resume ack is ok only once the session is ready, and every failure names its
// reason (SpawnFailureReason) and the real error (claude's last screen lines, the runner's log);
// a session that never got ready is stopped and marked failed, never left half-started; nothing is
// retried or respawned here. Machines and sessions are looked up in the caller's namespace only.
import { basename } from 'node:path';
import {
  ackError,
  isFinalStatus,
  spawnError,
  type Ack,
  type DaemonSpawn,
  type Namespace,
  type Session,
  type WebAcks,
} from '@tether/shared';
import type { z } from 'zod';
import type { RunnerExitedSchema, SessionResumeSchema, SessionSpawnSchema, SessionStopSchema } from '@tether/shared';
import type { Store } from '../store/store.ts';
import { endSession, registerSession } from '../sessions/sessions.ts';
import type { SessionReadiness } from '../sessions/readiness.ts';
import type { TerminalRegistry } from '../terminal/registry.ts';
import type { Broadcast } from './broadcast.ts';
import type { DaemonDirectory, DaemonTarget } from './daemons.ts';
import type { HubSocket } from './handle.ts';
import type { ClusterBus } from './cluster-bus.ts';

/** claude is ready in ~1 s; a cold start on a loaded machine (first run, slow disk) gets 45 s. */
export const SPAWN_READY_TIMEOUT_MS = 45_000;
/** claude exits within ~100 ms of SIGTERM / Ctrl-C; the runner then drains for ≤ 3 s. */
export const STOP_GRACE_MS = 8_000;
/** After SIGKILL the daemon notices the exit within its poll interval (1 s). */
export const KILL_WAIT_MS = 5_000;

type Deps = {
  store: Store;
  broadcast: Broadcast;
  daemons: DaemonDirectory;
  readiness: SessionReadiness;
  terminals: TerminalRegistry;
  bus: ClusterBus;
};

/** Every session:updated the hub sends also settles readiness waits (spawn, stop). */
export function observeSessionUpdates(broadcast: Broadcast, readiness: SessionReadiness): Broadcast {
  const toNamespace = broadcast.toNamespace.bind(broadcast);
  broadcast.toNamespace = ((ns, event, payload) => {
    toNamespace(ns, event, payload);
    if (event === 'session:updated') readiness.sessionUpdated(ns, payload as Session);
  }) as Broadcast['toNamespace'];
  return broadcast;
}

/** Ends a session on the hub on behalf of a runner that cannot (died, never started). */
/** No real pid: the runner is being started and the daemon has not said its pid yet. */
const PID_STARTING = -1;

async function endOnBehalf(
  deps: Deps,
  ns: Namespace,
  end: { sessionId: string; status: 'ended' | 'failed'; exitCode: number | null; reason: string | null },
): Promise<Session | null> {
  const ended = await endSession({ store: deps.store, namespace: ns, end, ifLive: true });
  if (!ended) return null;
  if (ended.alreadyEnded) return ended.session;
  for (const resolution of ended.withdrawn) deps.broadcast.toNamespace(ns, 'approval:resolved', resolution);
  for (const prompt of ended.dropped) deps.broadcast.toNamespace(ns, 'prompt:updated', prompt);
  await deps.terminals.ended(ns, end.sessionId);
  deps.broadcast.toNamespace(ns, 'session:updated', ended.session);
  return ended.session;
}

export function createSessionControl(deps: Deps) {
  const { store, broadcast, daemons, readiness } = deps;
  /** Sessions being started or stopped right now: a second request waits its turn by failing fast. */
  const busy = new Set<string>();
  /** Sessions a person asked to stop: their forced end is `ended`, not `failed`. */
  const stopping = new Set<string>();
  /** The pid of the runner the hub last started per session: exits of earlier runners are stale.
   *  PID_STARTING while a new runner is being started (its pid comes with the daemon's ack). */
  const runnerPids = new Map<string, number>();
  const k = (ns: Namespace, id: string) => `${ns}\u0000${id}`;

  const findDaemon = async (ns: Namespace, machineId: string) => {
    const machine = (await store.listMachines({ namespace: ns })).find((m) => m.id === machineId);
    if (!machine) return spawnError('not_found', 'machine_unknown', 'no such machine');
    const socket = await daemons.locate(ns, machineId);
    if (!socket) return spawnError('conflict', 'machine_offline', `machine "${machine.name}" is offline: start tether daemon there`);
    return { socket, machine };
  };

  const start = async (ns: Namespace, machineId: string, socket: DaemonTarget, spawn: DaemonSpawn): Promise<Ack<WebAcks['session:spawn']>> => {
    const ready = readiness.wait({ namespace: ns, sessionId: spawn.sessionId, goal: 'ready', timeoutMs: SPAWN_READY_TIMEOUT_MS });
    // A resumed session's previous runner may still be on its way out (End acks once the session is
    // ended, before the process is gone): its exit report, arriving now, is about that runner, not
    // this one, and must not fail this start. The new runner's own exit comes after the spawn ack.
    runnerPids.set(k(ns, spawn.sessionId), PID_STARTING);
    const ack = await daemons.command(socket, 'daemon:spawn', spawn);
    if (!ack.ok) {
      runnerPids.delete(k(ns, spawn.sessionId));
      readiness.runnerExited(ns, spawn.sessionId, { exitCode: null, reason: ack.error });
      await ready;
      return 'reason' in ack ? ack : spawnError(ack.code, 'runner_failed', ack.error);
    }
    runnerPids.set(k(ns, spawn.sessionId), ack.pid);
    {
      // The phone sees the new session (starting) at once; the runner's own registration follows
      // (or came first: then it is left alone).
      const result = await registerSession({
        onlyIfNew: true,
        store,
        namespace: ns,
        registration: {
          id: spawn.sessionId,
          machineId,
          title: basename(ack.cwd),
          cwd: ack.cwd,
          launchKind: spawn.launchKind,
          status: 'starting',
          claudeSessionId: spawn.resumeClaudeSessionId,
          model: spawn.model,
          permissionMode: spawn.permissionMode ?? 'default',
          deskAttached: false,
        },
      });
      if (result?.kind === 'ok') broadcast.toNamespace(ns, 'session:updated', result.session);
    }
    const outcome = await ready;
    switch (outcome.kind) {
      case 'ready':
        return { ok: true, session: outcome.session };
      case 'ended': {
        const reason = outcome.reason ?? `the runner exited (code ${outcome.exitCode ?? 'unknown'}) before claude was ready`;
        await endOnBehalf(deps, ns, { sessionId: spawn.sessionId, status: 'failed', exitCode: outcome.exitCode, reason });
        return spawnError('internal', 'claude_failed', reason);
      }
      case 'timeout': {
        const reason = `claude was not ready within ${SPAWN_READY_TIMEOUT_MS / 1000} s; the session was stopped (see the runner log: ${ack.logFile})`;
        broadcast.toRunner(ns, spawn.sessionId, 'session:stop', { sessionId: spawn.sessionId });
        void daemons.command(socket, 'daemon:kill', { sessionId: spawn.sessionId });
        await endOnBehalf(deps, ns, { sessionId: spawn.sessionId, status: 'failed', exitCode: null, reason });
        return spawnError('internal', 'timeout', reason);
      }
      default: {
        const never: never = outcome;
        return never;
      }
    }
  };

  const exclusive = async <T>(ns: Namespace, sessionId: string, run: () => Promise<T>, busyAck: () => T): Promise<T> => {
    if (busy.has(k(ns, sessionId))) return busyAck();
    busy.add(k(ns, sessionId));
    try {
      return await run();
    } finally {
      busy.delete(k(ns, sessionId));
    }
  };

  /** Whether this hub started the session's runner or is stopping it. */
  const knows = (ns: Namespace, sessionId: string) => runnerPids.has(k(ns, sessionId)) || stopping.has(k(ns, sessionId));
  const runnerExited = async (ns: Namespace, exit: z.output<typeof RunnerExitedSchema>): Promise<void> => {
    const current = runnerPids.get(k(ns, exit.sessionId));
    if (exit.pid !== null && current !== undefined && current !== exit.pid) return; // an earlier runner
    runnerPids.delete(k(ns, exit.sessionId));
    const stopped = stopping.has(k(ns, exit.sessionId));
    const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode ?? 'unknown'}`;
    const reason = stopped ? `stopped (runner killed after ${STOP_GRACE_MS / 1000} s)` : (exit.reason ?? `the runner exited (${how})`);
    readiness.runnerExited(ns, exit.sessionId, { exitCode: exit.exitCode, reason });
    await endOnBehalf(deps, ns, {
      sessionId: exit.sessionId,
      status: stopped || exit.exitCode === 0 ? 'ended' : 'failed',
      exitCode: exit.exitCode,
      reason: stopped || exit.exitCode === 0 ? null : reason,
    });
  };
  // Another hub's daemon saw a runner exit: the hub that started it ends the session.
  deps.bus.on('runner-exited', async ({ namespace, exit }) => {
    if (!knows(namespace, exit.sessionId)) return { handled: false };
    await runnerExited(namespace, exit);
    return { handled: true };
  });

  return {
    /** `/web` handlers, spread into the web socket's handler map. */
    webHandlers: (socket: HubSocket) => {
      const currentNs = socket.data.caller.namespace;
      return {
      'session:spawn': async (request: z.output<typeof SessionSpawnSchema>): Promise<Ack<WebAcks['session:spawn']>> => {
        const ns = currentNs;
        const found = await findDaemon(ns, request.machineId);
        if ('ok' in found) return found;
        const sessionId = crypto.randomUUID();
        return exclusive(
          ns,
          sessionId,
          () =>
            start(ns, request.machineId, found.socket, {
              sessionId,
              cwd: request.cwd,
              launchKind: request.launchKind,
              model: request.model ?? null,
              permissionMode: request.permissionMode ?? null,
              createDir: request.createDir,
              resumeClaudeSessionId: request.resumeClaudeSessionId ?? null,
            }),
          () => ackError('conflict', 'busy'),
        );
      },
      'session:resume': async ({ sessionId, launchKind }: z.output<typeof SessionResumeSchema>): Promise<Ack<WebAcks['session:resume']>> => {
        const ns = currentNs;
        const current = await store.getSession({ namespace: ns, sessionId });
        if (!current) return ackError('not_found', 'no such session');
        if (!isFinalStatus(current.status)) return spawnError('conflict', 'session_live', 'the session is still running; attach to it or stop it first');
        if (!current.claudeSessionId) return spawnError('conflict', 'not_resumable', 'claude never started a conversation in this session; there is nothing to resume');
        if (!current.machineId) {
          return spawnError('conflict', 'not_resumable', `this session was started at a desk, not by a daemon: run tether claude --resume ${current.claudeSessionId} there`);
        }
        const found = await findDaemon(ns, current.machineId);
        if ('ok' in found) return found;
        const machineId = current.machineId;
        return exclusive(
          ns,
          sessionId,
          () =>
            start(ns, machineId, found.socket, {
              sessionId,
              cwd: current.cwd,
              launchKind: launchKind ?? current.launchKind,
              model: current.model,
              permissionMode: current.permissionMode,
              createDir: false,
              resumeClaudeSessionId: current.claudeSessionId,
            }),
          () => spawnError('conflict', 'session_live', 'the session is being started or stopped right now'),
        );
      },
      'session:stop': async ({ sessionId }: z.output<typeof SessionStopSchema>): Promise<Ack<WebAcks['session:stop']>> => {
        const ns = currentNs;
        const current = await store.getSession({ namespace: ns, sessionId });
        if (!current) return ackError('not_found', 'no such session');
        if (isFinalStatus(current.status)) return ackError('gone', 'session has ended');
        stopping.add(k(ns, sessionId));
        try {
          const graceful = readiness.wait({ namespace: ns, sessionId, goal: 'ended', timeoutMs: STOP_GRACE_MS });
          broadcast.toRunner(ns, sessionId, 'session:stop', { sessionId });
          let outcome = await graceful;
          if (outcome.kind === 'timeout') {
            const daemon = current.machineId ? await daemons.locate(ns, current.machineId) : null;
            if (!daemon) return ackError('conflict', `the session did not stop within ${STOP_GRACE_MS / 1000} s and no daemon of its machine is online to force it`);
            const forced = readiness.wait({ namespace: ns, sessionId, goal: 'ended', timeoutMs: KILL_WAIT_MS });
            const kill = await daemons.command(daemon, 'daemon:kill', { sessionId });
            if (!kill.ok || !kill.killed) {
              readiness.runnerExited(ns, sessionId, { exitCode: null, reason: null });
              await forced;
              return ackError('conflict', kill.ok ? 'the daemon does not know this session\'s runner (started elsewhere?)' : kill.error);
            }
            outcome = await forced;
            if (outcome.kind === 'timeout') return ackError('internal', 'the runner was killed but its exit was not seen');
          }
          const ended = await store.getSession({ namespace: ns, sessionId });
          return ended ? { ok: true, session: ended } : ackError('not_found', 'no such session');
        } finally {
          stopping.delete(k(ns, sessionId));
        }
      },
      };
    },
    /** `/cli` handler of runner:exited, spread into the cli socket's handler map. The hub that
     *  started the runner (it knows its pid, and whether a person asked it to stop) ends the
     *  session; with several hubs that may be another hub than the daemon's, so it is asked first. */
    cliHandlers: (socket: HubSocket) => ({
      'runner:exited': async (exit: z.output<typeof RunnerExitedSchema>): Promise<Ack<object>> => {
        const ns = socket.data.caller.namespace;
        if (!socket.data.machineId) return ackError('forbidden', 'only a registered daemon reports runner exits');
        if (!(await store.getSession({ namespace: ns, sessionId: exit.sessionId }))) return ackError('not_found', 'no such session');
        if (!knows(ns, exit.sessionId)) {
          const answers = await deps.bus.ask('runner-exited', { namespace: ns, exit });
          if (answers.some((a) => (a as { handled?: unknown } | null)?.handled === true)) return { ok: true };
        }
        await runnerExited(ns, exit);
        return { ok: true };
      },
    }),
  };
}
