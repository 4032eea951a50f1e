// worktrees.ts (daemon): the hub's worktree commands on this machine, and a spawn that starts in a
// new worktree (issue 30; the git work itself is worktrees/worktrees.ts).
//
//   daemon:spawn {worktree} ─► git worktree add <repo>.worktrees/<branch> ─► runner in it
//                              (the runner refused: worktree and branch discarded, nothing left)
//   daemon:worktree-probe   ─► is the folder in a repository, its branch, its worktrees (read only)
//   daemon:worktree-inspect ─► what removing a worktree would lose (ignored files too) and its digest
//   daemon:worktree-remove  ─► looked at again: removed, or refused naming what would be lost unless
//                              `confirm` is the digest of exactly what is there now
//
// Invariant: inspect and remove act only on a folder git lists as a worktree of the named
// repository other than the repository itself, whatever the hub sends; the daemon, not the phone,
// decides whether a confirmation covers what removal would delete.
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { ackError, spawnError, type Ack, type DaemonCommandAcks, type DaemonSpawn, type DaemonSpawnAck, type SessionWorktree, type WorktreeConfirm } from '@tether/shared';
import { createWorktree, discardNewWorktree, inspectWorktree, isWorktreeOf, probeFolder, removeWorktree } from '../worktrees/worktrees.ts';
import { expandDir } from './spawn.ts';

type Acks = DaemonCommandAcks;

export function worktreeCommands(env: NodeJS.ProcessEnv) {
  const home = env.HOME || homedir();
  return {
    async probe({ cwd }: { cwd: string }): Promise<Ack<Acks['daemon:worktree-probe']>> {
      const dir = expandDir(cwd, home);
      if (!isAbsolute(dir)) return ackError('bad_request', `the directory must be an absolute path (got "${cwd}")`);
      const found = await probeFolder(dir);
      return { ok: true, repo: found.repo, branch: found.branch, worktrees: found.worktrees.slice(0, 200).map((w) => ({ path: w.path, branch: w.branch, main: w.main })) };
    },
    async inspect(request: { repo: string; path: string; measure?: 'all' | 'loss' }): Promise<Ack<Acks['daemon:worktree-inspect']>> {
      const mine = await isWorktreeOf(request);
      if (!mine.ok) return mine;
      return inspectWorktree(request.path, { measure: request.measure ?? 'all' });
    },
    async remove(request: { repo: string; path: string; confirm: WorktreeConfirm }): Promise<Ack<Acks['daemon:worktree-remove']>> {
      const mine = await isWorktreeOf(request);
      if (!mine.ok) return mine;
      return removeWorktree({ path: request.path, confirm: request.confirm });
    },
  };
}

/** A spawn with `worktree`: the worktree is made first and the runner starts in it; a runner that
 *  cannot start takes the fresh worktree (and its branch) with it. Without: `start` as it was. */
export async function spawnInWorktree(options: {
  request: DaemonSpawn;
  home: string;
  start: (request: DaemonSpawn) => Ack<DaemonSpawnAck>;
}): Promise<Ack<DaemonSpawnAck>> {
  const { request } = options;
  if (!request.worktree) return options.start(request);
  if (request.resumeAgentSessionId) return spawnError('bad_request', 'worktree_failed', 'a resumed session runs where it ran before; a new worktree is for a new session');
  const repo = expandDir(request.cwd, options.home);
  if (!isAbsolute(repo)) return spawnError('bad_request', 'not_a_directory', `the directory must be an absolute path (got "${request.cwd}")`);
  const made = await createWorktree({ repo, branch: request.worktree.branch, ...(request.worktree.base ? { base: request.worktree.base } : {}) });
  if (!made.ok) return spawnError(made.code, made.code === 'not_found' ? 'dir_missing' : 'worktree_failed', made.error);
  const worktree: SessionWorktree = { path: made.worktree.path, branch: request.worktree.branch, repo: made.repo, removedAt: null, base: made.base };
  const started = options.start({ ...request, cwd: worktree.path, createDir: false, worktree: null });
  if (!started.ok) {
    await discardNewWorktree(worktree);
    return started;
  }
  return { ...started, worktree };
}
