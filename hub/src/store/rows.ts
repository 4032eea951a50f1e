// rows.ts: table rows → protocol objects, shared by every Store (the SQLite and PostgreSQL tables
// have the same columns; flags are 0/1 in SQLite and booleans in PostgreSQL, JSON is text in both).
import { AddedDirsSchema, AgentCapabilitiesSchema, GuardStopSchema, AgentKindSchema, AskedBySchema, DEFAULT_AGENT, LimitContinueSchema, SessionUsageSchema, SessionWorktreeSchema, UsageLimitReportSchema } from '@tether/shared';
import type { AgentCapabilities, GuardStop } from '@tether/shared';
import type { Answer, Attachment, AttachmentRef, ChatMessage, Machine, PendingRequest, Prompt, Resolution, Session, SessionPatch, TokenInfo } from '@tether/shared';
import type { ShareLinkRecord, TokenRecord } from './store.ts';

export type Row = Record<string, unknown>;

/** The usage limit a session's row holds, checked (null: none, or not one this hub reads). */
export function sessionLimitReport(value: unknown) {
  return storedJson(value, UsageLimitReportSchema);
}

/** The session's limit as the phone sees it: the runner's report, whether its agent waits it out in
 *  this launch kind (its capabilities say), and whether tether sent its continue for this reset. */
function limitOf(row: Row, capabilities: AgentCapabilities | null): Session['limit'] {
  const report = sessionLimitReport(row.usage_limit);
  if (!report) return null;
  const continuedFor = row.limit_continued_for === null || row.limit_continued_for === undefined ? null : Number(row.limit_continued_for);
  return {
    resetsAt: report.resetsAt,
    agentResumes: capabilities?.waitsOutLimitIn?.includes(row.launch_kind as Session['launchKind']) ?? false,
    continued: continuedFor === report.resetsAt,
    held: continuedFor === report.resetsAt ? guardStopOf(row.limit_held) : null,
  };
}

