// schedule-text.ts: what the schedule screens say about a schedule, from its record alone: its
// timing, the next runs the editor previews (the same reading the hub makes: shared cron.ts), its
// target and its last run. Pure, so it is tested without a browser.
import { firstRunOf, nextRuns, parseCron, type Machine, type ScheduleRun, type ScheduleTarget, type ScheduleWhen, type Session } from '@tether/shared';

/** How many runs the editor previews. */
export const PREVIEW_RUNS = 5;

/** A run's time as the person reads it, in the schedule's zone (a cron's) or the browser's. */
export function runTime(at: number, timeZone?: string): string {
  // A zone named by the schedule is said (its times may not be the browser's).
  return new Date(at).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', ...(timeZone ? { timeZone, timeZoneName: 'short' } : {}) });
}

export function describeWhen(when: ScheduleWhen): string {
  return when.kind === 'once' ? `Once, ${runTime(when.at)}` : `Cron ${when.expression} · ${when.timeZone}`;
}

/** The next runs of `when` after `now`, or why it cannot be a schedule (the hub refuses the same). */
export function previewRuns(when: ScheduleWhen, now: number): { runs: number[] } | { error: string } {
  const first = firstRunOf(when, now);
  if ('error' in first) return first;
  if (when.kind === 'once') return { runs: [first.at] };
  return { runs: nextRuns(parseCron(when.expression), { after: now, timeZone: when.timeZone, count: PREVIEW_RUNS }) };
}

export function describeTarget(target: ScheduleTarget, o: { sessions: readonly Session[]; machines: readonly Machine[] }): string {
  if (target.kind === 'session') {
    const session = o.sessions.find((s) => s.id === target.sessionId);
    return session ? `In “${session.title.trim() || session.cwd}”` : 'In a session that is gone';
  }
  const machine = o.machines.find((m) => m.id === target.machineId);
  const where = `${target.cwd} on ${machine?.name ?? 'an unknown machine'}`;
  return `New ${target.launchKind === 'pty' ? 'PTY' : 'headless'} session in ${where}${target.worktree ? `, worktree ${target.worktree.branch}` : ''}`;
}

const OUTCOME_WORDS: Record<ScheduleRun['outcome'], string> = { sent: 'Sent', started: 'Started', skipped: 'Skipped', failed: 'Failed', stopped: 'Stopped' };

export function describeLastRun(run: ScheduleRun): string {
  const missed = run.missed ? ` (missed at ${runTime(run.dueAt)})` : '';
  return `${OUTCOME_WORDS[run.outcome]} ${runTime(run.at)}${missed}${run.detail ? ` — ${run.detail}` : ''}`;
}

/** A `datetime-local` value (the browser's zone) as an instant, or null. */
export function localInputTime(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const at = new Date(value).getTime();
  return Number.isNaN(at) ? null : at;
}

/** An instant as a `datetime-local` value in the browser's zone. */
export function inputTimeOf(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
