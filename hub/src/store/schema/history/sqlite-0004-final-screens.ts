// 0004-final-screens.ts: the last terminal screen of each ended session, so that "a terminal that
// ended still replays its final screen" holds across hub restarts, not only while its room is in
// memory. One row per session (upserted), pruned to the newest per namespace by the store.
export const MIGRATION_0004 = {
  version: 4,
  name: 'final-screens',
  sql: `
CREATE TABLE final_screens (
  namespace   TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  "offset"    INTEGER NOT NULL,
  cols        INTEGER NOT NULL,
  rows        INTEGER NOT NULL,
  data        TEXT NOT NULL,
  saved_at    INTEGER NOT NULL,
  PRIMARY KEY (namespace, session_id)
);
CREATE INDEX final_screens_age ON final_screens(namespace, saved_at);
`,
};
