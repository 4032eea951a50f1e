// unattended-guard.tsx: the guard on work that runs while nobody is at the desk (schedules, usage-
// limit continues), on top of the schedules screen: the switch that pauses it all, the day's cap and
// today's count, and the continue-at-reset default (continue-default.tsx). A run it stops shows on its
// schedule (Stopped) or its session's limit banner.
import { useEffect, useState } from 'react';
import { MAX_UNATTENDED_DAILY_CAP, runsToday } from '@tether/shared';
import { useNow } from '../../lib/ui/use-now.ts';
import { ScheduleError } from './schedule-list.tsx';
import { useUnattended } from '../../lib/use-unattended.ts';
import { ContinueDefault } from './continue-default.tsx';

export function UnattendedGuardPanel() {
  const { guard, error, change } = useUnattended();
  const now = useNow(60_000);
  const [cap, setCap] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setCap(guard ? String(guard.dailyCap) : ''), [guard?.dailyCap]);
  if (!guard) return <ScheduleError error={error} />;
  const today = runsToday(guard, now);
  const full = today >= guard.dailyCap;
  const wanted = /^\d+$/.test(cap) ? Number(cap) : null;
  const act = async (work: Promise<void>) => {
    setBusy(true);
    await work;
    setBusy(false);
  };
  const state = guard.paused
    ? { tone: 'pill-danger', words: 'Paused' }
    : full
      ? { tone: 'pill-attention', words: 'Cap reached' }
      : { tone: 'pill-ok', words: 'Running' };
  return (
    <section className="unattended-guard" aria-label="Unattended work" data-testid="unattended-guard">
      <div className="unattended-head">
        <h2 className="unattended-title">Unattended work</h2>
        <span className={`pill ${state.tone}`}>{state.words}</span>
      </div>
      <p className="schedule-meta">
        {guard.paused
          ? 'No schedule runs and no usage-limit continue until you resume. Each one stopped shows on its schedule or session, and is notified.'
          : full
            ? `No more unattended runs today: ${today} of ${guard.dailyCap} ran. Counting starts again at 00:00 UTC.`
            : `${today} of ${guard.dailyCap} unattended runs today (schedules and usage-limit continues; UTC day).`}
      </p>
      <div className="unattended-controls">
        <button type="button" className={`button ${guard.paused ? 'button-primary' : 'button-danger'}`} disabled={busy} aria-pressed={guard.paused} onClick={() => void act(change({ paused: !guard.paused }))}>
          {guard.paused ? 'Resume unattended work' : 'Pause everything unattended'}
        </button>
        <form
          className="unattended-cap"
          onSubmit={(event) => {
            event.preventDefault();
            if (wanted !== null) void act(change({ dailyCap: wanted }));
          }}
        >
          <label className="schedule-meta" htmlFor="unattended-cap">
            Runs a day at most
          </label>
          <input id="unattended-cap" className="field-input unattended-cap-input" inputMode="numeric" type="number" min={0} max={MAX_UNATTENDED_DAILY_CAP} value={cap} onChange={(event) => setCap(event.currentTarget.value)} />
          <button type="submit" className="button" disabled={busy || wanted === null || wanted === guard.dailyCap || wanted > MAX_UNATTENDED_DAILY_CAP}>
            Save
          </button>
        </form>
      </div>
      <ContinueDefault choice={guard.limitContinue} busy={busy} change={(wish) => act(change(wish))} />
      <ScheduleError error={error} />
    </section>
  );
}
