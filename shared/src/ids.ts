// ids.ts: the shapes of every identifier that crosses a process boundary.
// Ids are opaque strings; the limits keep a hostile client from sending megabyte "ids".
import { z } from 'zod';
import { UUID_PATTERN } from './wire.ts';

/** Tenant name. Lower-case so that "Alice" and "alice" can never be two tenants. */
export const NamespaceSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'namespace: 1-63 chars of a-z, 0-9, "_" or "-"');
export type Namespace = z.infer<typeof NamespaceSchema>;

const UUID_RE = UUID_PATTERN;
/** An agent's own session id that is not a UUID: a letter, then 7 to 63 letters, digits or `_`. */
const AGENT_OWN_ID_RE = /^[A-Za-z][A-Za-z0-9_]{7,63}$/;

/** tether session id: a UUID the runner makes, so it can buffer before the hub is reachable. */
export const SessionIdSchema = z.string().regex(UUID_RE, 'session id must be a UUID');
export type SessionId = z.infer<typeof SessionIdSchema>;

/** Machine id: a UUID kept in the machine's TETHER_HOME. */
export const MachineIdSchema = z.string().regex(UUID_RE, 'machine id must be a UUID');
export type MachineId = z.infer<typeof MachineIdSchema>;

/** The agent's own id of its conversation, what a resume continues: claude's session id and Codex's
 *  thread id are UUIDs; an ACP agent names its own (opencode: `ses_` and 26 letters and digits). It
 *  lands on the agent's command line (`claude --resume=<id>`, `codex resume <id>`) or in its protocol,
 *  so nothing else is taken: a UUID, or a letter then letters, digits and `_` (never a leading "-"
 *  that would read as a flag, no path or shell character). */
export const AgentSessionIdSchema = z
  .string()
  .max(64)
  .refine((id) => UUID_RE.test(id) || AGENT_OWN_ID_RE.test(id), "agent session id must be a UUID or an agent's own id of letters, digits and '_'");

/** The one rule of what an agent session id is (AgentSessionIdSchema), for a value not yet parsed. */
export function isAgentSessionId(id: string): boolean {
  return AgentSessionIdSchema.safeParse(id).success;
}

/** An agent's own id of one of its background sessions (claude's `claude --bg`: 8 hex digits, what
 *  `claude attach <id>` takes). It lands on the agent's command line: hex only. */
export const BackgroundIdSchema = z.string().regex(/^[0-9a-f]{8}$/, 'background session id: 8 hex digits');

/** Pending approval/question id. */
export const RequestIdSchema = z.string().regex(UUID_RE, 'request id must be a UUID');
export type RequestId = z.infer<typeof RequestIdSchema>;

/** A queued prompt's id, made by whoever sends it (web tab, `tether send`). */
export const PromptIdSchema = z.string().regex(UUID_RE, 'prompt id must be a UUID');
export type PromptId = z.infer<typeof PromptIdSchema>;

/** Chat message id = the transcript line's `uuid` (or a derived id such as `<uuid>:1`). */
export const MessageIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9:_.-]+$/, 'message id: letters, digits and ":_.-" only');
export type MessageId = z.infer<typeof MessageIdSchema>;

/** Sequence numbers are per session, start at 1 and never repeat. */
export const SeqSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Milliseconds since the epoch. */
export const TimestampSchema = z.number().int().min(0);

export { isUuid } from './wire.ts';
