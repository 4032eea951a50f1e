// remote-sessions.ts: sessions started, stopped and resumed from afar, through the daemon of the
// machine they run on: what /web session:spawn/stop/resume ask for (a runner's exit: runner-exits.ts).
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
import { ackError, agentDisplayName, AgentSessionIdSchema, isFinalStatus, resumeAtDesk, SESSION_KILL_WAIT_MS, SESSION_READY_TIMEOUT_MS, SESSION_STOP_GRACE_MS, sessionLaunchKind, spawnError, WORKTREE_SPAWN_ACK_MS, type Ack, type DaemonSpawn, type LaunchKind, type Namespace, type Session, type SpawnAckError, type WebAcks } from '@tether/shared';
import type { z } from 'zod';
import type { SessionResumeSchema, SessionSpawnSchema, SessionStopSchema } from '@tether/shared';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { ReadinessOutcome, SessionReadiness } from '../sessions/readiness.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import type { ClusterBus } from '../cluster/bus.ts';
import type { DaemonDirectory, DaemonTarget } from './daemons.ts';
import type { Machines } from './machines.ts';
import { createRunnerExits } from './runner-exits.ts';


type Deps = {
  sessions: Sessions;
  machines: Machines;
  daemons: DaemonDirectory;
  readiness: SessionReadiness;
  runners: RunnerCommands;
  bus: ClusterBus;
};

export type RemoteSessions = ReturnType<typeof createRemoteSessions>;

export function createRemoteSessions(deps: Deps) {
  const { sessions, readiness } = deps;
  const exits = createRunnerExits({ sessions, readiness, bus: deps.bus, stopGraceMs: SESSION_STOP_GRACE_MS });
  /** Sessions being started or stopped right now: a second request waits its turn by failing fast. */
  const busy = new Set<string>();
  const k = (ns: Namespace, id: string) => `${ns}\u0000${id}`;

  const findDaemon = (ns: Namespace, machineId: string) => daemonOf(deps, ns, machineId);

  const start = (ns: Namespace, machineId: string, socket: DaemonTarget, spawn: DaemonSpawn) => startSession({ deps, exits, ns, machineId, socket, spawn });

  const exclusive = async <T>(ns: Namespace, sessionId: string, run: () => Promise<T>, busyAck: () => T): Promise<T> => {
    if (busy.has(k(ns, sessionId))) return busyAck();
    busy.add(k(ns, sessionId));
    try {
      return await run();
    } finally {
      busy.delete(k(ns, sessionId));
    }
  };

  return {
    /** `readOnly`: a reviewer (reviews/); `adopting`: found on the machine (outside/); `fork`: as a new conversation. */
    async spawn(ns: Namespace, request: z.input<typeof SessionSpawnSchema> & { createDir: boolean; launchKind: DaemonSpawn['launchKind']; agent: DaemonSpawn['agent'] }, options: { readOnly?: boolean; adopting?: boolean; fork?: boolean } = {}): Promise<Ack<WebAcks['session:spawn']>> {
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
            backgroundId: request.backgroundId ?? null,
            agent: request.agent,
            model: request.model ?? null,
            permissionMode: request.permissionMode ?? null,
            createDir: request.createDir,
            resumeAgentSessionId: request.resumeAgentSessionId ?? null,
            readOnly: options.readOnly === true,
            worktree: request.worktree ?? null,
            addedDirs: [],
            adopting: options.adopting === true,
            fork: options.fork === true,
          }),
        () => ackError('conflict', 'busy'),
      );
    },
    async resume(ns: Namespace, { sessionId, launchKind }: z.output<typeof SessionResumeSchema>): Promise<Ack<WebAcks['session:resume']>> {
      const current = await sessions.get(ns, sessionId);
      if (!current) return ackError('not_found', 'no such session');
      const resumable = resumableOn(current);
      if ('ok' in resumable) return resumable;
      const { machineId } = resumable;
      const found = await findDaemon(ns, machineId);
      if ('ok' in found) return found;
      return exclusive(
        ns,
        sessionId,
        () =>
          start(ns, machineId, found.socket, {
            sessionId,
            cwd: current.cwd,
            ...comeback(current, launchKind),
            agent: current.agent,
            model: current.model,
            permissionMode: current.permissionMode,
            createDir: false,
            // A reviewer stays read-only when it comes back.
            readOnly: Boolean(current.parentId),
            worktree: null,
            // The folders its agent had (docs/decisions/daemon.md, what a resume carries).
            addedDirs: current.addedDirs ?? [],
            adopting: false,
            fork: false,
          }),
        () => spawnError('conflict', 'session_live', 'the session is being started or stopped right now'),
      );
    },
    async stop(ns: Namespace, { sessionId, stopInPool = false }: Pick<z.output<typeof SessionStopSchema>, 'sessionId'> & { stopInPool?: boolean }): Promise<Ack<WebAcks['session:stop']>> {
      const current = await sessions.get(ns, sessionId);
      if (!current) return ackError('not_found', 'no such session');
      if (isFinalStatus(current.status)) return ackError('gone', 'session has ended');
      if (stopInPool) {
        const refused = poolStopRefusal(current);
        if (refused) return refused;
      }
      return stopSession({ deps, exits, ns, session: current, stopInPool });
    },
    /** A daemon saw a runner exit (runner-exits.ts judges it). */
    runnerExited: exits.report,
  };
}

