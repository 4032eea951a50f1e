// worktrees.ts: a session's git worktree from the phone (issue 30), through its machine's daemon:
// the form's question (is this folder a repository), and before Archive, what removing the
// session's worktree would lose, and the removal itself. The spawn in a new worktree is
// machines/remote-sessions.ts's (the daemon makes it; the ack's record is stored there).
//
//   web ─worktree:probe {machineId, cwd}──────────► daemon:worktree-probe ─► ack
//   web ─worktree:inspect / worktree:remove {sessionId}─► the session's RECORDED worktree (path, repo)
//        ─► daemon:worktree-inspect / -remove ─► removed: the record keeps removedAt ─► session.updated,
//           and the session's history says who removed it from which device (history.ts)
//
// Invariants: machines and sessions of the caller's namespace only; a path never comes from the
// phone for inspect or remove (only a session id), and the daemon checks again that it is a
// worktree of that repository; a live session's worktree is never removed (end it first); with
// uncommitted or unpushed work or ignored files (rebuildable folders apart) the daemon refuses
// unless `confirm` is the digest of what is there at removal, naming what would be lost; a daemon
// that cannot name ignored files (older: no digest) removes nothing.
import { ackError, isFinalStatus, spawnError, type Ack, type Namespace, type Session, type WebAcks, type WorktreeConfirm } from '@tether/shared';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { DaemonDirectory } from '../machines/daemons.ts';
import type { Machines } from '../machines/machines.ts';
import type { FactBus } from '../facts/facts.ts';
import type { Store } from '../store/store.ts';
import { recordRemoval, type WorktreeActor } from './history.ts';

export type Worktrees = ReturnType<typeof createWorktrees>;

const OLDER_DAEMON = 'tether on that machine is older than the check for files git ignores (.env, build output): update it there to remove this worktree from here; Archive keeps it';

type WorktreeOf = { session: Session; worktree: NonNullable<Session['worktree']> };

export function createWorktrees(deps: { sessions: Sessions; machines: Machines; daemons: DaemonDirectory; store: Pick<Store, 'addRequest' | 'resolveRequest'>; facts: Pick<FactBus, 'publish'> }) {
  const { sessions, machines, daemons } = deps;

  const daemonOf = async (ns: Namespace, machineId: string) => {
    const machine = await machines.find(ns, machineId);
    if (!machine) return spawnError('not_found', 'machine_unknown', 'no such machine');
    const socket = await daemons.locate(ns, machineId);
    if (!socket) return spawnError('conflict', 'machine_offline', `machine "${machine.name}" is offline: its worktrees stay as they are`);
    return { socket };
  };

  /** The session's worktree, still on disk, and the daemon of its machine; or why not. */
  const recorded = async (ns: Namespace, sessionId: string): Promise<Ack<WorktreeOf>> => {
    const session = await sessions.get(ns, sessionId);
    if (!session) return ackError('not_found', 'no such session');
    const worktree = session.worktree;
    if (!worktree) return ackError('bad_request', 'this session does not run in a worktree of its own');
    if (worktree.removedAt !== null) return ackError('gone', `the worktree ${worktree.path} was removed already`);
    return { ok: true, session, worktree };
  };

  return {
    async probe(ns: Namespace, { machineId, cwd }: { machineId: string; cwd: string }): Promise<Ack<WebAcks['worktree:probe']>> {
      const found = await daemonOf(ns, machineId);
      if ('ok' in found) return found;
      return daemons.command(found.socket, 'daemon:worktree-probe', { cwd });
    },
    async inspect(ns: Namespace, { sessionId }: { sessionId: string }): Promise<Ack<WebAcks['worktree:inspect']>> {
      const of = await recorded(ns, sessionId);
      if (!of.ok) return of;
      if (!of.session.machineId) return ackError('bad_request', 'this session has no machine on record');
      const found = await daemonOf(ns, of.session.machineId);
      if ('ok' in found) return found;
      const answer = await daemons.command(found.socket, 'daemon:worktree-inspect', { repo: of.worktree.repo, path: of.worktree.path });
      if (!answer.ok) return answer;
      const { ok: _ok, ...loss } = answer;
      return { ok: true, worktree: of.worktree, loss };
    },
    /** `actor`: who asked, for the session's history (a removal is recorded like a git write). */
    async remove(ns: Namespace, { sessionId, confirm }: { sessionId: string; confirm: WorktreeConfirm }, actor: WorktreeActor): Promise<Ack<WebAcks['worktree:remove']>> {
      const of = await recorded(ns, sessionId);
      if (!of.ok) return of;
      if (!isFinalStatus(of.session.status)) return ackError('conflict', 'the session still runs in this worktree: end it first');
      if (!of.session.machineId) return ackError('bad_request', 'this session has no machine on record');
      const found = await daemonOf(ns, of.session.machineId);
      if ('ok' in found) return found;
      // A daemon older than the ignored-file check would delete `.env` and the like unnamed: its
      // answer has no digest, and nothing is removed through it.
      const looked = await daemons.command(found.socket, 'daemon:worktree-inspect', { repo: of.worktree.repo, path: of.worktree.path, measure: 'loss' });
      if (!looked.ok) return looked;
      if (looked.digest === null) return ackError('conflict', OLDER_DAEMON);
      const removed = await daemons.command(found.socket, 'daemon:worktree-remove', { repo: of.worktree.repo, path: of.worktree.path, confirm });
      if (!removed.ok) return removed;
      const session = await sessions.recordWorktree(ns, sessionId, { ...of.worktree, removedAt: Date.now() });
      if (!session) return ackError('not_found', 'no such session');
      await recordRemoval({ store: deps.store, facts: deps.facts, namespace: ns, sessionId, actor, worktree: of.worktree, lost: removed.lost });
      return { ok: true, session, lost: removed.lost };
    },
  };
}
