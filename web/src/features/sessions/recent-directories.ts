// recent-directories.ts: the directories this namespace's sessions ran in on one machine, newest
// first, for the new-session form. Read from the session list the app already holds (it is
// namespace-scoped by the hub), so there is nothing else to store or fetch.
import type { Session } from '@tether/shared';

/** Enough to cover a day's projects; more would push the form's buttons off a phone screen. */
export const MAX_RECENT_DIRECTORIES = 6;

export function recentDirectories(options: { sessions: readonly Session[]; machineId: string | null; limit?: number }): string[] {
  const newest = new Map<string, number>();
  for (const session of options.sessions) {
    if (options.machineId === null || session.machineId !== options.machineId) continue;
    const at = Math.max(session.updatedAt, session.createdAt);
    if ((newest.get(session.cwd) ?? -1) < at) newest.set(session.cwd, at);
  }
  return [...newest.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, options.limit ?? MAX_RECENT_DIRECTORIES)
    .map(([cwd]) => cwd);
}
