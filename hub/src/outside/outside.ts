// outside.ts: conversations found on a machine that tether did not run (shared outside.ts; issue 40):
// the daemon's index kept, listed a page at a time, the machine's switch, and adopting one.
//
//   daemon ─outside:index─► indexed ─► store (index only)          web ─GET …/outside─► list
//   web ─machine:outside─► store switch ─► machine.updated ─daemon:outside─► daemon
//   web ─session:resume { fork }─► forkSession: a tether session's conversation in a new session
//   web ─outside:adopt─► claim (one of two wins) ─► remote.spawn {resume, adopting} ─► ack {session}
//                                                  └ a background session (backgroundId): {attached} instead
//                                      └ refused or failed: the claim is released, nothing half-adopted
//
// Invariants: everything is looked up in the caller's namespace (another's machine answers like a
// missing one); a conversation a live process still writes is never adopted; a fork claims nothing
// (the found conversation stays as it was, and stays listed).
import { ackError, AgentSessionIdSchema, spawnError, type Ack, type AgentKind, type Namespace, type Session, type OutsideListResponse, type OutsideSession, type WebAcks } from '@tether/shared';
import type { z } from 'zod';
import type { MachineOutsideSchema, OutsideAdoptSchema, OutsideIndexSchema, OutsideListQuerySchema, SessionResumeSchema } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { DaemonDirectory, DaemonTarget } from '../machines/daemons.ts';
import type { Machines } from '../machines/machines.ts';
import type { RemoteSessions } from '../machines/remote-sessions.ts';

type Deps = { store: Store; facts: FactBus; machines: Machines; daemons: DaemonDirectory; remote: RemoteSessions; onError: (what: string, error: unknown) => void };

export type Outside = ReturnType<typeof createOutside>;

/** What can be done with a conversation a live process still writes. */
export function liveRefusal(agentName: string): string {
  return `a live ${agentName} still writes this conversation: it cannot be shared while it runs; continue it here once it has ended`;
}

/** Why this machine's agent cannot fork (its capabilities say), or null. */
async function forkRefusal(deps: Deps, ns: Namespace, entry: { machineId: string; agent: AgentKind }) {
  const fork = (await deps.machines.find(ns, entry.machineId))?.capabilities[entry.agent]?.fork;
  if (fork?.supported) return null;
  return spawnError('bad_request', 'not_resumable', `${entry.agent} cannot fork a conversation${fork?.reason ? `: ${fork.reason}` : ' (its tether there is older than forks)'}`);
}

/** Why a session's conversation cannot be forked into a new session, or null. */
function sessionForkRefusal(current: Session) {
  if (!current.agentSessionId || !AgentSessionIdSchema.safeParse(current.agentSessionId).success) return spawnError('conflict', 'not_resumable', `${current.agent} never started a conversation in this session; there is nothing to fork`);
  if (!current.capabilities?.fork?.supported) return spawnError('bad_request', 'not_resumable', `${current.agent} cannot fork a conversation: ${current.capabilities?.fork?.reason ?? 'its runner states no fork'}`);
  if (!current.machineId) return spawnError('conflict', 'not_resumable', 'this session was started at a desk, not by a daemon: fork it where it runs');
  return null;
}

/** A new session continuing `current`'s conversation as the agent's fork (forkRefusal passed). */
function forkSpawn(current: Session, launchKind: Session['launchKind'] | undefined) {
  return {
    machineId: current.machineId!,
    cwd: current.cwd,
    launchKind: launchKind ?? current.launchKind,
    agent: current.agent,
    createDir: false,
    resumeAgentSessionId: current.agentSessionId!,
    ...(current.model ? { model: current.model } : {}),
    permissionMode: current.permissionMode,
  };
}

/** Adopting a background session the agent runs (claude --bg) attaches to it live; anything else
 *  (a past conversation, or any fork) resumes the conversation through the daemon. */
function attaches(entry: { backgroundId?: string | undefined }, request: { fork: boolean }): boolean {
  return entry.backgroundId !== undefined && !request.fork;
}

/** The spawn that adopts `entry` (checked: not a live conversation in someone's terminal). */
function adoptSpawn(entry: OutsideSession, request: z.output<typeof OutsideAdoptSchema>) {
  const where = { machineId: entry.machineId, cwd: entry.folder, agent: entry.agent, createDir: false };
  if (attaches(entry, request)) return { ...where, launchKind: 'attached' as const, backgroundId: entry.backgroundId! };
  return { ...where, launchKind: request.launchKind, resumeAgentSessionId: entry.agentSessionId };
}