function guardStopOf(value: unknown): GuardStop | null {
  const parsed = GuardStopSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function rowToSession(row: Row): Session {
  const capabilities = storedJson(row.capabilities, AgentCapabilitiesSchema);
  return {
    id: row.id as string,
    machineId: (row.machine_id as string | null) ?? null,
    title: row.title as string,
    cwd: row.cwd as string,
    launchKind: row.launch_kind as Session['launchKind'],
    agent: ((row.agent as string | null) ?? DEFAULT_AGENT) as Session['agent'],
    capabilities,
    status: row.status as Session['status'],
    agentSessionId: (row.agent_session_id as string | null) ?? null,
    model: (row.model as string | null) ?? null,
    permissionMode: row.permission_mode as Session['permissionMode'],
    effort: (row.effort as Session['effort']) ?? null,
    usage: storedJson(row.usage, SessionUsageSchema),
    limit: limitOf(row, capabilities),
    limitContinue: storedJson(row.limit_continue, LimitContinueSchema),
    controller: (row.controller as Session['controller']) ?? null,
    deskAttached: row.desk_attached === 1 || row.desk_attached === true,
    failureReason: (row.failure_reason as string | null) ?? null,
    exitCode: (row.exit_code as number | null) ?? null,
    pendingCount: Number(row.pending_count ?? 0),
    bypass: row.permission_mode === 'bypassPermissions',
    lastSeq: Number(row.last_seq),
    createdAt: row.created_at as number,
    updatedAt: row.updated_at as number,
    endedAt: (row.ended_at as number | null) ?? null,
    pinnedAt: (row.pinned_at as number | null) ?? null,
    archivedAt: (row.archived_at as number | null) ?? null,
    parentId: (row.parent_id as string | null) ?? null,
    worktree: storedJson(row.worktree, SessionWorktreeSchema),
    addedDirs: storedJson(row.added_dirs, AddedDirsSchema) ?? [],
  };
}

/** What storedJson checks a column with: any shared schema. */
type Checker<T> = { safeParse(value: unknown): { success: true; data: T } | { success: false } };

/** A JSON column's text parsed, or undefined when it is absent or not JSON. */
function parsedJson(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON column checked with the shared schema: absent, unreadable, or a value this hub's schema
 *  refuses (an older or hand-edited row) reads as null rather than failing the whole row. A session's
 *  worktree read as none: the phone offers no removal and the folder stays; its capabilities read as
 *  none: nothing switchable; its added folders read as none: a resume gives only cwd; who asked read as none: the sheet names no sub-agent. */
export function storedJson<T>(value: unknown, schema: Checker<T>): T | null {
  if (typeof value !== 'string') return null;
  const seen = checkedColumns.get(schema);
  if (seen?.has(value)) return seen.get(value) as T | null;
  const json = parsedJson(value);
  const parsed = json === undefined ? null : schema.safeParse(json);
  const read = parsed?.success ? deepFreeze(parsed.data) : null;
  remember(schema, value, read);
  return read;
}

/** Checked JSON columns, by schema and text. A session is read back after each change to it (status,
 *  pending count, a message), and its JSON columns are nearly always the text they were last time:
 *  checking them again with zod was an eighth of the hub's CPU in an approval-heavy session
 *  (docs/decisions/agents-bench.md, "On a quiet box"). A value is shared between reads, so frozen. */
const checkedColumns = new WeakMap<object, Map<string, unknown>>();
/** Texts kept per schema; the oldest goes first (a Map iterates in insertion order). */
const CHECKED_PER_SCHEMA = 256;

function remember(schema: object, text: string, read: unknown): void {
  let seen = checkedColumns.get(schema);
  if (!seen) checkedColumns.set(schema, (seen = new Map()));
  seen.set(text, read);
  if (seen.size > CHECKED_PER_SCHEMA) seen.delete(seen.keys().next().value!);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A machine's per-agent capabilities as stored: each checked alone, one the schema refuses is left out. */
function machineCapabilities(value: unknown): Machine['capabilities'] {
  const parsed = parsedJson(value);
  const out: Machine['capabilities'] = {};
  if (!parsed || typeof parsed !== 'object') return out;
  for (const [kind, record] of Object.entries(parsed)) {
    const agent = AgentKindSchema.safeParse(kind);
    const capabilities = AgentCapabilitiesSchema.safeParse(record);
    if (agent.success && capabilities.success) out[agent.data] = capabilities.data;
  }
  return out;
}

/** Capabilities as their JSON column holds them (null: none stated). */
export function capabilitiesJson(capabilities: AgentCapabilities | null | undefined): string | null {
  return capabilities ? JSON.stringify(capabilities) : null;
}

/** Added folders as their JSON column holds them (null: none named). */
export function addedDirsJson(dirs: readonly string[] | undefined): string | null {
  return dirs && dirs.length > 0 ? JSON.stringify(dirs) : null;
}

/** A column's name as its field's: snake_case → camelCase. */
const fieldName = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Columns stored as they are read, each under its field's name; an absent one reads as null. What a
 *  row maps otherwise (JSON, flags, another name) its reader adds. */
function plainColumns(row: Row, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((column) => [fieldName(column), row[column] ?? null]));
}

/** A JSON column this hub wrote itself (no schema check: see storedJson for those an older hub may
 *  have written otherwise); `absent` when it holds nothing. */
function jsonText<T>(value: unknown, absent: T): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : absent;
}

export function rowToToken(row: Row): TokenRecord {
  return {
    ...plainColumns(row, ['id', 'namespace', 'hash', 'label', 'created_at', 'last_used_at', 'revoked_at', 'parent_id']),
    kind: row.kind === 'device' ? 'device' : 'access',
  } as TokenRecord;
}

export function tokenInfo(record: TokenRecord): TokenInfo {
  const { hash: _hash, ...info } = record;
  return info;
}

export function rowToMachine(row: Row): Machine {
  return {
    id: row.id as string,
    name: row.name as string,
    os: row.os as string,
    user: row.user as string,
    home: row.home as string,
    online: row.online === 1 || row.online === true,
    lastSeenAt: row.last_seen_at as number,
    shell: row.shell === 1 || row.shell === true,
    agents: machineAgents(row.agents),
    capabilities: machineCapabilities(row.agent_capabilities),
    outside: row.outside === 1 || row.outside === true,
  };
}

/** A machine's agents as stored (JSON text), or the default agent alone for a row written before
 *  agents; a name this hub does not know is left out. */
function machineAgents(value: unknown): Machine['agents'] {
  const parsed = parsedJson(value);
  return Array.isArray(parsed) ? parsed.filter((a): a is Machine['agents'][number] => AgentKindSchema.safeParse(a).success) : [DEFAULT_AGENT];
}

export function rowToRequest(row: Row): PendingRequest {
  return {
    ...plainColumns(row, ['id', 'session_id', 'kind', 'tool_name', 'tool_use_id', 'created_at']),
    toolInput: jsonText<Record<string, unknown>>(row.tool_input, {}),
    ...askedBy(storedJson(row.asked_by, AskedBySchema)),
  } as PendingRequest;
}

/** Who asked, or the field left out. */
function askedBy(value: PendingRequest['askedBy'] | null): Pick<PendingRequest, 'askedBy'> {
  return value ? { askedBy: value } : {};
}

export function rowToResolution(row: Row): Resolution {
  return {
    requestId: row.id as string,
    ...plainColumns(row, ['session_id', 'outcome', 'answered_by', 'device', 'waited_ms', 'resolved_at']),
    ...(typeof row.tool_name === 'string' ? { toolName: row.tool_name } : {}),
    answer: jsonText<Answer | null>(row.answer, null),
  } as Resolution;
}

export function rowToPrompt(row: Row): Prompt {
  return {
    ...plainColumns(row, ['id', 'session_id', 'text', 'status', 'reason', 'created_at', 'updated_at']),
    attachments: jsonText<AttachmentRef[]>(row.attachments, []),
    handedAt: row.handed_at == null ? null : Number(row.handed_at),
  } as Prompt;
}

export function rowToAttachment(row: Row): Attachment {
  return {
    id: row.id as string,
    sessionId: row.session_id as string,
    name: row.name as string,
    mediaType: row.media_type as Attachment['mediaType'],
    size: Number(row.size),
    createdAt: Number(row.created_at),
  };
}

/** BLOB (bun:sqlite: Uint8Array) or BYTEA (pg: Buffer) as bytes. */
export function rowBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new Error('stored bytes are neither a Uint8Array nor an ArrayBuffer');
}

