// 0002-share-links.ts: read-only share links, kept so that a signed link can be revoked before it
// expires (the JWT's jti is the key). Never edit a shipped migration; add the next number instead.
export const MIGRATION_0002 = {
  version: 2,
  name: 'share-links',
  sql: `
CREATE TABLE share_links (
  jti         TEXT PRIMARY KEY,
  namespace   TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  created_by  TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  revoked_at  INTEGER
);
CREATE INDEX share_links_session ON share_links(namespace, session_id);
`,
};
