// filter-sessions.ts: the session list's filters. The search: every word of the query must be in the
// session's title, its directory or its machine's name, or be "review" for a review (any case, any order). Archived sessions
// leave the list for its Archived section; only an ended one ever counts (isArchived), so a session
// that may need its person is never out of sight.
import type { Machine, Session } from '@tether/shared';
import { isArchived } from '@tether/shared/wire';
import { sessionTitle } from '../../lib/format.ts';

/** The list's sessions and the Archived section's (the latest archived first). */
export function splitArchived(sessions: readonly Session[]): { listed: Session[]; archived: Session[] } {
  const listed: Session[] = [];
  const archived: Session[] = [];
  for (const session of sessions) (isArchived(session) ? archived : listed).push(session);
  archived.sort((a, b) => (b.archivedAt ?? 0) - (a.archivedAt ?? 0));
  return { listed, archived };
}

export function filterSessions(options: { sessions: readonly Session[]; machines: readonly Machine[]; query: string }): Session[] {
  const words = options.query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...options.sessions];
  const names = new Map(options.machines.map((m) => [m.id, m.name]));
  return options.sessions.filter((session) => {
    const haystack = [sessionTitle(session), session.cwd, session.machineId ? (names.get(session.machineId) ?? '') : 'desk', session.parentId ? 'review' : '']
      .join('\n')
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
