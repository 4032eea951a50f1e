// 0005-session-effort.ts: claude's effort level (`/effort`) on the session record, read by the runner
// from claude's footer and hook payloads, changed from the phone like the model.
export const MIGRATION_0005 = {
  version: 5,
  name: 'session-effort',
  sql: `ALTER TABLE sessions ADD COLUMN effort TEXT;`,
};
