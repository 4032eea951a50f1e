// session-commands.ts (queries): the slash commands a session's runner reported, one JSON list per
// session, replaced whole on every report.
import type { SlashCommand } from '@tether/shared';
import type { Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { sessionIn } from './sessions.ts';

export function sessionCommandQueries(db: SqlDriver): Pick<Store, 'saveSessionCommands' | 'getSessionCommands'> {
  return {
    async saveSessionCommands({ namespace, sessionId, commands, at }) {
      if (!(await sessionIn(db, namespace, sessionId))) return false;
      await db.run(
        `INSERT INTO session_commands (session_id, namespace, commands, reported_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (session_id) DO UPDATE SET commands = $3, reported_at = $4`,
        [sessionId, namespace, JSON.stringify(commands), at],
      );
      return true;
    },
    async getSessionCommands({ namespace, sessionId }) {
      if (!(await sessionIn(db, namespace, sessionId))) return null;
      const row = await first(db, `SELECT commands, reported_at FROM session_commands WHERE session_id = $1 AND namespace = $2`, [sessionId, namespace]);
      if (!row) return { commands: [], reportedAt: null };
      return { commands: JSON.parse(row.commands as string) as SlashCommand[], reportedAt: Number(row.reported_at) };
    },
  };
}
