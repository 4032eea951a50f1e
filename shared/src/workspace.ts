// workspace.ts: what a viewer may read of a session's working directory, through the hub, from the
// runner that sits in it: the changes against HEAD (git), a directory listing, one file.
//
//   web ─GET /api/sessions/:id/{changes,files,file}─► hub (namespace check) ─workspace:query (ack)─► runner
//   web ◄──────────── the runner's answer, checked with these schemas on the hub ◄────────────────┘
//
// Invariants: a path is relative to the session's directory, `/`-separated, with no `..`, no empty
// and no `.` segment, no NUL; the runner checks again that its real path stays inside (symlinks).
// Every answer is capped so that it fits one socket event (MAX_PAYLOAD_BYTES) with room to spare.
import { z } from 'zod';
import { SessionIdSchema } from './ids.ts';
import { MAX_LABEL_CHARS, MAX_PATH_CHARS } from './limits.ts';
import { WorktreeBaseSchema } from './worktrees.ts';

/** Most files a changes answer names (the rest are counted, not listed): a generated tree changed
 *  wholesale is not read file by file on a phone. */
export const WORKSPACE_MAX_CHANGED_FILES = 1_000;
/** Diff text per page of changes. Pages end at a file boundary (a file starts on a new page when it
 *  would overflow), so one page stays well under the 1 MiB event cap. */
export const WORKSPACE_DIFF_PAGE_CHARS = 256 * 1024;
/** Diff lines shown of one file; a longer diff is cut, and says how many lines it has. */
export const WORKSPACE_MAX_DIFF_LINES = 3_000;
/** Longest diff line kept (minified code): the rest of the line is cut. */
export const WORKSPACE_MAX_LINE_CHARS = 2_000;
/** Bytes of one file sent to a viewer; a longer file is cut at a line and marked `truncated`. With
 *  JSON's escapes (a newline is two characters) it still fits one event. */
export const WORKSPACE_MAX_FILE_BYTES = 384 * 1024;
/** Entries of one directory listed (node_modules has thousands). */
export const WORKSPACE_MAX_ENTRIES = 2_000;

/** Longest name of one file or folder, in UTF-8 bytes (NAME_MAX on Linux and macOS). */
export const WORKSPACE_MAX_NAME_BYTES = 255;
/** Longest path, in UTF-8 bytes (PATH_MAX on Linux). */
export const WORKSPACE_MAX_PATH_BYTES = 4096;

