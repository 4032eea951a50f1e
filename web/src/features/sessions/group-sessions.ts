// group-sessions.ts: the session list's order. Sessions are grouped by the machine they run on
// (sessions started with `tether claude` at a desk have no machine and form the "Desk" group);
// within a group, live sessions come first, then the most recently active.
import type { Machine, Session } from '@tether/shared';
import { isFinalStatus } from '@tether/shared/wire';

export type SessionGroup = {
  key: string;
  /** "Desk" or the machine's name. */
  title: string;
  /** null for the Desk group (no machine to be online or offline). */
  online: boolean | null;
  machine: Machine | null;
  sessions: Session[];
};

export const DESK_GROUP_KEY = 'desk';

function compareSessions(a: Session, b: Session): number {
  const aFinal = isFinalStatus(a.status);
  const bFinal = isFinalStatus(b.status);
  if (aFinal !== bFinal) return aFinal ? 1 : -1;
  // Waiting for the user first: that is what someone opening the app on a phone came for.
  const aWaiting = a.status === 'waiting' || a.pendingCount > 0;
  const bWaiting = b.status === 'waiting' || b.pendingCount > 0;
  if (aWaiting !== bWaiting) return aWaiting ? -1 : 1;
  return b.updatedAt - a.updatedAt;
}

export function groupSessions(options: { sessions: readonly Session[]; machines: readonly Machine[] }): SessionGroup[] {
  const machines = new Map(options.machines.map((m) => [m.id, m]));
  const groups = new Map<string, SessionGroup>();
  for (const session of options.sessions) {
    const key = session.machineId ?? DESK_GROUP_KEY;
    let group = groups.get(key);
    if (!group) {
      const machine = session.machineId ? (machines.get(session.machineId) ?? null) : null;
      group = {
        key,
        title: session.machineId ? (machine?.name ?? 'Unknown machine') : 'Desk',
        online: session.machineId ? (machine?.online ?? false) : null,
        machine,
        sessions: [],
      };
      groups.set(key, group);
    }
    group.sessions.push(session);
  }
  for (const group of groups.values()) group.sessions.sort(compareSessions);
  return [...groups.values()].sort((a, b) => {
    if (a.key === DESK_GROUP_KEY) return -1;
    if (b.key === DESK_GROUP_KEY) return 1;
    if (a.online !== b.online) return a.online ? -1 : 1;
    return a.title.localeCompare(b.title);
  });
}
