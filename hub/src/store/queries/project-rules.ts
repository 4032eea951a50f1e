// project-rules.ts (queries): rules tether proposes from a person's repeated allows (shared
// project-rules.ts). Counting is one transaction per allow (the row locked), so two hubs counting
// the same call never lose one; every change of status is one conditional UPDATE … RETURNING, so of
// an accept and a revoke at once exactly one applies to a proposed rule.
import { RULE_CALLS_KEPT, RuleCallsSchema, RuleStatusSchema, type ProjectRule, type RuleCall } from '@tether/shared';
import type { Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { storedJson, type Row } from '../rows.ts';

function rowToRule(row: Row): ProjectRule {
  const time = (name: string) => (row[name] === null || row[name] === undefined ? null : Number(row[name]));
  return {
    id: row.id as string,
    machineId: row.machine_id as string,
    folder: row.folder as string,
    toolName: row.tool_name as string,
    command: row.command as string,
    ruleContent: row.rule_content as string,
    allows: Number(row.allows),
    calls: storedJson(row.calls, RuleCallsSchema) ?? [],
    status: RuleStatusSchema.catch('revoked').parse(row.status),
    error: (row.error as string | null) ?? null,
    proposedAt: time('proposed_at'),
    acceptedAt: time('accepted_at'),
    acceptedBy: (row.accepted_by as string | null) ?? null,
    acceptedDevice: (row.accepted_device as string | null) ?? null,
    writtenAt: time('written_at'),
    revokedAt: time('revoked_at'),
    removedAt: time('removed_at'),
  };
}

/** A rule as a tab or the CLI sees it: its accepting token stays in the store. */
const one = (rows: Row[]) => (rows[0] ? rowToRule(rows[0]) : null);

type RuleQueries = Pick<Store, 'countRuleAllow' | 'getRule' | 'listRules' | 'acceptRule' | 'revokeRule' | 'reportRule' | 'revokeRulesOfTokens'>;

export function projectRuleQueries(db: SqlDriver): RuleQueries {
  return {
    async countRuleAllow({ namespace, machineId, folder, toolName, command, call, proposeAt, now }) {
      return db.transaction(async (tx) => {
        // The row first (a second hub inserting the same one at once waits, then does nothing), then
        // locked and counted: no allow is lost to a race.
        await tx.run(
          `INSERT INTO project_rules (id, namespace, machine_id, folder, tool_name, command, rule_content, allows, calls, status, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6, 0, '[]', 'counting', $7) ON CONFLICT (namespace, machine_id, folder, tool_name, command) DO NOTHING`,
          [crypto.randomUUID(), namespace, machineId, folder, toolName, command, now],
        );
        const found = await first(tx, `SELECT * FROM project_rules WHERE namespace = $1 AND machine_id = $2 AND folder = $3 AND tool_name = $4 AND command = $5${db.lockRows}`, [namespace, machineId, folder, toolName, command]);
        const before = rowToRule(found!);
        // A rule the person said no to, or took back, is not proposed again.
        if (before.status === 'revoked') return { rule: before, proposedNow: false };
        const calls: RuleCall[] = [...before.calls, call].slice(-RULE_CALLS_KEPT);
        const allows = before.allows + 1;
        const proposedNow = before.status === 'counting' && allows >= proposeAt;
        const status = proposedNow ? 'proposed' : before.status;
        const rows = await tx.all(`UPDATE project_rules SET allows = $2, calls = $3, status = $4, proposed_at = COALESCE(proposed_at, $5), updated_at = $6 WHERE id = $1 RETURNING *`, [
          before.id,
          allows,
          JSON.stringify(calls),
          status,
          proposedNow ? now : null,
          now,
        ]);
        return { rule: rowToRule(rows[0]!), proposedNow };
      });
    },
    async getRule({ namespace, ruleId }) {
      return one(await db.all(`SELECT * FROM project_rules WHERE namespace = $1 AND id = $2`, [namespace, ruleId]));
    },
    async listRules({ namespace, machineId, folder }) {
      const where = ['namespace = $1', `status <> 'counting'`];
      const params: unknown[] = [namespace];
      if (machineId !== undefined) where.push(`machine_id = $${params.push(machineId)}`);
      if (folder !== undefined) where.push(`folder = $${params.push(folder)}`);
      const rows = await db.all(`SELECT * FROM project_rules WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id`, params);
      return rows.map(rowToRule);
    },
    async acceptRule({ namespace, ruleId, ruleContent, by, device, tokenId, now }) {
      return one(
        await db.all(
          `UPDATE project_rules SET status = 'accepted', rule_content = $3, accepted_at = $4, accepted_by = $5, accepted_device = $6, accepted_token = $7, error = NULL, updated_at = $4
           WHERE namespace = $1 AND id = $2 AND status = 'proposed' RETURNING *`,
          [namespace, ruleId, ruleContent, now, by, device, tokenId],
        ),
      );
    },
    async revokeRule({ namespace, ruleId, now }) {
      // Never written: nothing of it is in the file, so it is removed at once.
      return one(
        await db.all(
          `UPDATE project_rules SET status = 'revoked', revoked_at = $3, removed_at = CASE WHEN written_at IS NULL THEN CAST($3 AS BIGINT) ELSE NULL END, updated_at = $3
           WHERE namespace = $1 AND id = $2 AND status IN ('proposed', 'accepted', 'written') RETURNING *`,
          [namespace, ruleId, now],
        ),
      );
    },
    async reportRule({ namespace, ruleId, outcome, error, now }) {
      const sql = {
        // Revoked while the agent wrote it: written all the same, so it waits for its removal.
        written: `UPDATE project_rules SET status = CASE WHEN status = 'accepted' THEN 'written' ELSE status END, written_at = $3, removed_at = NULL, error = NULL, updated_at = $3
                  WHERE namespace = $1 AND id = $2 AND status IN ('accepted', 'revoked') RETURNING *`,
        // Once: a runner and the daemon may both report the same removal.
        removed: `UPDATE project_rules SET removed_at = $3, error = NULL, updated_at = $3 WHERE namespace = $1 AND id = $2 AND status = 'revoked' AND removed_at IS NULL RETURNING *`,
        failed: `UPDATE project_rules SET error = $4, updated_at = $3 WHERE namespace = $1 AND id = $2 AND status IN ('accepted', 'revoked') RETURNING *`,
      }[outcome];
      return one(await db.all(sql, outcome === 'failed' ? [namespace, ruleId, now, error ?? 'failed'] : [namespace, ruleId, now]));
    },
    async revokeRulesOfTokens({ namespace, tokenIds, now }) {
      if (tokenIds.length === 0) return [];
      const marks = tokenIds.map((_, i) => `$${i + 3}`).join(', ');
      const rows = await db.all(
        `UPDATE project_rules SET status = 'revoked', revoked_at = $2, removed_at = CASE WHEN written_at IS NULL THEN CAST($2 AS BIGINT) ELSE NULL END, updated_at = $2
         WHERE namespace = $1 AND status IN ('accepted', 'written') AND accepted_token IN (${marks}) RETURNING *`,
        [namespace, now, ...tokenIds],
      );
      return rows.map(rowToRule);
    },
  };
}
