// outside.ts (queries): the index of conversations a machine's daemon found that tether did not run
// (shared outside.ts). Only what the index names is kept; a conversation any session of the
// namespace names is never listed; of two claims of one conversation, one UPDATE … WHERE
// claimed_at IS NULL wins.
import { AgentKindSchema, type Namespace, type OutsideEntry, type OutsideSession } from '@tether/shared';
import type { Store } from '../store.ts';
import { first, type SqlDriver, type SqlRunner } from '../sql/driver.ts';
import type { Row } from '../rows.ts';

function rowToOutside(row: Row): OutsideSession {
  return {
    machineId: row.machine_id as string,
    agent: AgentKindSchema.catch('claude').parse(row.agent),
    agentSessionId: row.agent_session_id as string,
    folder: row.folder as string,
    title: row.title as string,
    lastActivity: Number(row.last_activity),
    sizeBytes: Number(row.size_bytes),
    live: row.live === 1 || row.live === true,
    ...(typeof row.background_id === 'string' ? { backgroundId: row.background_id } : {}),
  };
}

/** `text` as a LIKE pattern that matches it anywhere, lower-cased, `!` the escape. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

const LISTED = `namespace = $1 AND machine_id = $2 AND claimed_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.namespace = $1 AND s.agent_session_id = outside_sessions.agent_session_id)`;
const MATCHES = `(LOWER(title) LIKE $3 ESCAPE '!' OR LOWER(folder) LIKE $3 ESCAPE '!')`;

async function upsert(tx: SqlRunner, o: { namespace: Namespace; machineId: string; entry: OutsideEntry; now: number }) {
  const e = o.entry;
  await tx.run(
    `INSERT INTO outside_sessions (namespace, machine_id, agent_session_id, agent, folder, title, last_activity, size_bytes, live, seen_at, background_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (namespace, machine_id, agent_session_id) DO UPDATE SET agent = $4, folder = $5, title = $6, last_activity = $7, size_bytes = $8, live = $9, seen_at = $10, background_id = $11`,
    [o.namespace, o.machineId, e.agentSessionId, e.agent, e.folder, e.title, e.lastActivity, e.sizeBytes, e.live, o.now, e.backgroundId ?? null],
  );
}

type OutsideQueries = Pick<Store, 'recordOutside' | 'listOutside' | 'findOutside' | 'claimOutside' | 'releaseOutside'>;

export function outsideQueries(db: SqlDriver): OutsideQueries {
  return {
    async recordOutside({ namespace, machineId, entries, removed, sweepBefore, now }) {
      await db.transaction(async (tx) => {
        for (const entry of entries) await upsert(tx, { namespace, machineId, entry, now });
        for (const id of removed) await tx.run(`DELETE FROM outside_sessions WHERE namespace = $1 AND machine_id = $2 AND agent_session_id = $3 AND claimed_at IS NULL`, [namespace, machineId, id]);
        if (sweepBefore !== null) await tx.run(`DELETE FROM outside_sessions WHERE namespace = $1 AND machine_id = $2 AND seen_at < $3 AND claimed_at IS NULL`, [namespace, machineId, sweepBefore]);
      });
    },
    async listOutside({ namespace, machineId, q, offset, limit }) {
      const where = q ? `${LISTED} AND ${MATCHES}` : LISTED;
      const params = q ? [namespace, machineId, containsPattern(q)] : [namespace, machineId];
      const rows = await db.all(`SELECT * FROM outside_sessions WHERE ${where} ORDER BY last_activity DESC, agent_session_id LIMIT ${limit} OFFSET ${offset}`, params);
      const count = await first(db, `SELECT COUNT(*) AS n FROM outside_sessions WHERE ${where}`, params);
      return { sessions: rows.map(rowToOutside), total: Number(count?.n ?? 0) };
    },
    async findOutside({ namespace, agentSessionId }) {
      const rows = await db.all(`SELECT * FROM outside_sessions WHERE namespace = $1 AND agent_session_id = $2 ORDER BY machine_id`, [namespace, agentSessionId]);
      return rows.map((row) => ({ ...rowToOutside(row), claimed: row.claimed_at !== null && row.claimed_at !== undefined }));
    },
    async claimOutside({ namespace, machineId, agentSessionId, now }) {
      const changed = await db.run(`UPDATE outside_sessions SET claimed_at = $4 WHERE namespace = $1 AND machine_id = $2 AND agent_session_id = $3 AND claimed_at IS NULL`, [namespace, machineId, agentSessionId, now]);
      return changed > 0;
    },
    async releaseOutside({ namespace, machineId, agentSessionId }) {
      await db.run(`UPDATE outside_sessions SET claimed_at = NULL WHERE namespace = $1 AND machine_id = $2 AND agent_session_id = $3`, [namespace, machineId, agentSessionId]);
    },
  };
}