/** Starts a runner for `spawn` through the machine's daemon and answers once the session is ready,
 *  or with why it is not (a session that never got ready is stopped and marked failed). */
async function startSession(o: { deps: Deps; exits: ReturnType<typeof createRunnerExits>; ns: Namespace; machineId: string; socket: DaemonTarget; spawn: DaemonSpawn }): Promise<Ack<WebAcks['session:spawn']>> {
  const { spawn } = o;
  const ready = o.deps.readiness.wait({ namespace: o.ns, sessionId: spawn.sessionId, goal: 'ready', timeoutMs: SESSION_READY_TIMEOUT_MS });
  // A resumed session's previous runner may still be on its way out (End acks once the session is
  // ended, before the process is gone): its exit report, arriving now, is about that runner, not
  // this one, and must not fail this start. The new runner's own exit comes after the spawn ack.
  o.exits.starting(o.ns, spawn.sessionId);
  const ack = await o.deps.daemons.command(o.socket, 'daemon:spawn', spawn, spawn.worktree ? WORKTREE_SPAWN_ACK_MS : undefined);
  if (!ack.ok) {
    // No reason: no refusal of the daemon's own but a bad answer or none in time. A runner may
    // have started all the same; it goes (a kill of nothing answers killed: false).
    if (!('reason' in ack)) void o.deps.daemons.command(o.socket, 'daemon:kill', { sessionId: spawn.sessionId });
    o.exits.notStarted(o.ns, spawn.sessionId);
    o.deps.readiness.runnerExited(o.ns, spawn.sessionId, { exitCode: null, reason: ack.error });
    await ready;
    return 'reason' in ack ? ack : spawnError(ack.code, 'runner_failed', ack.error);
  }
  if (spawn.worktree && !ack.worktree) return refuseOlderDaemon({ deps: o.deps, exits: o.exits, ns: o.ns, socket: o.socket, sessionId: spawn.sessionId, ready });
  o.exits.started(o.ns, spawn.sessionId, ack.pid);
  // The phone sees the new session (starting) at once; the runner's own registration follows
  // (or came first: then it is left alone).
  await o.deps.sessions.registerStarting(o.ns, {
    id: spawn.sessionId,
    machineId: o.machineId,
    title: basename(ack.cwd),
    cwd: ack.cwd,
    launchKind: sessionLaunchKind(spawn.launchKind),
    agent: spawn.agent,
    // The runner states them when it registers (a resumed session keeps the ones it had).
    capabilities: null,
    status: 'starting',
    // A fork's runner names its new conversation at SessionStart.
    agentSessionId: spawn.fork ? null : spawn.resumeAgentSessionId,
    model: spawn.model,
    permissionMode: spawn.permissionMode ?? 'default',
    deskAttached: false,
    addedDirs: spawn.addedDirs,
  });
  if (ack.worktree) await o.deps.sessions.recordWorktree(o.ns, spawn.sessionId, ack.worktree);
  return answerStart({ deps: o.deps, ns: o.ns, socket: o.socket, sessionId: spawn.sessionId, agent: agentDisplayName(spawn.agent), logFile: ack.logFile, outcome: await ready });
}

