// worktrees.ts: a session in a git worktree of its own (issue 30): the branch a spawn asks for, the
// worktree a session records, and the hub ⇄ daemon ⇄ web questions about it (is this folder a
// repository; what would removing a session's worktree lose; remove it).
//
//   web ─worktree:probe {machineId, cwd}─► hub ─daemon:worktree-probe─► daemon (git, read only)
//   web ─session:spawn {worktree: {branch}}─► hub ─daemon:spawn─► daemon: git worktree add, runner in it
//   web ─worktree:inspect / worktree:remove {sessionId}─► hub (the session's recorded worktree, never a
//        path from the phone) ─daemon:worktree-inspect / -remove─► daemon
//
// Invariants: a branch name is checked here, before anything reaches a machine (no `..`, no shell
// or path syntax, git's own ref rules), and again by the daemon before git runs. A removal's
// confirmation is the digest of the loss the person was shown (issue 38), decided by the daemon at
// removal; every older shape (a loss without ignored files, `confirm: true`) still parses, and
// covers nothing that would be lost.
import { z } from 'zod';
import { MachineIdSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { MAX_LABEL_CHARS, MAX_PATH_CHARS } from './limits.ts';

export const MAX_BRANCH_CHARS = 200;
/** How long the hub waits for a daemon's ack of a spawn in a new worktree: `git worktree add`
 *  checks out the whole tree first (the daemon gives it 25 s), well inside the session's ready wait. */
export const WORKTREE_SPAWN_ACK_MS = 30_000;
/** Letters, digits and `._/-` only: nothing a shell, a path or a ref would read as syntax. */
const BRANCH_CHARS = /^[A-Za-z0-9._/-]+$/;

/** Why `name` is not a branch name tether takes (null: it is). Stricter than git: no spaces,
 *  quotes, `~^:?*[\` or anything a shell reads, and git's own rules on dots and slashes. */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0 || name.length > MAX_BRANCH_CHARS) return `a branch name is 1 to ${MAX_BRANCH_CHARS} characters`;
  if (!BRANCH_CHARS.test(name)) return `"${name.slice(0, 80)}": a branch name here takes letters, digits and . _ / - only (no spaces or shell characters)`;
  const parts = name.split('/');
  if (name.includes('..') || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.includes('//') || parts.some((p) => p.startsWith('.') || p.endsWith('.lock')) || name === '@') {
    return `"${name}" is not a branch name git takes (no '..', no part starting with '.' or ending in '.lock', no leading '-' or '/')`;
  }
  return null;
}

