// file-changes.ts: an approval to change files, in one shape whatever agent asks. The agent's room
// translates its own patch format into it (Codex: app-server fileChange items, apply_patch text); the
// web draws the files and their unified diffs from it without knowing which agent asked.
//
//   request.toolName  = FILE_CHANGES_TOOL_NAME
//   request.toolInput = FileChangesInput {changes: [{path, kind, movePath, diff}], description?}
//
// `diff` is unified-diff text, lines prefixed `+`, `-`, ` ` (context) or `@@` (a hunk header): a new
// file is all `+`, a deleted one all `-`.
import { z } from 'zod';

export { FILE_CHANGES_TOOL_NAME } from './wire.ts';
/** A patch the phone can draw without choking; the agent's room clips longer diffs. */
export const MAX_FILE_CHANGES = 200;
export const MAX_FILE_DIFF_CHARS = 200_000;

export const FileChangeKindSchema = z.enum(['add', 'delete', 'update']);
export type FileChangeKind = z.infer<typeof FileChangeKindSchema>;

export const FileChangeSchema = z.object({
  path: z.string().min(1).max(4096),
  kind: FileChangeKindSchema,
  /** An update that also renames the file: its new path. */
  movePath: z.string().min(1).max(4096).nullable().default(null),
  diff: z.string().max(MAX_FILE_DIFF_CHARS),
});
export type FileChange = z.infer<typeof FileChangeSchema>;

export const FileChangesInputSchema = z.looseObject({
  changes: z.array(FileChangeSchema).max(MAX_FILE_CHANGES),
  /** Why the agent asks (e.g. it wants to write outside its sandbox). */
  description: z.string().max(4000).optional(),
});
export type FileChangesInput = z.infer<typeof FileChangesInputSchema>;

/** Whole-file text as a diff: every line added (a new file) or removed (a deleted one). */
export function wholeFileDiff(text: string, sign: '+' | '-'): string {
  if (text === '') return '';
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return lines.map((line) => `${sign}${line}`).join('\n');
}

const CLIPPED = '\n… (clipped: the rest is too long to show)';

/** A diff the schema takes: a longer one is cut, and says so. */
export function clipDiff(diff: string): string {
  return diff.length > MAX_FILE_DIFF_CHARS ? diff.slice(0, MAX_FILE_DIFF_CHARS - CLIPPED.length) + CLIPPED : diff;
}

/** A unified diff from its first hunk on: file headers (`Index:`, `--- a/x`, `+++ b/x`) name what the card names. */
export function diffHunks(diff: string): string {
  const lines = diff.replace(/\n$/, '').split('\n');
  const first = lines.findIndex((line) => line.startsWith('@@'));
  return (first > 0 ? lines.slice(first) : lines).join('\n');
}
