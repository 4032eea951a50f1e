// git-actions.ts: what a person may WRITE to a session's git repository from the phone (Changes):
// stage or unstage a file, commit, push to the branch's upstream, open a pull request. Apart from
// workspace.ts on purpose: that room reads and never writes; this one writes, and nothing else.
//
//   web ─GET/POST /api/sessions/:id/git─► hub (namespace, live, mid-turn) ─git:action (ack)─► runner
//   runner: git (args as an array, no shell, GIT_TERMINAL_PROMPT=0) inside the session's folder ─ack─►
//   hub: answer checked here, the action recorded in the session's history (who, device, what)
//
// Invariants: paths are WorkspacePaths (relative, no `..`, no `.git`) and must be files git lists
// as changed in the session's folder; a message is not blank; push goes to the upstream git knows,
// with the machine's own credentials (the hub never sees one). A write while the agent is mid-turn
// is refused unless the request says `confirm: true`.
import { z } from 'zod';
import { SessionIdSchema } from './ids.ts';
import { MAX_LABEL_CHARS } from './limits.ts';
import { WorkspacePathSchema, gitWorkTreeAnswer } from './workspace.ts';

/** Files staged or unstaged in one request (a phone toggles one; "all" sends the list). */
export const GIT_MAX_PATHS_PER_ACTION = 200;
/** Longest commit message taken from a phone. */
export const GIT_MAX_MESSAGE_CHARS = 10_000;
/** Files the state lists (the rest are counted). */
export const GIT_MAX_STATE_FILES = 1_000;

const PathsSchema = z
  .array(WorkspacePathSchema.refine((p) => p !== '', 'name a file, not the whole folder'))
  .min(1, 'name at least one file')
  .max(GIT_MAX_PATHS_PER_ACTION);

/** What a person asks for (the REST body's `action` and its fields). */
export const GitWriteSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('stage'), paths: PathsSchema }),
  z.object({ action: z.literal('unstage'), paths: PathsSchema }),
  z.object({
    action: z.literal('commit'),
    message: z.string().max(GIT_MAX_MESSAGE_CHARS).refine((m) => m.trim() !== '', 'a commit needs a message'),
  }),
  z.object({ action: z.literal('push') }),
  z.object({ action: z.literal('pull-request') }),
]);
export type GitWrite = z.infer<typeof GitWriteSchema>;
export type GitActionName = GitWrite['action'];

/** REST: `POST /api/sessions/:id/git`. `confirm`: go ahead although the agent is mid-turn.
 *  `device`: the browser's own name for itself, for the history (like an approval's). */
export const GitActionBodySchema = z.intersection(
  GitWriteSchema,
  z.object({ confirm: z.boolean().default(false), device: z.string().max(MAX_LABEL_CHARS).nullable().default(null) }),
);
export type GitActionBody = z.input<typeof GitActionBodySchema>;

/** hub → runner (`git:action`, acked with a GitAnswer): `state` reads, the rest write. */
export const GitQuerySchema = z.intersection(
  z.object({ sessionId: SessionIdSchema }),
  z.union([GitWriteSchema, z.object({ action: z.literal('state') })]),
);
export type GitQuery = z.input<typeof GitQuerySchema>;

/** One changed file in the session's folder: what is in the index, what is only in the work tree. */
export const GitFileStateSchema = z.object({
  path: z.string().max(4096),
  staged: z.boolean(),
  unstaged: z.boolean(),
});
export type GitFileState = z.infer<typeof GitFileStateSchema>;

export const GitStateSchema = gitWorkTreeAnswer('state', {
  /** null: a detached HEAD (nothing to push to). */
  branch: z.string().max(MAX_LABEL_CHARS).nullable(),
  head: z.string().max(100).nullable(),
  /** `origin/main`, or null when the branch has none (push is refused, with how to set one). */
  upstream: z.string().max(MAX_LABEL_CHARS).nullable(),
  ahead: z.number().int().min(0),
  behind: z.number().int().min(0),
  files: z.array(GitFileStateSchema).max(GIT_MAX_STATE_FILES),
  total: z.number().int().min(0),
  /** `gh` is installed and logged in on the machine: "Open pull request" is offered. */
  pullRequests: z.boolean(),
});
export type GitState = z.infer<typeof GitStateSchema>;

/** A write done: what it did in a sentence, what it made, and the state after it. */
export const GitDoneSchema = z.object({
  kind: z.literal('done'),
  action: z.enum(['stage', 'unstage', 'commit', 'push', 'pull-request']),
  summary: z.string().max(MAX_LABEL_CHARS),
  branch: z.string().max(MAX_LABEL_CHARS).nullable(),
  /** The commit made, or the one pushed. */
  sha: z.string().max(100).nullable(),
  /** The pull request's page. */
  url: z.string().max(2000).nullable(),
  state: GitStateSchema,
});
export type GitDone = z.infer<typeof GitDoneSchema>;

export const GitAnswerSchema = z.union([GitStateSchema, GitDoneSchema]);
export type GitAnswer = z.infer<typeof GitAnswerSchema>;

export { GIT_HISTORY_TOOL, GIT_MID_TURN_REFUSAL } from './wire.ts';
