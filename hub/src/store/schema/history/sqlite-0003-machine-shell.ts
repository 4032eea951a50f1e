// 0003-machine-shell.ts: whether a machine's daemon allows web shells (`tether daemon --allow-shell`),
// as it said at its last registration; the web shows the Shell button only then.
export const MIGRATION_0003 = {
  version: 3,
  name: 'machine-shell',
  sql: `
ALTER TABLE machines ADD COLUMN shell INTEGER NOT NULL DEFAULT 0;
`,
};