export function rowToMessage(row: Row, sessionId: string): ChatMessage {
  const { claudeSessionId, ...stored } = JSON.parse(row.json as string) as Omit<ChatMessage, 'seq' | 'sessionId'> & { claudeSessionId?: string | null };
  // A message stored before protocol 2 names its agent session under its old key.
  return { ...stored, agentSessionId: stored.agentSessionId ?? claudeSessionId ?? null, sessionId, seq: Number(row.seq) };
}

export function rowToShareLink(row: Row): ShareLinkRecord {
  return {
    jti: String(row.jti),
    namespace: String(row.namespace),
    sessionId: String(row.session_id),
    createdBy: String(row.created_by),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** The sessions column of each field a patch may change, for both stores' updateSession. */
export const SESSION_PATCH_COLUMNS: ReadonlyArray<readonly [keyof SessionPatch, string]> = Object.entries({
  title: 'title',
  status: 'status',
  agentSessionId: 'agent_session_id',
  model: 'model',
  permissionMode: 'permission_mode',
  effort: 'effort',
  usage: 'usage',
  limit: 'usage_limit',
  controller: 'controller',
  deskAttached: 'desk_attached',
} satisfies Record<keyof SessionPatch, string>) as Array<[keyof SessionPatch, string]>;

/** A patch field as its column holds it: usage and limit are JSON text in both stores (the others are plain). */
export function sessionPatchValue<K extends keyof SessionPatch>(key: K, value: SessionPatch[K]): unknown {
  return (key === 'usage' || key === 'limit') && value !== null ? JSON.stringify(value) : value;
}
