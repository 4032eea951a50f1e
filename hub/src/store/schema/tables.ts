// tables.ts: THE schema of the hub's database, once, for SQLite and PostgreSQL alike. ddl.ts derives
// each dialect's CREATE statements from it (a new database is made from these), queries/ read and
// write these columns, and schema.test.ts checks that a database today's migrations built has
// exactly these columns. Changing a table: change it here AND add an upgrade in migrations.ts.
// Column types are what the value is, not how a dialect stores it: `time` is epoch milliseconds
// (BIGINT), `bigint` a counter that may pass 2^31, `int` a small number, `bool` a flag (0/1 in SQLite),
// `json` JSON kept as text (both stores parse it in rows.ts), `bytes` a file's bytes (BLOB / BYTEA).

export type ColumnType = 'text' | 'json' | 'int' | 'bigint' | 'time' | 'bool' | 'bytes';
export type Column = { name: string; type: ColumnType; nullable?: true; default?: number | boolean | string };
export type Table = {
  name: string;
  columns: readonly Column[];
  primaryKey: readonly string[];
  unique?: readonly (readonly string[])[];
  /** column → table(id) it references; rows go with their session. */
  references?: Readonly<Record<string, string>>;
  indexes?: readonly { name: string; columns: readonly string[] }[];
  /** SQLite only: the table is its primary key's b-tree (no rowid). */
  withoutRowid?: true;
};

const text = (name: string): Column => ({ name, type: 'text' });
const time = (name: string): Column => ({ name, type: 'time' });
const maybe = (column: Column): Column => ({ ...column, nullable: true });

/** Files uploaded from the phone for a session's prompts, deleted when the session ends. In the
 *  database rather than on disk: several hubs share the database, and the runner may fetch from
 *  another hub than the one the phone uploaded to (docs/decisions/attachments.md). */
export const ATTACHMENTS_TABLE: Table = {
  name: 'attachments',
  columns: [
    text('id'),
    text('namespace'),
    text('session_id'),
    text('name'),
    text('media_type'),
    { name: 'size', type: 'bigint' },
    { name: 'data', type: 'bytes' },
    time('created_at'),
  ],
  primaryKey: ['id'],
  references: { session_id: 'sessions' },
  indexes: [
    { name: 'attachments_session', columns: ['session_id'] },
    { name: 'attachments_namespace', columns: ['namespace'] },
  ],
};

/** The slash commands each session's runner reported (one JSON list per session, replaced whole). */
export const SESSION_COMMANDS_TABLE: Table = {
  name: 'session_commands',
  columns: [text('session_id'), text('namespace'), { name: 'commands', type: 'json' }, time('reported_at')],
  primaryKey: ['session_id'],
  references: { session_id: 'sessions' },
};

/** One-time pairing codes (auth/pairing.ts): only the code's SHA-256 is kept. Redeeming is one
 *  conditional UPDATE … WHERE used_at IS NULL AND expires_at > now, so of two redeems one wins; the
 *  row then names the device token it minted. Rows a day past their expiry are purged. */
export const PAIR_CODES_TABLE: Table = {
  name: 'pair_codes',
  columns: [
    text('hash'),
    text('namespace'),
    text('created_by'),
    time('created_at'),
    time('expires_at'),
    maybe(time('used_at')),
    maybe(text('token_id')),
    // The token that made the code (a login's or a device's): revoked, the code redeems nothing.
    maybe(text('creator_token_id')),
  ],
  primaryKey: ['hash'],
  indexes: [
    { name: 'pair_codes_expiry', columns: ['expires_at'] },
    { name: 'pair_codes_namespace', columns: ['namespace', 'expires_at'] },
  ],
};

/** Conversations a machine's daemon found that tether did not run (shared outside.ts): an index only,
 *  never content. `seen_at` is when its daemon last reported it (a whole report sweeps the rest);
 *  `claimed_at` is set by the one adopt that won (a second is told), cleared when it failed. */
