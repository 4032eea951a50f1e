// project-rules.ts (upgrade): the rules tether proposes from a person's repeated allows (issue 42,
// item 4), for both stores. An older database had none: nothing was counted before.
import { createSchema, type Dialect } from '../ddl.ts';
import type { Table } from '../tables.ts';

const PROJECT_RULES_AS_ADDED: Table = {
  name: 'project_rules',
  columns: [
    { name: 'id', type: 'text' },
    { name: 'namespace', type: 'text' },
    { name: 'machine_id', type: 'text' },
    { name: 'folder', type: 'text' },
    { name: 'tool_name', type: 'text' },
    { name: 'command', type: 'text' },
    { name: 'rule_content', type: 'text' },
    { name: 'allows', type: 'int' },
    { name: 'calls', type: 'json' },
    { name: 'status', type: 'text' },
    { name: 'error', type: 'text', nullable: true },
    { name: 'proposed_at', type: 'time', nullable: true },
    { name: 'accepted_at', type: 'time', nullable: true },
    { name: 'accepted_by', type: 'text', nullable: true },
    { name: 'accepted_device', type: 'text', nullable: true },
    { name: 'accepted_token', type: 'text', nullable: true },
    { name: 'written_at', type: 'time', nullable: true },
    { name: 'revoked_at', type: 'time', nullable: true },
    { name: 'removed_at', type: 'time', nullable: true },
    { name: 'updated_at', type: 'time' },
  ],
  primaryKey: ['id'],
  unique: [['namespace', 'machine_id', 'folder', 'tool_name', 'command']],
  indexes: [{ name: 'project_rules_folder', columns: ['namespace', 'machine_id', 'folder'] }],
};

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const PROJECT_RULES_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'project-rules',
  statements: (dialect) => createSchema(dialect, [PROJECT_RULES_AS_ADDED]),
};
