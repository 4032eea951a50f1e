// file-edits.ts: a person's edit of one text file in a session's folder, from the phone's Files view.
// Apart from workspace.ts on purpose: that room reads and never writes; this one writes one file.
//
//   web ─PUT /api/sessions/:id/file─► hub (namespace, live, mid-turn, protected name) ─file:write (ack)─► runner
//   runner: the same folder boundary as reading, O_NOFOLLOW, device and inode, a temporary file
//   renamed in the same folder (mode and line endings kept) ─ack─► hub: a chat line in the session
//
// Invariants: only an existing regular text file with one name, not larger than a read shows whole,
// reached without a link, outside `.git` and outside what grants an agent permissions or runs code
// (editRefusal); a save names the content it was opened with (`base`, sha256 of the bytes): a file
// that changed since is not written, its current text is sent back instead (`stale`), and the
// person decides. A save while the agent is mid-turn is refused unless the request confirms.
import { z } from 'zod';
import { SessionIdSchema } from './ids.ts';
import { MAX_LABEL_CHARS } from './limits.ts';
import { WORKSPACE_MAX_FILE_BYTES, WorkspacePathSchema } from './workspace.ts';

/** Largest file a phone may save: a file larger than a read sends whole is never edited. */
export const FILE_EDIT_MAX_BYTES = WORKSPACE_MAX_FILE_BYTES;

/** sha256 of a file's bytes, hex: what a read shows and a save names as its base. */
export const ContentHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a content hash is 64 hex digits (sha256)');

const EditPathSchema = WorkspacePathSchema.refine((p) => p !== '', 'name a file, not the whole folder');

/** What a person saves: the whole new text, and the content it was opened with. Line endings in
 *  `text` do not matter: the runner writes the file's own. */
export const FileWriteSchema = z.object({
  path: EditPathSchema,
  text: z.string().max(FILE_EDIT_MAX_BYTES),
  base: ContentHashSchema,
});
export type FileWrite = z.infer<typeof FileWriteSchema>;

/** REST: `PUT /api/sessions/:id/file`. `confirm`: go ahead although the agent is mid-turn.
 *  `device`: the browser's own name for itself, for the history. */
export const FileEditBodySchema = FileWriteSchema.extend({
  confirm: z.boolean().default(false),
  device: z.string().max(MAX_LABEL_CHARS).nullable().default(null),
});
export type FileEditBody = z.input<typeof FileEditBodySchema>;

/** hub → runner (`file:write`, acked with a FileWriteAnswer). */
export const FileWriteQuerySchema = FileWriteSchema.extend({ sessionId: SessionIdSchema });

export const LineEndingSchema = z.enum(['lf', 'crlf']);

/** Written: the file's new size and hash (the base of a next save), and the line endings it kept.
 *  Stale: the file changed since it was opened; nothing was written; its current text and hash
 *  (null text: it is no longer a text file a phone may edit). */
export const FileWriteAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('written'), path: z.string().max(4096), size: z.number().int().min(0), hash: ContentHashSchema, eol: LineEndingSchema }),
  z.object({ kind: z.literal('stale'), path: z.string().max(4096), hash: ContentHashSchema, text: z.string().max(FILE_EDIT_MAX_BYTES).nullable() }),
]);
export type FileWriteAnswer = z.infer<typeof FileWriteAnswerSchema>;
/** The REST body of a 409 for a stale save: the error and what the file holds now. */
export type FileStaleBody = { error: string; code: 'conflict'; stale: Extract<FileWriteAnswer, { kind: 'stale' }> };

export { editRefusal, FILE_MID_TURN_REFUSAL, FILE_STALE_REFUSAL } from './wire.ts';