export const OUTSIDE_SESSIONS_TABLE: Table = {
  name: 'outside_sessions',
  columns: [
    text('namespace'),
    text('machine_id'),
    text('agent_session_id'),
    text('agent'),
    text('folder'),
    text('title'),
    time('last_activity'),
    { name: 'size_bytes', type: 'bigint' },
    { name: 'live', type: 'bool' },
    time('seen_at'),
    maybe(time('claimed_at')),
    // The agent's id of the background session it runs as (claude --bg), else null.
    maybe(text('background_id')),
  ],
  primaryKey: ['namespace', 'machine_id', 'agent_session_id'],
  indexes: [{ name: 'outside_sessions_recent', columns: ['namespace', 'machine_id', 'last_activity'] }],
};

/** Rules tether proposed from a person's repeated allows (shared project-rules.ts): one row per
 *  call allowed in one folder of one machine, counted until it is proposed; `rule_content` is what
 *  the rule says once accepted (the call, or a prefix the person picked). `accepted_token` is the
 *  token that said yes: revoked, the rule goes with it. Kept when its sessions go (a folder's rule
 *  outlives them). */
export const PROJECT_RULES_TABLE: Table = {
  name: 'project_rules',
  columns: [
    text('id'),
    text('namespace'),
    text('machine_id'),
    text('folder'),
    text('tool_name'),
    text('command'),
    text('rule_content'),
    { name: 'allows', type: 'int' },
    { name: 'calls', type: 'json' },
    text('status'),
    maybe(text('error')),
    maybe(time('proposed_at')),
    maybe(time('accepted_at')),
    maybe(text('accepted_by')),
    maybe(text('accepted_device')),
    maybe(text('accepted_token')),
    maybe(time('written_at')),
    maybe(time('revoked_at')),
    maybe(time('removed_at')),
    time('updated_at'),
  ],
  primaryKey: ['id'],
  unique: [['namespace', 'machine_id', 'folder', 'tool_name', 'command']],
  indexes: [{ name: 'project_rules_folder', columns: ['namespace', 'machine_id', 'folder'] }],
};

/** Reviews (shared reviews.ts): one row per reviewer session (`id` is its session's id), naming the
 *  session it reviews; both rows go with their sessions. The reviewer session's own `parent_id`
 *  says the same from the session's side (the list marks reviews without reading this table). */
export const REVIEWS_TABLE: Table = {
  name: 'reviews',
  columns: [text('id'), text('namespace'), text('parent_id'), text('agent'), text('state'), text('focus'), maybe(text('final_answer')), time('created_at'), time('updated_at')],
  primaryKey: ['id'],
  references: { id: 'sessions', parent_id: 'sessions' },
  indexes: [{ name: 'reviews_parent', columns: ['parent_id', 'created_at'] }],
};

/** Schedules (shared schedules.ts): prompts sent later, once or on a cron. `next_run_at` is the run
 *  to fire (null: none left, or paused); a hub fires it only after one conditional UPDATE moved it on
 *  (of several hubs one wins), and never within MIN_SCHEDULE_GAP_MS of `last_fired_at`. The token
 *  that made it (`creator_token_id`) revoked, it is deleted. */
export const SCHEDULES_TABLE: Table = {
  name: 'schedules',
  columns: [
    text('id'),
    text('namespace'),
    { name: 'target', type: 'json' },
    { name: 'timing', type: 'json' },
    text('prompt'),
    text('missed'),
    { name: 'paused', type: 'bool', default: false },
    maybe(time('next_run_at')),
    maybe(time('last_fired_at')),
    { name: 'last_run', type: 'json', nullable: true },
    { name: 'runs', type: 'bigint', default: 0 },
    text('created_by'),
    maybe(text('creator_token_id')),
    time('created_at'),
    time('updated_at'),
  ],
  primaryKey: ['id'],
  indexes: [
    { name: 'schedules_due', columns: ['next_run_at'] },
    { name: 'schedules_namespace', columns: ['namespace', 'created_at'] },
    { name: 'schedules_creator', columns: ['creator_token_id'] },
  ],
};

/** The unattended guard of a namespace (shared unattended.ts): paused, the day's cap, and the runs
 *  counted on `day` (a UTC day). A run is counted by one conditional UPDATE (of several hubs each
 *  counts once; none passes the cap). No row: the defaults, nothing counted. */