export const BranchNameSchema = z.string().superRefine((name, ctx) => {
  const problem = branchNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A spawn's ask: a new worktree of the chosen folder's repository, on a new branch from `base`
 *  (default: the repository's current commit). */
export const SpawnWorktreeSchema = z.object({ branch: BranchNameSchema, base: BranchNameSchema.optional() }).strict();
export type SpawnWorktree = z.infer<typeof SpawnWorktreeSchema>;

const PathString = z.string().min(1).max(MAX_PATH_CHARS);

/** A commit id as git prints it, short or full (lower-case hex only: nothing git reads as an option). */
export const CommitIdSchema = z.string().regex(/^[0-9a-f]{7,64}$/, 'a commit id is 7 to 64 lower-case hex digits');

/** Where a session's branch started: the branch it was made from (null: a detached HEAD) and the
 *  commit it pointed at then. Changes compares with the newest common commit of that branch and the
 *  session's, so a base that moved on since does not show its own commits as the session's. */
export const WorktreeBaseSchema = z.object({ ref: BranchNameSchema.nullable(), commit: CommitIdSchema });
export type WorktreeBase = z.infer<typeof WorktreeBaseSchema>;

/** The worktree a session runs in, as the daemon made it. `removedAt`: removed on Archive. */
export const SessionWorktreeSchema = z.object({
  path: PathString,
  branch: z.string().min(1).max(MAX_BRANCH_CHARS),
  /** The repository's main folder it was made from. */
  repo: PathString,
  removedAt: TimestampSchema.nullable().default(null),
  /** Null from a daemon older than this field (the Changes view then compares with HEAD only). */
  base: WorktreeBaseSchema.nullable().default(null),
});
export type SessionWorktree = z.infer<typeof SessionWorktreeSchema>;

/** One worktree of a repository, as `git worktree list` states it. */
export const WorktreeEntrySchema = z.object({
  path: PathString,
  branch: z.string().max(MAX_LABEL_CHARS).nullable(),
  main: z.boolean(),
});
export type WorktreeEntry = z.infer<typeof WorktreeEntrySchema>;

/** How many ignored paths (and rebuildable folders) an inspect names; `ignoredMore` counts the rest. */
export const MAX_IGNORED_SHOWN = 100;

/** An ignored path of a worktree (relative to it; a folder ends in `/`) with what a bounded walk of
 *  it found. The walk never follows a link (a link counts as itself). `bytes`/`files` null: not
 *  measured (the scan's cap came before it, or a removal, which measures only what needs confirming). */
export const IgnoredEntrySchema = z.object({
  path: z.string().min(1).max(MAX_PATH_CHARS),
  bytes: z.number().int().nonnegative().nullable(),
  files: z.number().int().nonnegative().nullable(),
  /** The walk stopped inside it (its cap of entries, depth or time): there is at least this much. */
  atLeast: z.boolean(),
});
export type IgnoredEntry = z.infer<typeof IgnoredEntrySchema>;

/** What a confirmation names: the daemon's SHA-256 (hex) of everything a removal would lose. */
export const LossDigestSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a loss digest is 64 lower-case hex digits');

/** What removing a worktree would lose: files not committed, commits no remote has (`abc1234 msg`),
 *  and files git ignores. Ignored paths inside a rebuildable folder (node_modules, dist, build,
 *  target, .venv, __pycache__, .next, by name anywhere in the tree) are `rebuildable`: named with
 *  their size, no confirmation needed for them alone; every other ignored path is `ignored`: lost,
 *  confirmed like an uncommitted file. The defaults read an older daemon's answer, which looked at
 *  no ignored file: `digest` null says so, and the hub then removes nothing. */
export const WorktreeLossSchema = z.object({
  uncommitted: z.array(z.string().max(MAX_PATH_CHARS)).max(1_000),
  unpushed: z.array(z.string().max(MAX_LABEL_CHARS)).max(1_000),
  ignored: z.array(IgnoredEntrySchema).max(MAX_IGNORED_SHOWN).default([]),
  /** Ignored paths past the ones listed (all of them lost too). */
  ignoredMore: z.number().int().nonnegative().default(0),
  rebuildable: z.array(IgnoredEntrySchema).max(MAX_IGNORED_SHOWN).default([]),
  rebuildableMore: z.number().int().nonnegative().default(0),
  /** What a removal's `confirm` must repeat: it covers exactly this loss (every file of it, not only
   *  the ones listed). Null from a daemon older than the ignored-file check. */
  digest: LossDigestSchema.nullable().default(null),
});
export type WorktreeLoss = z.infer<typeof WorktreeLossSchema>;

/** A removal's confirmation: the `digest` of the loss the person was shown. The daemon looks again
 *  at removal and removes only when it is what is there now. `true` (an older web or hub) names
 *  nothing, so it covers no loss; `false`: nothing may be lost. */
export const WorktreeConfirmSchema = z.union([z.boolean(), LossDigestSchema]).default(false);
export type WorktreeConfirm = z.infer<typeof WorktreeConfirmSchema>;

/** Web → hub: is this folder on that machine in a git repository (the form's "new worktree"). */
export const WorktreeProbeSchema = z.object({ machineId: MachineIdSchema, cwd: PathString }).strict();
/** The answer: `repo` null when the folder is in no repository (or does not exist). */
export const WorktreeProbeAckSchema = z.object({
  repo: PathString.nullable(),
  /** The branch checked out there (null: detached HEAD, or no repository). */
  branch: z.string().max(MAX_LABEL_CHARS).nullable(),
  worktrees: z.array(WorktreeEntrySchema).max(200),
});
export type WorktreeProbeAck = z.infer<typeof WorktreeProbeAckSchema>;

/** Web → hub: what removing this ended session's worktree would lose (asked before Archive). */
export const WorktreeInspectSchema = z.object({ sessionId: SessionIdSchema }).strict();
export const WorktreeInspectAckSchema = z.object({ worktree: SessionWorktreeSchema, loss: WorktreeLossSchema });
export type WorktreeInspectAck = z.infer<typeof WorktreeInspectAckSchema>;

/** Web → hub: remove this ended session's worktree. With anything to lose, refused (`conflict`,
 *  naming it) unless `confirm` is the digest of what is there at removal. */
export const WorktreeRemoveSchema = z.object({ sessionId: SessionIdSchema, confirm: WorktreeConfirmSchema }).strict();

/** Hub → daemon: the same three, about a folder of that machine. */
export const DaemonWorktreeProbeSchema = z.object({ cwd: PathString });
export const DaemonWorktreeInspectSchema = z.object({
  repo: PathString,
  path: PathString,
  /** `loss`: the rebuildable folders named, not sized (the hub's look before a removal; an older
   *  daemon drops the field and sizes them all the same). */
  measure: z.enum(['all', 'loss']).default('all'),
});
export const DaemonWorktreeRemoveSchema = z.object({ repo: PathString, path: PathString, confirm: WorktreeConfirmSchema });
export const DaemonWorktreeRemoveAckSchema = z.object({ removed: PathString, lost: WorktreeLossSchema });
export type DaemonWorktreeRemoveAck = z.infer<typeof DaemonWorktreeRemoveAckSchema>;

export const DaemonWorktreeCommandSchemas = {
  'daemon:worktree-probe': DaemonWorktreeProbeSchema,
  'daemon:worktree-inspect': DaemonWorktreeInspectSchema,
  'daemon:worktree-remove': DaemonWorktreeRemoveSchema,
} as const;
export const DaemonWorktreeCommandAckSchemas = {
  'daemon:worktree-probe': WorktreeProbeAckSchema,
  'daemon:worktree-inspect': WorktreeLossSchema,
  'daemon:worktree-remove': DaemonWorktreeRemoveAckSchema,
} as const;
export type DaemonWorktreeCommandAcks = {
  'daemon:worktree-probe': WorktreeProbeAck;
  'daemon:worktree-inspect': WorktreeLoss;
  'daemon:worktree-remove': DaemonWorktreeRemoveAck;
};