/** UTF-8 length of `s` (a lone surrogate counts as U+FFFD, 3 bytes, as an encoder writes it). */
function utf8Bytes(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** Longer than a disk takes (the runner would only fail with ENAMETOOLONG): a bad request. */
export function isWorkspacePathTooLong(path: string): boolean {
  return utf8Bytes(path) > WORKSPACE_MAX_PATH_BYTES || path.split('/').some((s) => utf8Bytes(s) > WORKSPACE_MAX_NAME_BYTES);
}

/** `.git` (any case: macOS folders ignore it) is git's own: its config may hold a remote URL with a
 *  token, and a worktree's or submodule's `.git` file points into it. Files never shows it. */
export function isGitPart(part: string): boolean {
  return part.toLowerCase() === '.git';
}

/** `a/b.ts` relative to the session's directory; '' is the directory itself. Lexically contained:
 *  the runner re-checks the real path (a symlink may still point out). */
export const WorkspacePathSchema = z
  .string()
  .max(MAX_PATH_CHARS)
  .refine((p) => !p.includes('\0'), 'a path has no NUL byte')
  .refine((p) => !p.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(p), "an absolute path is outside the session's directory; give it relative to it")
  .refine((p) => p === '' || p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'), "a path goes down from the session's directory: no '..', '.' or empty part")
  .refine((p) => !isWorkspacePathTooLong(p), `a path is at most ${WORKSPACE_MAX_PATH_BYTES} bytes, each name in it at most ${WORKSPACE_MAX_NAME_BYTES} bytes (UTF-8)`)
  .refine((p) => !p.split('/').some(isGitPart), "'.git' is git's own folder (its config may hold a token): it is not shown");
export type WorkspacePath = z.infer<typeof WorkspacePathSchema>;

/** hub → runner (`workspace:query`, acked with a WorkspaceAnswer). */
export const WorkspaceQuerySchema = z.discriminatedUnion('kind', [
  /** The changes against HEAD, files from `cursor` on (0 first); with `base`, against where the
   *  session's branch started (its worktree's recorded base), committed work included. */
  z.object({
    kind: z.literal('changes'),
    sessionId: SessionIdSchema,
    cursor: z.number().int().min(0).max(WORKSPACE_MAX_CHANGED_FILES).default(0),
    base: WorktreeBaseSchema.nullable().default(null),
  }),
  z.object({ kind: z.literal('list'), sessionId: SessionIdSchema, path: WorkspacePathSchema }),
  z.object({ kind: z.literal('read'), sessionId: SessionIdSchema, path: WorkspacePathSchema }),
]);
export type WorkspaceQuery = z.input<typeof WorkspaceQuerySchema>;

const RelPath = z.string().max(MAX_PATH_CHARS);

export const ChangeStatusSchema = z.enum(['modified', 'added', 'deleted', 'renamed', 'copied', 'typechange', 'untracked']);
export type ChangeStatus = z.infer<typeof ChangeStatusSchema>;

/** One changed file: `additions`/`deletions` are null for a binary file. */
export const ChangedFileSchema = z.object({
  path: RelPath,
  oldPath: RelPath.optional(),
  status: ChangeStatusSchema,
  binary: z.boolean(),
  additions: z.number().int().min(0).nullable(),
  deletions: z.number().int().min(0).nullable(),
});
export type ChangedFile = z.infer<typeof ChangedFileSchema>;

/** One hunk: `lines` keep git's first column (' ', '+', '-', '\\'); line numbers follow from the starts. */
export const DiffHunkSchema = z.object({
  oldStart: z.number().int().min(0),
  newStart: z.number().int().min(0),
  /** What git names after the second `@@` (the enclosing function), may be ''. */
  section: z.string().max(WORKSPACE_MAX_LINE_CHARS),
  lines: z.array(z.string().max(WORKSPACE_MAX_LINE_CHARS + 1)).max(WORKSPACE_MAX_DIFF_LINES),
});
export type DiffHunk = z.infer<typeof DiffHunkSchema>;

export const FileDiffSchema = z.object({
  path: RelPath,
  /** Binary: named, never dumped. */
  binary: z.boolean(),
  hunks: z.array(DiffHunkSchema).max(WORKSPACE_MAX_DIFF_LINES),
  /** Diff lines in all (more than shown when `truncated`). */
  lineCount: z.number().int().min(0),
  truncated: z.boolean(),
});
export type FileDiff = z.infer<typeof FileDiffSchema>;

/** An answer about the session's git work tree (`git: true` with `fields`), or why there is none:
 *  the folder is not in a git work tree, or git is missing (nothing to compare with or act on). */
export function gitWorkTreeAnswer<K extends string, F extends z.ZodRawShape>(kind: K, fields: F) {
  return z.discriminatedUnion('git', [
    z.object({ kind: z.literal(kind), git: z.literal(true), ...fields }),
    z.object({ kind: z.literal(kind), git: z.literal(false), reason: z.string().max(MAX_LABEL_CHARS) }),
  ]);
}

export const WorkspaceChangesSchema = gitWorkTreeAnswer('changes', {
  /** HEAD's short id, or null in a repository without a commit (everything is new). */
  head: z.string().max(100).nullable(),
  /** What the files are compared with when it is not HEAD: the branch's base (`ref`, null for
   *  a detached one) and the commit used. Absent from a runner older than this field. */
  against: z.object({ ref: z.string().max(MAX_LABEL_CHARS).nullable(), commit: z.string().max(100) }).nullable().optional(),
  branch: z.string().max(MAX_LABEL_CHARS).nullable(),
  files: z.array(ChangedFileSchema).max(WORKSPACE_MAX_CHANGED_FILES),
  /** Changed files in all (more than listed past WORKSPACE_MAX_CHANGED_FILES). */
  total: z.number().int().min(0),
  /** Diffs of files[cursor … next), in the files' order. */
  cursor: z.number().int().min(0),
  diffs: z.array(FileDiffSchema).max(WORKSPACE_MAX_CHANGED_FILES),
  /** Where the next page starts, or null after the last. */
  next: z.number().int().min(0).nullable(),
});
export type WorkspaceChanges = z.infer<typeof WorkspaceChangesSchema>;

export const DirEntrySchema = z.object({
  name: z.string().min(1).max(MAX_PATH_CHARS),
  kind: z.enum(['dir', 'file', 'other']),
  /** Bytes, for files. */
  size: z.number().int().min(0).nullable(),
  /** A symbolic link; `outside`: its target is outside the session's directory (never opened). */
  link: z.boolean(),
  outside: z.boolean(),
});
export type DirEntry = z.infer<typeof DirEntrySchema>;

export const WorkspaceListingSchema = z.object({
  kind: z.literal('list'),
  path: RelPath,
  /** Directories first, then by name. */
  entries: z.array(DirEntrySchema).max(WORKSPACE_MAX_ENTRIES),
  /** Entries in all (more than listed when over WORKSPACE_MAX_ENTRIES). */
  total: z.number().int().min(0),
});
export type WorkspaceListing = z.infer<typeof WorkspaceListingSchema>;

export const WorkspaceFileSchema = z.object({
  kind: z.literal('read'),
  path: RelPath,
  size: z.number().int().min(0),
  /** Binary (a NUL byte, or not UTF-8): named with its size, `text` is null. */
  binary: z.boolean(),
  text: z.string().max(WORKSPACE_MAX_FILE_BYTES).nullable(),
  truncated: z.boolean(),
  /** sha256 (hex) of the file's bytes when it was read whole as text: the base an edit names
   *  (file-edits.ts). Absent from a runner older than editing, null when cut or binary. */
  hash: z.string().regex(/^[0-9a-f]{64}$/).nullable().optional(),
});
export type WorkspaceFile = z.infer<typeof WorkspaceFileSchema>;

export const WorkspaceAnswerSchema = z.union([WorkspaceChangesSchema, WorkspaceListingSchema, WorkspaceFileSchema]);
export type WorkspaceAnswer = z.infer<typeof WorkspaceAnswerSchema>;

/** REST: `GET /api/sessions/:id/changes?cursor=N&against=base`: `head` (default) for what is not
 *  committed yet, `base` for the whole branch since it started (a session in a worktree of its own). */
export const WorkspaceChangesQuerySchema = z.object({
  cursor: z.coerce.number().int().min(0).max(WORKSPACE_MAX_CHANGED_FILES).default(0),
  against: z.enum(['head', 'base']).default('head'),
});
/** REST: `GET /api/sessions/:id/files?path=a/b` (a directory) and `/file?path=a/b.ts`. */
export const WorkspacePathQuerySchema = z.object({ path: WorkspacePathSchema.default('') });
