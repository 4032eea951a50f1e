// outside.ts: conversations found on a machine that tether did not run (issue 40): each agent's saved
// conversations (claude's transcripts, Codex's rollouts, Gemini's saved sessions), reported by the
// machine's daemon when finding them is switched on, kept by the hub as an index only, and continued
// ("adopted") or forked into a tether session through the daemon's resume path.
//
//   daemon (--outside, or the machine's switch) ─outside:index─► hub (index: no content, ever)
//   web/CLI ─GET /api/machines/:id/outside?q=&offset=&limit=─► a page, newest first
//   web/CLI ─outside:adopt─► hub claims it (one of two wins) ─daemon:spawn {resume, adopting}─► a tether session
//
// Invariants: the index holds only what OutsideEntrySchema names (title ≤ 200 characters, never the
// conversation's content); search matches title and folder only; a conversation tether ran (any
// session of the namespace with its agent session id) is never listed.
import { z } from 'zod';
import { AgentSessionIdSchema, BackgroundIdSchema, MachineIdSchema, TimestampSchema } from './ids.ts';
import { MAX_PATH_CHARS } from './limits.ts';
import { AgentKindSchema, LaunchKindSchema } from './session.ts';

export const OUTSIDE_TITLE_CHARS = 200;
/** Entries per `outside:index` event: 500 entries of the longest folder stay under the 1 MiB cap
 *  only with short folders, so the daemon cuts by bytes too (OUTSIDE_BATCH_BYTES). */
export const OUTSIDE_BATCH_ENTRIES = 500;
export const OUTSIDE_BATCH_BYTES = 512 * 1024;
/** A page of the list; the default page. */
export const OUTSIDE_PAGE_MAX = 200;
export const OUTSIDE_PAGE_DEFAULT = 50;
/** Longest search text. */
export const OUTSIDE_QUERY_CHARS = 200;
/** The largest conversation the daemon continues: its whole record becomes the chat. */
export const OUTSIDE_ADOPT_MAX_BYTES = 64 * 1024 * 1024;

/** One conversation as the daemon found it. */
export const OutsideEntrySchema = z.object({
  agent: AgentKindSchema,
  agentSessionId: AgentSessionIdSchema,
  /** The folder it ran in (its cwd). */
  folder: z.string().min(1).max(MAX_PATH_CHARS),
  /** Its first prompt, or the agent's own title, cut to 200 characters. */
  title: z.string().max(OUTSIDE_TITLE_CHARS),
  lastActivity: TimestampSchema,
  sizeBytes: z.number().int().min(0),
  /** A live process still writes it (claude's status file names a live pid, or it grew just now). */
  live: z.boolean(),
  /** It runs as one of the agent's background sessions (claude --bg; its status file says so): this
   *  is the agent's id for it, and adopting it attaches to it live (the `attached` launch kind).
   *  Absent: a past conversation, or a live one in someone's terminal (that one cannot be shared). */
  backgroundId: BackgroundIdSchema.optional(),
});
export type OutsideEntry = z.infer<typeof OutsideEntrySchema>;

/** Daemon → hub: its index. `reset`: the first batch of a whole report (what the hub had for the
 *  machine and does not hear again is dropped once `complete`); later reports carry changes only. */
export const OutsideIndexSchema = z.object({
  reset: z.boolean().default(false),
  /** The last batch of a whole report: entries of the machine not reported since `reset` go. */
  complete: z.boolean().default(false),
  entries: z.array(OutsideEntrySchema).max(OUTSIDE_BATCH_ENTRIES),
  /** Agent session ids no longer on disk. */
  removed: z.array(AgentSessionIdSchema).max(OUTSIDE_BATCH_ENTRIES).default([]),
});
export type OutsideIndex = z.input<typeof OutsideIndexSchema>;

/** A listed conversation: the entry, its machine, and the tether session that adopted it (if any). */
export const OutsideSessionSchema = OutsideEntrySchema.extend({ machineId: MachineIdSchema });
export type OutsideSession = z.infer<typeof OutsideSessionSchema>;

/** GET /api/machines/:id/outside's query. */
export const OutsideListQuerySchema = z.object({
  q: z.string().max(OUTSIDE_QUERY_CHARS).default(''),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(OUTSIDE_PAGE_MAX).default(OUTSIDE_PAGE_DEFAULT),
});
export type OutsideListQuery = z.input<typeof OutsideListQuerySchema>;
export const OutsideListResponseSchema = z.object({ sessions: z.array(OutsideSessionSchema), total: z.number().int().min(0), more: z.boolean(), enabled: z.boolean() });
export type OutsideListResponse = z.infer<typeof OutsideListResponseSchema>;

/** Web → hub: continue a found conversation under tether (`fork`: in a new conversation of its own,
 *  leaving the found one as it was, where the agent can: AgentCapabilities.fork). */
export const OutsideAdoptSchema = z.object({
  machineId: MachineIdSchema.optional(),
  agentSessionId: AgentSessionIdSchema,
  launchKind: LaunchKindSchema.default('headless'),
  fork: z.boolean().default(false),
});
export type OutsideAdopt = z.input<typeof OutsideAdoptSchema>;

/** Web → hub: switch finding conversations on a machine on or off (kept by the hub, told to its daemon). */
export const MachineOutsideSchema = z.object({ machineId: MachineIdSchema, enabled: z.boolean() });

/** Hub → daemon: find (or stop finding) conversations here. */
export const DaemonOutsideSchema = z.object({ enabled: z.boolean() });
