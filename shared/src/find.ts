// find.ts: Find inside one session, from the phone: its chat, its terminal's scrollback and its
// files, each answer a list of places to jump to.
//
//   web ─POST /api/sessions/:id/find {q, mode, caseSensitive, in}─► hub (namespace, FindRequestSchema)
//     chat      the hub's store: the newest FIND_CHAT_SCAN_MESSAGES messages, a LIKE first, then the line test
//     terminal  the hub's replay (last screen + bytes after it), escape codes stripped, line by line
//     files     ─find:files (ack)─► runner: the Files boundary (no `.git`, no link out, no hard link),
//               binary and large files skipped, capped in files, bytes, matches and time
//
// Invariants: a pattern is literal or a wildcard (`*`, `?`: find-pattern.ts), never a regular
// expression; every source stops at FIND_MAX_MATCHES and says when it stopped early and why; a
// share link cannot search (it reaches /api/share only).
import { z } from 'zod';
import { MessageIdSchema, SeqSchema, SessionIdSchema } from './ids.ts';
import { ChatRoleSchema } from './chat.ts';
import { WorkspacePathSchema } from './workspace.ts';

/** Longest search text: a phrase, not a document. */
export const FIND_MAX_QUERY_CHARS = 200;
/** Places listed per source; past it the source says `stopped: 'matches'`. */
export const FIND_MAX_MATCHES = 50;
/** Characters of a line sent around its match. */
export const FIND_SNIPPET_CHARS = 160;
/** Chat: the newest messages looked at (a LIKE per row over the session's own rows, by its key). */
export const FIND_CHAT_SCAN_MESSAGES = 20_000;
/** Files: entries visited (files and folders) before the walk stops. */
export const FIND_MAX_ENTRIES = 20_000;
/** Files: bytes read from files in all. */
export const FIND_MAX_READ_BYTES = 16 * 1024 * 1024;
/** Files: a file larger than this has its name searched, not its contents. */
export const FIND_MAX_FILE_BYTES = 1024 * 1024;
/** Files: the runner stops looking after this long (the hub waits a little longer). */
export const FIND_FILES_TIME_MS = 3_000;

export const FindSourceSchema = z.enum(['chat', 'terminal', 'files']);
export type FindSource = z.infer<typeof FindSourceSchema>;
export const FIND_SOURCES: readonly FindSource[] = ['chat', 'terminal', 'files'];

export const FindModeSchema = z.enum(['literal', 'wildcard']);

const FindTextSchema = z
  .string()
  .min(1)
  .max(FIND_MAX_QUERY_CHARS)
  .refine((q) => !/[\n\r\0]/.test(q), 'a search is one line (no line break, no NUL)')
  .refine((q) => q.trim() !== '', 'a search needs something other than spaces');

/** A wildcard search needs at least one character other than `*` and `?` (else it is every line). */
const wildcardHasText = [(p: { q: string; mode: string }) => p.mode === 'literal' || /[^*?]/.test(p.q), { message: 'a wildcard search needs a character other than * and ?', path: ['q'] as PropertyKey[] }] as const;

/** What a person searches for. `mode`: literal (default) or wildcard (`*` any run within a line,
 *  `?` one character). */
const patternShape = {
  q: FindTextSchema,
  mode: FindModeSchema.default('literal'),
  caseSensitive: z.boolean().default(false),
};

/** REST body of `POST /api/sessions/:id/find`. */
export const FindRequestSchema = z
  .object({ ...patternShape, in: z.array(FindSourceSchema).min(1).max(3).default([...FIND_SOURCES]) })
  .refine(...wildcardHasText);
export type FindRequest = z.input<typeof FindRequestSchema>;

/** Why a source stopped before it had looked at everything. */
export const FindStopSchema = z.enum(['matches', 'bytes', 'entries', 'time', 'scan']).nullable();

const SnippetSchema = z.object({
  text: z.string().max(FIND_SNIPPET_CHARS * 2),
  /** The match in `text`, [start, end) in UTF-16 units. */
  start: z.number().int().min(0),
  end: z.number().int().min(0),
});

export const ChatFindMatchSchema = SnippetSchema.extend({
  seq: SeqSchema,
  messageId: MessageIdSchema,
  /** The content block the line is in (the chat's item key is `${messageId}#${block}`). */
  block: z.number().int().min(0),
  role: ChatRoleSchema,
  createdAt: z.number().int().min(0),
  /** A tool result's call: the chat shows the result inside that call's card. */
  toolUseId: z.string().max(128).nullable(),
});

/** A distinct line of the scrollback (newest first): the web scrolls to the newest row holding it. */
export const TerminalFindMatchSchema = SnippetSchema;

export const FileFindMatchSchema = SnippetSchema.extend({
  path: WorkspacePathSchema,
  /** 1-based line of a content match; null when the file's name matched. */
  line: z.number().int().min(1).nullable(),
});
export type FileFindMatch = z.infer<typeof FileFindMatchSchema>;

/** hub → runner (`find:files`, acked with a FilesFindAnswer). */
export const FilesFindQuerySchema = z.object({ sessionId: SessionIdSchema, ...patternShape }).refine(...wildcardHasText);

export const FilesFindAnswerSchema = z.object({
  matches: z.array(FileFindMatchSchema).max(FIND_MAX_MATCHES),
  stopped: FindStopSchema,
  /** Files whose contents were read, and bytes read. */
  files: z.number().int().min(0),
  bytes: z.number().int().min(0),
  /** Skipped: binary, larger than FIND_MAX_FILE_BYTES, hard-linked, or a link out. */
  skipped: z.number().int().min(0),
});
export type FilesFindAnswer = z.infer<typeof FilesFindAnswerSchema>;

/** One source's part of the answer: its places, or why it could not look. */
const part = <T extends z.ZodTypeAny, E extends z.ZodRawShape>(match: T, extra: E) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), matches: z.array(match).max(FIND_MAX_MATCHES), stopped: FindStopSchema, ...extra }),
    z.object({ ok: z.literal(false), error: z.string().max(500) }),
  ]);

export const FindAnswerSchema = z.object({
  /** `from`: the oldest seq looked at (null: the whole chat was). */
  chat: part(ChatFindMatchSchema, { from: SeqSchema.nullable() }).optional(),
  /** `lines`: lines of scrollback searched. */
  terminal: part(TerminalFindMatchSchema, { lines: z.number().int().min(0) }).optional(),
  files: part(FileFindMatchSchema, { files: z.number().int().min(0), bytes: z.number().int().min(0), skipped: z.number().int().min(0) }).optional(),
});
export type FindAnswer = z.infer<typeof FindAnswerSchema>;
export type ChatFindMatch = z.infer<typeof ChatFindMatchSchema>;
export type TerminalFindMatch = z.infer<typeof TerminalFindMatchSchema>;

export * from './find-pattern.ts';