/** Stops a live session: its runner is asked to end it, and after SESSION_STOP_GRACE_MS the daemon of
 *  its machine kills the runner. Acked once the session is seen ended. */
/** Why `session` cannot be stopped in its agent's pool from here, or null: only a session tether
 *  attached to, whose runner states that it can (an older one only detaches). */
function poolStopRefusal(session: Session) {
  const adopted = session.capabilities?.adopted;
  if (!adopted) return ackError('bad_request', 'this session runs under tether, not in an agent\'s own pool: End stops it');
  if (!adopted.stop) return ackError('conflict', `tether on that machine is older than stopping from here: run tether adopt ${adopted.backgroundId} --stop there`);
  return null;
}

async function stopSession(o: { deps: Deps; exits: ReturnType<typeof createRunnerExits>; ns: Namespace; session: Session; stopInPool?: boolean }): Promise<Ack<WebAcks['session:stop']>> {
  const sessionId = o.session.id;
  o.exits.stopAsked(o.ns, sessionId);
  try {
    const graceful = o.deps.readiness.wait({ namespace: o.ns, sessionId, goal: 'ended', timeoutMs: SESSION_STOP_GRACE_MS });
    o.deps.runners.send(o.ns, sessionId, 'session:stop', o.stopInPool ? { sessionId, stopInPool: true } : { sessionId });
    let outcome = await graceful;
    if (outcome.kind === 'timeout') {
      const daemon = o.session.machineId ? await o.deps.daemons.locate(o.ns, o.session.machineId) : null;
      if (!daemon) return ackError('conflict', `the session did not stop within ${SESSION_STOP_GRACE_MS / 1000} s and no daemon of its machine is online to force it`);
      const forced = o.deps.readiness.wait({ namespace: o.ns, sessionId, goal: 'ended', timeoutMs: SESSION_KILL_WAIT_MS });
      const kill = await o.deps.daemons.command(daemon, 'daemon:kill', { sessionId });
      if (!kill.ok || !kill.killed) {
        o.deps.readiness.runnerExited(o.ns, sessionId, { exitCode: null, reason: null });
        await forced;
        return ackError('conflict', kill.ok ? 'the daemon does not know this session\'s runner (started elsewhere?)' : kill.error);
      }
      outcome = await forced;
      if (outcome.kind === 'timeout') return ackError('internal', 'the runner was killed but its exit was not seen');
    }
    const ended = await o.deps.sessions.get(o.ns, sessionId);
    return ended ? { ok: true, session: ended } : ackError('not_found', 'no such session');
  } finally {
    o.exits.stopDone(o.ns, sessionId);
  }
}

/** The machine an ended session resumes on (through its daemon), or why it cannot be resumed from here. */
function resumableOn(current: Session): { machineId: string } | SpawnAckError {
  if (!isFinalStatus(current.status)) return spawnError('conflict', 'session_live', 'the session is still running; attach to it or stop it first');
  if (!current.agentSessionId) return spawnError('conflict', 'not_resumable', `${current.agent} never started a conversation in this session; there is nothing to resume`);
  // The id goes on the agent's command line: only its own format (a row of an older hub may hold another).
  if (!AgentSessionIdSchema.safeParse(current.agentSessionId).success) return spawnError('conflict', 'not_resumable', `this session's ${current.agent} id is not one that can be resumed`);
  if (!current.machineId) {
    const again = current.capabilities ? `run ${resumeAtDesk(current.capabilities, current.agentSessionId)}` : `resume ${current.agent}'s session ${current.agentSessionId}`;
    return spawnError('conflict', 'not_resumable', `this session was started at a desk, not by a daemon: ${again} there`);
  }
  return { machineId: current.machineId };
}

