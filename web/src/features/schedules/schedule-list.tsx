// schedule-list.tsx: the namespace's schedules as cards: the prompt, its timing and target, the next
// run (or paused / done), the last run as it went (missed runs say so), and Edit, Pause/Resume, Delete.
import { useState } from 'react';
import type { Machine, Schedule, ScheduleRun, Session } from '@tether/shared';
import { requestHub } from '../../lib/socket.ts';
import { describeLastRun, describeTarget, describeWhen, runTime } from './schedule-text.ts';

/** What the hub refused, in its words. */
export function ScheduleError({ error }: { error: string | null }) {
  return error ? (
    <p className="schedule-preview-error" role="alert">
      {error}
    </p>
  ) : null;
}

const PILL: Record<ScheduleRun['outcome'], string> = { sent: 'pill-ok', started: 'pill-ok', skipped: 'pill-attention', failed: 'pill-danger', stopped: 'pill-attention' };

function ScheduleCard(o: { schedule: Schedule; sessions: readonly Session[]; machines: readonly Machine[]; onEdit: () => void }) {
  const s = o.schedule;
  const [error, setError] = useState<string | null>(null);
  const act = (work: Promise<unknown>) => work.then(() => setError(null)).catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  const zone = s.when.kind === 'cron' ? s.when.timeZone : undefined;
  const next = s.paused ? 'Paused' : s.nextRunAt === null ? 'Done' : `Next: ${runTime(s.nextRunAt, zone)}`;
  return (
    <li className="schedule-card">
      <p className="schedule-prompt">{s.prompt}</p>
      <p className="schedule-meta">{describeWhen(s.when)}</p>
      <p className="schedule-meta">{describeTarget(s.target, o)}</p>
      <p className="schedule-next">
        <span className={`pill ${s.paused || s.nextRunAt === null ? 'pill-muted' : 'pill-busy'}`}>{next}</span>
        {s.runs > 0 ? <span className="schedule-meta"> {s.runs === 1 ? '1 run' : `${s.runs} runs`}</span> : null}
      </p>
      {s.lastRun ? (
        <p className="schedule-last">
          <span className={`pill ${s.lastRun.missed ? 'pill-attention' : PILL[s.lastRun.outcome]}`}>{s.lastRun.missed ? 'Missed' : 'Last run'}</span> {describeLastRun(s.lastRun)}
        </p>
      ) : null}
      <ScheduleError error={error} />
      <div className="schedule-card-actions">
        <button type="button" className="button" onClick={o.onEdit}>
          Edit
        </button>
        <button type="button" className="button" onClick={() => void act(requestHub('schedule:update', { id: s.id, paused: !s.paused }))}>
          {s.paused ? 'Resume' : 'Pause'}
        </button>
        <button type="button" className="button button-danger" onClick={() => void act(requestHub('schedule:remove', { id: s.id }))}>
          Delete
        </button>
      </div>
    </li>
  );
}

export function ScheduleList(o: { schedules: readonly Schedule[]; sessions: readonly Session[]; machines: readonly Machine[]; onEdit: (schedule: Schedule) => void }) {
  if (o.schedules.length === 0) return <p className="schedule-empty">No schedules yet. A schedule sends a prompt later, once or on a cron, to a running session or a new one.</p>;
  return (
    <ul className="schedule-list" aria-label="Schedules">
      {o.schedules.map((s) => (
        <ScheduleCard key={s.id} schedule={s} sessions={o.sessions} machines={o.machines} onEdit={() => o.onEdit(s)} />
      ))}
    </ul>
  );
}
