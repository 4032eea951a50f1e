// postgres-0001-initial.ts: the PostgreSQL store's first and only hand-written migration (SQLite's 1–5
// in PostgreSQL types), as shipped. Never edit a shipped migration: a new database is made from
// tables.ts, and this one is kept so that schema.test.ts can build the databases hubs made with it.
export const POSTGRES_0001 = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE tokens (
  id            TEXT PRIMARY KEY,
  namespace     TEXT NOT NULL,
  hash          TEXT NOT NULL UNIQUE,
  label         TEXT NOT NULL,
  created_at    BIGINT NOT NULL,
  last_used_at  BIGINT,
  revoked_at    BIGINT
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
  effort             TEXT,
  controller         TEXT,
  desk_attached      BOOLEAN NOT NULL,
  failure_reason     TEXT,
  exit_code          INTEGER,
  last_seq           BIGINT NOT NULL DEFAULT 0,
  created_at         BIGINT NOT NULL,
  updated_at         BIGINT NOT NULL,
  ended_at           BIGINT
);
CREATE INDEX sessions_namespace ON sessions(namespace, updated_at);

CREATE TABLE messages (
  session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq         BIGINT NOT NULL,
  id          TEXT NOT NULL,
  json        TEXT NOT NULL,
  PRIMARY KEY (session_id, seq),
  UNIQUE (session_id, id)
);

CREATE TABLE machines (
  namespace     TEXT NOT NULL,
  id            TEXT NOT NULL,
  name          TEXT NOT NULL,
  os            TEXT NOT NULL,
  "user"        TEXT NOT NULL,
  home          TEXT NOT NULL,
  online        BOOLEAN NOT NULL,
  last_seen_at  BIGINT NOT NULL,
  shell         BOOLEAN NOT NULL DEFAULT FALSE,
  PRIMARY KEY (namespace, id)
);

-- A pending request and, once resolved, its resolution in one row: first answer wins is a single
-- UPDATE ... WHERE resolved_at IS NULL.
CREATE TABLE requests (
  id           TEXT PRIMARY KEY,
  namespace    TEXT NOT NULL,
  session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL,
  tool_name    TEXT NOT NULL,
  tool_input   TEXT NOT NULL,
  tool_use_id  TEXT,
  created_at   BIGINT NOT NULL,
  outcome      TEXT,
  answer       TEXT,
  answered_by  TEXT,
  device       TEXT,
  waited_ms    BIGINT,
  resolved_at  BIGINT
);
CREATE INDEX requests_session ON requests(session_id, resolved_at);

CREATE TABLE prompts (
  id          TEXT PRIMARY KEY,
  namespace   TEXT NOT NULL,
  session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  text        TEXT NOT NULL,
  status      TEXT NOT NULL,
  reason      TEXT,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL
);
CREATE INDEX prompts_session ON prompts(session_id, created_at);

CREATE TABLE share_links (
  jti         TEXT PRIMARY KEY,
  namespace   TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  created_by  TEXT NOT NULL,
  created_at  BIGINT NOT NULL,
  expires_at  BIGINT NOT NULL,
  revoked_at  BIGINT
);
CREATE INDEX share_links_session ON share_links(namespace, session_id);

CREATE TABLE final_screens (
  namespace   TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  "offset"    BIGINT NOT NULL,
  cols        INTEGER NOT NULL,
  "rows"      INTEGER NOT NULL,
  data        TEXT NOT NULL,
  saved_at    BIGINT NOT NULL,
  PRIMARY KEY (namespace, session_id)
);
CREATE INDEX final_screens_age ON final_screens(namespace, saved_at);
`,
};