export function createOutside(deps: Deps) {
  const { store } = deps;
  /** When each machine's whole report began (its daemon reports on one hub at a time). */
  const reportStarted = new Map<string, number>();
  const k = (ns: Namespace, machineId: string) => `${ns}\u0000${machineId}`;

  const tellDaemon = async (target: DaemonTarget, enabled: boolean) => {
    const ack = await deps.daemons.command(target, 'daemon:outside', { enabled });
    if (!ack.ok) deps.onError('daemon:outside', new Error(ack.error));
  };

  return {
    async indexed(ns: Namespace, machineId: string | null, index: z.output<typeof OutsideIndexSchema>): Promise<Ack<object>> {
      if (!machineId) return ackError('bad_request', 'register the machine first');
      const now = Date.now();
      if (index.reset) reportStarted.set(k(ns, machineId), now);
      const sweepBefore = index.complete ? (reportStarted.get(k(ns, machineId)) ?? null) : null;
      if (index.complete) reportStarted.delete(k(ns, machineId));
      await store.recordOutside({ namespace: ns, machineId, entries: index.entries, removed: index.removed, sweepBefore, now });
      return { ok: true };
    },

    /** A page of one machine's found conversations; null for a machine not of this namespace. */
    async list(ns: Namespace, machineId: string, query: z.output<typeof OutsideListQuerySchema>): Promise<OutsideListResponse | null> {
      const machine = await deps.machines.find(ns, machineId);
      if (!machine) return null;
      const { sessions, total } = await store.listOutside({ namespace: ns, machineId, q: query.q.trim(), offset: query.offset, limit: query.limit });
      return { sessions, total, more: query.offset + sessions.length < total, enabled: machine.outside };
    },

    async setSwitch(ns: Namespace, { machineId, enabled }: z.output<typeof MachineOutsideSchema>): Promise<Ack<WebAcks['machine:outside']>> {
      const machine = await store.setMachineOutside({ namespace: ns, machineId, enabled });
      if (!machine) return ackError('not_found', 'no such machine');
      deps.facts.publish('machine.updated', { namespace: ns, machine });
      const target = await deps.daemons.locate(ns, machineId);
      if (target) await tellDaemon(target, enabled);
      return { ok: true, machine };
    },

    /** A daemon registered: it hears the machine's switch. */
    daemonRegistered(ns: Namespace, machineId: string, target: DaemonTarget): void {
      void deps.machines
        .find(ns, machineId)
        .then((machine) => (machine ? tellDaemon(target, machine.outside) : undefined))
        .catch((error: unknown) => deps.onError('daemon:outside', error));
    },

    /** A tether session's conversation continued in a NEW session (session:resume { fork }), live or ended. */
    async forkSession(ns: Namespace, { sessionId, launchKind }: z.output<typeof SessionResumeSchema>): Promise<Ack<WebAcks['session:resume']>> {
      const current = await store.getSession({ namespace: ns, sessionId });
      if (!current) return ackError('not_found', 'no such session');
      return sessionForkRefusal(current) ?? deps.remote.spawn(ns, forkSpawn(current, launchKind), { fork: true });
    },

    async adopt(ns: Namespace, request: z.output<typeof OutsideAdoptSchema>): Promise<Ack<WebAcks['outside:adopt']>> {
      const found = (await store.findOutside({ namespace: ns, agentSessionId: request.agentSessionId })).filter((e) => !request.machineId || e.machineId === request.machineId);
      if (found.length === 0) return spawnError('not_found', 'not_resumable', `no conversation ${request.agentSessionId} was found on ${request.machineId ? 'that machine' : 'your machines'}`);
      if (found.length > 1) return spawnError('bad_request', 'not_resumable', 'that conversation was found on more than one machine: name the machine');
      const entry = found[0]!;
      if (request.fork) {
        const refused = await forkRefusal(deps, ns, entry);
        if (refused) return refused;
      } else if (entry.live && !entry.backgroundId) return spawnError('conflict', 'session_live', liveRefusal(entry.agent));
      const claims = !request.fork;
      if (claims && (entry.claimed || !(await store.claimOutside({ namespace: ns, machineId: entry.machineId, agentSessionId: entry.agentSessionId, now: Date.now() })))) {
        return spawnError('conflict', 'session_live', 'someone else is adopting this conversation (or has adopted it): it is theirs now');
      }
      let ack: Ack<WebAcks['outside:adopt']>;
      try {
        ack = await deps.remote.spawn(ns, adoptSpawn(entry, request), { adopting: !attaches(entry, request), fork: request.fork });
      } catch (error) {
        ack = ackError('internal', error instanceof Error ? error.message : String(error));
      }
      if (claims && !ack.ok) await store.releaseOutside({ namespace: ns, machineId: entry.machineId, agentSessionId: entry.agentSessionId });
      return ack;
    },
  };
}
