// filter-sessions.ts: the session list's search: every word of the query must be in the session's
// title, its directory or its machine's name (any case, any order).
import type { Machine, Session } from '@tether/shared';
import { sessionTitle } from '../../lib/format.ts';

export function filterSessions(options: { sessions: readonly Session[]; machines: readonly Machine[]; query: string }): Session[] {
  const words = options.query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...options.sessions];
  const names = new Map(options.machines.map((m) => [m.id, m.name]));
  return options.sessions.filter((session) => {
    const haystack = [sessionTitle(session), session.cwd, session.machineId ? (names.get(session.machineId) ?? '') : 'desk'].join('\n').toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
