// group-sessions.ts: the session list's order. Sessions are grouped by the machine they run on
// (sessions started with `tether claude` at a desk have no machine and form the "Desk" group);
// within a group: sessions waiting for their person first (pinned or not: a request is what someone
// opening the app came for, and it must never sit below a pile of pins), then pinned ones (the
// latest pin first, so the pinned order does not shuffle with activity), then live ones, then ended
// ones, each the most recently active first.
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

/** Waiting for its person: a request (approval, question, dialog) or claude itself says so. */
function needsYou(session: Session): boolean {
  return !isFinalStatus(session.status) && (session.status === 'waiting' || session.pendingCount > 0);
}

export function compareSessions(a: Session, b: Session): number {
  const aWaiting = needsYou(a);
  if (aWaiting !== needsYou(b)) return aWaiting ? -1 : 1;
  const aPin = a.pinnedAt ?? null;
  const bPin = b.pinnedAt ?? null;
  if ((aPin === null) !== (bPin === null)) return aPin !== null ? -1 : 1;
  if (aPin !== null && bPin !== null && aPin !== bPin) return bPin - aPin;
  const aFinal = isFinalStatus(a.status);
  if (aFinal !== isFinalStatus(b.status)) return aFinal ? 1 : -1;
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