export const UNATTENDED_GUARD_TABLE: Table = {
  name: 'unattended_guard',
  columns: [
    text('namespace'),
    { name: 'paused', type: 'bool', default: false },
    { name: 'daily_cap', type: 'bigint' },
    text('day'),
    { name: 'runs', type: 'bigint', default: 0 },
    time('updated_at'),
    // The namespace's continue-at-reset default for sessions with no choice of their own (added by
    // limit-continue-default): null until the person chooses, the hub's default meanwhile.
    { name: 'continue_on', type: 'bool', nullable: true },
    { name: 'continue_prompt', type: 'text', nullable: true },
  ],
  primaryKey: ['namespace'],
};

export const TABLES: readonly Table[] = [
  {
    name: 'tokens',
    columns: [
      text('id'),
      text('namespace'),
      text('hash'),
      text('label'),
      time('created_at'),
      maybe(time('last_used_at')),
      maybe(time('revoked_at')),
      // 'access' (tether token create, the hub's first token) or 'device' (minted by a pairing code).
      { name: 'kind', type: 'text', default: 'access' },
      // The token whose pairing code minted this device: revoking it revokes this one (and on down).
      maybe(text('parent_id')),
      // A device's refresh secret (SHA-256), the one it replaced (a replay of it revokes the device)
      // and when it was replaced (two tabs refreshing at once are not a replay).
      maybe(text('refresh_hash')),
      maybe(text('refresh_prev_hash')),
      maybe(time('refreshed_at')),
    ],
    primaryKey: ['id'],
    unique: [['hash']],
    indexes: [
      { name: 'tokens_namespace', columns: ['namespace'] },
      { name: 'tokens_parent', columns: ['parent_id'] },
    ],
  },
  {
    name: 'sessions',
    columns: [
      text('id'),
      text('namespace'),
      maybe(text('machine_id')),
      text('title'),
      text('cwd'),
      text('launch_kind'),
      { name: 'agent', type: 'text', default: 'claude' },
      text('status'),
      // The agent's own conversation id (claude's session, Codex's thread): what a resume names.
      maybe(text('agent_session_id')),
      maybe(text('model')),
      text('permission_mode'),
      maybe(text('effort')),
      // Tokens used so far (shared SessionUsage, checked again when read; null: none read yet).
      { name: 'usage', type: 'json', nullable: true },
      maybe(text('controller')),
      { name: 'desk_attached', type: 'bool' },
      maybe(text('failure_reason')),
      { name: 'exit_code', type: 'int', nullable: true },
      { name: 'last_seq', type: 'bigint', default: 0 },
      time('created_at'),
      time('updated_at'),
      maybe(time('ended_at')),
      // A person's triage, kept on the hub so that it follows them to every device (rules.ts).
      maybe(time('pinned_at')),
      maybe(time('archived_at')),
      // What the phone may do with it (shared AgentCapabilities, checked again when read; null: its
      // runner stated none, and nothing is switched).
      { name: 'capabilities', type: 'json', nullable: true },
      // The session this one reviews (REVIEWS_TABLE), null for any other.
      maybe(text('parent_id')),
      // The git worktree the daemon made for it (shared SessionWorktree), null for any other.
      { name: 'worktree', type: 'json', nullable: true },
      // The folders its agent was given beyond cwd (shared AddedDirs, checked again when read; null: none on record).
      { name: 'added_dirs', type: 'json', nullable: true },
      // The usage limit its runner reported (shared UsageLimitReport; null: not at a limit), the reset
      // tether sent its one continue for (a claim: several hubs send it once), and the person's
      // continue-at-reset choice (shared LimitContinue; null: the hub's default).
      { name: 'usage_limit', type: 'json', nullable: true },
      maybe(time('limit_continued_for')),
      { name: 'limit_continue', type: 'json', nullable: true },
      // The unattended guard held that reset's continue (shared GuardStop), added by unattended-guard.
      maybe(text('limit_held')),
    ],
    primaryKey: ['id'],
    indexes: [
      { name: 'sessions_namespace', columns: ['namespace', 'updated_at'] },
      // The outside index leaves out every conversation a session of the namespace names.
      { name: 'sessions_agent_session', columns: ['namespace', 'agent_session_id'] },
    ],
  },
  {
    name: 'messages',
    columns: [text('session_id'), { name: 'seq', type: 'bigint' }, text('id'), { name: 'json', type: 'json' }],
    primaryKey: ['session_id', 'seq'],
    unique: [['session_id', 'id']],
    references: { session_id: 'sessions' },
    withoutRowid: true,
  },
  {
    name: 'machines',
    columns: [
      text('namespace'),
      text('id'),
      text('name'),
      text('os'),
      text('user'),
      text('home'),
      { name: 'online', type: 'bool' },
      time('last_seen_at'),
      { name: 'shell', type: 'bool', default: false },
      // The agents its daemon found installed, as a JSON list (null: a daemon older than that: claude).
      { name: 'agents', type: 'json', nullable: true },
      // What each of those agents can do from the phone, by agent (null: a daemon older than that).
      { name: 'agent_capabilities', type: 'json', nullable: true },
      // SHA-256 of the machine's secret (its daemon's vouch): a session naming the machine proves it.
      maybe(text('vouch_hash')),
      // Finding conversations tether did not run is on (shared outside.ts): --outside, or the phone's switch.
      { name: 'outside', type: 'bool', default: false },
    ],
    primaryKey: ['namespace', 'id'],
  },
  {
    // A pending request and, once resolved, its resolution (the audit trail) in one row, so that
    // "first answer wins" is a single UPDATE ... WHERE resolved_at IS NULL.
    name: 'requests',
    columns: [
      text('id'),
      text('namespace'),
      text('session_id'),
      text('kind'),
      text('tool_name'),
      { name: 'tool_input', type: 'json' },
      maybe(text('tool_use_id')),
      time('created_at'),
      maybe(text('outcome')),
      { name: 'answer', type: 'json', nullable: true },
      maybe(text('answered_by')),
      maybe(text('device')),
      { name: 'waited_ms', type: 'bigint', nullable: true },
      maybe(time('resolved_at')),
      // The sub-agent that asks (shared AskedBy), null for the session's own agent.
      { name: 'asked_by', type: 'json', nullable: true },
    ],
    primaryKey: ['id'],
    references: { session_id: 'sessions' },
    indexes: [{ name: 'requests_session', columns: ['session_id', 'resolved_at'] }],
  },
  {
    name: 'prompts',
    columns: [
      text('id'),
      text('namespace'),
      text('session_id'),
      text('text'),
      text('status'),
      maybe(text('reason')),
      time('created_at'),
      time('updated_at'),
      // AttachmentRef[] (null: none), added by the attachments upgrade.
      { name: 'attachments', type: 'json', nullable: true },
      // When the hub handed it to the runner (null: it may still be edited or withdrawn), added by prompt-handed.
      maybe(time('handed_at')),
      // The token that sent it (null: the hub's own, or older): revoked while still held, it is dropped
      // (added by unattended-guard).
      maybe(text('creator_token_id')),
    ],
    primaryKey: ['id'],
    references: { session_id: 'sessions' },
    indexes: [
      { name: 'prompts_session', columns: ['session_id', 'created_at'] },
      { name: 'prompts_creator', columns: ['creator_token_id'] },
    ],
  },
  {
    // Kept so that a signed share link can be revoked before it expires (the JWT's jti is the key).
    name: 'share_links',
    columns: [text('jti'), text('namespace'), text('session_id'), text('created_by'), time('created_at'), time('expires_at'), maybe(time('revoked_at'))],
    primaryKey: ['jti'],
    indexes: [{ name: 'share_links_session', columns: ['namespace', 'session_id'] }],
  },
  {
    // The last terminal screen of each ended session (upserted, pruned to the newest per namespace).
    name: 'final_screens',
    columns: [
      text('namespace'),
      text('session_id'),
      { name: 'offset', type: 'bigint' },
      { name: 'cols', type: 'int' },
      { name: 'rows', type: 'int' },
      text('data'),
      time('saved_at'),
    ],
    primaryKey: ['namespace', 'session_id'],
    indexes: [{ name: 'final_screens_age', columns: ['namespace', 'saved_at'] }],
  },
  ATTACHMENTS_TABLE,
  SESSION_COMMANDS_TABLE,
  PAIR_CODES_TABLE,
  REVIEWS_TABLE,
  OUTSIDE_SESSIONS_TABLE,
  SCHEDULES_TABLE,
  PROJECT_RULES_TABLE,
  UNATTENDED_GUARD_TABLE,
];