/** How an ended session comes back: one tether attached to (capabilities.adopted) is attached to
 *  again, its background session still running in the agent's pool (if it ended there, the runner
 *  says so); any other resumes its conversation, in its own launch kind or the one asked for. */
function comeback(current: Session, launchKind: LaunchKind | undefined): Pick<DaemonSpawn, 'launchKind' | 'backgroundId' | 'resumeAgentSessionId'> {
  const adopted = current.capabilities?.adopted;
  if (adopted && launchKind === undefined) return { launchKind: 'attached', backgroundId: adopted.backgroundId, resumeAgentSessionId: null };
  return { launchKind: launchKind ?? current.launchKind, resumeAgentSessionId: current.agentSessionId };
}

/** A daemon older than worktrees drops the spawn's `worktree` and starts the session in the
 *  repository itself: not what was asked. Its runner goes at once, and the person is told why. */
async function refuseOlderDaemon(o: { deps: Deps; exits: ReturnType<typeof createRunnerExits>; ns: Namespace; socket: DaemonTarget; sessionId: string; ready: Promise<ReadinessOutcome> }) {
  void o.deps.daemons.command(o.socket, 'daemon:kill', { sessionId: o.sessionId });
  o.exits.notStarted(o.ns, o.sessionId);
  const reason = 'tether on that machine is older than worktrees: update it there, or start without a new worktree';
  o.deps.readiness.runnerExited(o.ns, o.sessionId, { exitCode: null, reason });
  await o.ready;
  return spawnError('conflict', 'worktree_failed', reason);
}

/** The online daemon of a machine of this namespace, or why there is none. */
async function daemonOf(deps: Deps, ns: Namespace, machineId: string) {
  const machine = await deps.machines.find(ns, machineId);
  if (!machine) return spawnError('not_found', 'machine_unknown', 'no such machine');
  const socket = await deps.daemons.locate(ns, machineId);
  if (!socket) return spawnError('conflict', 'machine_offline', `machine "${machine.name}" is offline: start tether daemon there`);
  return { socket, machine };
}

/** The spawn's answer once its readiness is known: the session, or why not (a session that never got
 *  ready is stopped and ended as failed, never left half-started). */
async function answerStart(o: { deps: Deps; ns: Namespace; socket: DaemonTarget; sessionId: string; agent: string; logFile: string; outcome: ReadinessOutcome }): Promise<Ack<WebAcks['session:spawn']>> {
  const { deps, ns, sessionId, outcome } = o;
  switch (outcome.kind) {
    case 'ready':
      return { ok: true, session: outcome.session };
    case 'ended': {
      const reason = outcome.reason ?? `the runner exited (code ${outcome.exitCode ?? 'unknown'}) before ${o.agent} was ready`;
      await deps.sessions.endOnBehalf(ns, { sessionId, status: 'failed', exitCode: outcome.exitCode, reason });
      return spawnError('internal', 'claude_failed', reason);
    }
    case 'timeout': {
      const reason = `${o.agent} was not ready within ${SESSION_READY_TIMEOUT_MS / 1000} s; the session was stopped (see the runner log: ${o.logFile})`;
      deps.runners.send(ns, sessionId, 'session:stop', { sessionId });
      void deps.daemons.command(o.socket, 'daemon:kill', { sessionId });
      await deps.sessions.endOnBehalf(ns, { sessionId, status: 'failed', exitCode: null, reason });
      return spawnError('internal', 'timeout', reason);
    }
    default: {
      const never: never = outcome;
      return never;
    }
  }
}
