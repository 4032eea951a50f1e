// sqlite-0001-initial.ts: the first SQLite schema, as shipped. Never edit a shipped migration: a new
// database is made from tables.ts; this one is kept for schema.test.ts (the databases hubs made with it).
export const MIGRATION_0001 = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE tokens (
  id            TEXT PRIMARY KEY,
  namespace     TEXT NOT NULL,
  hash          TEXT NOT NULL UNIQUE,
  label         TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER,
  revoked_at    INTEGER
);
CREATE INDEX tokens_namespace ON tokens(namespace);

CREATE TABLE sessions (
  id                 TEXT PRIMARY KEY,
  namespace          TEXT NOT NULL,
  machine_id         TEXT,
  title              TEXT NOT NULL,
  cwd                TEXT NOT NULL,
  launch_kind        TEXT NOT NULL,
  status             TEXT NOT NULL,
  claude_session_id  TEXT,
  model              TEXT,
  permission_mode    TEXT NOT NULL,
  controller         TEXT,
  desk_attached      INTEGER NOT NULL,
  failure_reason     TEXT,
  exit_code          INTEGER,
  last_seq           INTEGER NOT NULL DEFAULT 0,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  ended_at           INTEGER
);
CREATE INDEX sessions_namespace ON sessions(namespace, updated_at);

CREATE TABLE messages (
  session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  id          TEXT NOT NULL,
  json        TEXT NOT NULL,
  PRIMARY KEY (session_id, seq),
  UNIQUE (session_id, id)
) WITHOUT ROWID;

CREATE TABLE machines (
  namespace     TEXT NOT NULL,
  id            TEXT NOT NULL,
  name          TEXT NOT NULL,
  os            TEXT NOT NULL,
  user          TEXT NOT NULL,
  home          TEXT NOT NULL,
  online        INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,
  PRIMARY KEY (namespace, id)
);

-- A pending request and, once resolved, its resolution (the audit trail) in one row, so that
-- "first answer wins" is a single UPDATE ... WHERE resolved_at IS NULL.
CREATE TABLE requests (
  id           TEXT PRIMARY KEY,
  namespace    TEXT NOT NULL,
  session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL,
  tool_name    TEXT NOT NULL,
  tool_input   TEXT NOT NULL,
  tool_use_id  TEXT,
  created_at   INTEGER NOT NULL,
  outcome      TEXT,
  answer       TEXT,
  answered_by  TEXT,
  device       TEXT,
  waited_ms    INTEGER,
  resolved_at  INTEGER
);
CREATE INDEX requests_session ON requests(session_id, resolved_at);

CREATE TABLE prompts (
  id          TEXT PRIMARY KEY,
  namespace   TEXT NOT NULL,
  session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  text        TEXT NOT NULL,
  status      TEXT NOT NULL,
  reason      TEXT,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX prompts_session ON prompts(session_id, created_at);
`,
} as const;
