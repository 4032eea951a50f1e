// machines.ts (queries): the machines a namespace's daemons registered, online or not.
import { DEFAULT_AGENT } from '@tether/shared';
import type { Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowToMachine } from '../rows.ts';

export function machineQueries(db: SqlDriver): Pick<Store, 'upsertMachine' | 'setMachineOnline' | 'listMachines' | 'getMachineVouch' | 'setMachineOutside'> {
  return {
    async upsertMachine({ namespace, machine, now }) {
      const row = await first(
        db,
        `INSERT INTO machines (namespace, id, name, os, "user", home, online, last_seen_at, shell, agents, agent_capabilities, vouch_hash, outside) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (namespace, id) DO UPDATE SET name = $3, os = $4, "user" = $5, home = $6, online = $7, last_seen_at = $8, shell = $9, agents = $10, agent_capabilities = $11, vouch_hash = $12,
           outside = CASE WHEN $13 THEN $13 ELSE machines.outside END
         RETURNING *`,
        // A daemon started with --outside switches finding on; one without leaves the phone's switch as it was.
        [namespace, machine.id, machine.name, machine.os, machine.user, machine.home, true, now, machine.shell ?? false, JSON.stringify(machine.agents ?? [DEFAULT_AGENT]), JSON.stringify(machine.capabilities ?? {}), machine.vouch ?? null, machine.outside ?? false],
      );
      return rowToMachine(row!);
    },
    async setMachineOnline({ namespace, machineId, online, now }) {
      const row = await first(db, `UPDATE machines SET online = $3, last_seen_at = $4 WHERE namespace = $1 AND id = $2 RETURNING *`, [namespace, machineId, online, now]);
      return row ? rowToMachine(row) : null;
    },
    async setMachineOutside({ namespace, machineId, enabled }) {
      const row = await first(db, `UPDATE machines SET outside = $3 WHERE namespace = $1 AND id = $2 RETURNING *`, [namespace, machineId, enabled]);
      if (row && !enabled) await db.run(`DELETE FROM outside_sessions WHERE namespace = $1 AND machine_id = $2 AND claimed_at IS NULL`, [namespace, machineId]);
      return row ? rowToMachine(row) : null;
    },
    async getMachineVouch({ namespace, machineId }) {
      const row = await first(db, `SELECT vouch_hash FROM machines WHERE namespace = $1 AND id = $2`, [namespace, machineId]);
      return row ? { vouch: (row.vouch_hash as string | null) ?? null } : null;
    },
    async listMachines({ namespace }) {
      return (await db.all(`SELECT * FROM machines WHERE namespace = $1 ORDER BY name, id`, [namespace])).map(rowToMachine);
    },
  };
}
