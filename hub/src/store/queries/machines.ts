// machines.ts (queries): the machines a namespace's daemons registered, online or not.
import { DEFAULT_AGENT } from '@tether/shared';
import type { Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowToMachine } from '../rows.ts';

export function machineQueries(db: SqlDriver): Pick<Store, 'upsertMachine' | 'setMachineOnline' | 'listMachines' | 'getMachineVouch'> {
  return {
    async upsertMachine({ namespace, machine, now }) {
      const row = await first(
        db,
        `INSERT INTO machines (namespace, id, name, os, "user", home, online, last_seen_at, shell, agents, agent_capabilities, vouch_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (namespace, id) DO UPDATE SET name = $3, os = $4, "user" = $5, home = $6, online = $7, last_seen_at = $8, shell = $9, agents = $10, agent_capabilities = $11, vouch_hash = $12
         RETURNING *`,
        [namespace, machine.id, machine.name, machine.os, machine.user, machine.home, true, now, machine.shell ?? false, JSON.stringify(machine.agents ?? [DEFAULT_AGENT]), JSON.stringify(machine.capabilities ?? {}), machine.vouch ?? null],
      );
      return rowToMachine(row!);
    },
    async setMachineOnline({ namespace, machineId, online, now }) {
      const row = await first(db, `UPDATE machines SET online = $3, last_seen_at = $4 WHERE namespace = $1 AND id = $2 RETURNING *`, [namespace, machineId, online, now]);
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
