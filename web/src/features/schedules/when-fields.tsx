// when-fields.tsx: the editor's timing: once at a local date and time, or a 5-field cron in a time
// zone, with the next runs previewed as the hub will read them (or its refusal, in its words), and
// what becomes of a run missed while the hub or the machine was away.
import type { MissedRun, ScheduleWhen } from '@tether/shared';
import { ScheduleError } from './schedule-list.tsx';
import { inputTimeOf, localInputTime, previewRuns, runTime } from './schedule-text.ts';

export type WhenDraft = { kind: 'once' | 'cron'; at: string; expression: string; timeZone: string };

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function whenDraftOf(when: ScheduleWhen | null, now: number): WhenDraft {
  if (when?.kind === 'cron') return { kind: 'cron', at: inputTimeOf(now + 3_600_000), expression: when.expression, timeZone: when.timeZone };
  return { kind: 'once', at: inputTimeOf(when?.kind === 'once' ? when.at : now + 3_600_000), expression: '0 9 * * 1-5', timeZone: browserZone() };
}

/** The draft as a timing, or why it is not one yet. */
export function whenOfDraft(draft: WhenDraft): ScheduleWhen | { error: string } {
  if (draft.kind === 'cron') return { kind: 'cron', expression: draft.expression.trim(), timeZone: draft.timeZone.trim() };
  const at = localInputTime(draft.at);
  return at === null ? { error: 'pick a date and a time' } : { kind: 'once', at };
}

const ZONES: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

export function WhenFields(o: { draft: WhenDraft; missed: MissedRun; now: number; onChange: (draft: WhenDraft) => void; onMissed: (missed: MissedRun) => void }) {
  const { draft } = o;
  const when = whenOfDraft(draft);
  const preview = 'error' in when ? when : previewRuns(when, o.now);
  const zone = draft.kind === 'cron' ? draft.timeZone : undefined;
  return (
    <>
      <fieldset className="schedule-group">
        <legend className="field-label">When</legend>
        <div className="schedule-choice" role="radiogroup" aria-label="When">
          <label className="schedule-option">
            <input type="radio" name="when-kind" checked={draft.kind === 'once'} onChange={() => o.onChange({ ...draft, kind: 'once' })} />
            Once
          </label>
          <label className="schedule-option">
            <input type="radio" name="when-kind" checked={draft.kind === 'cron'} onChange={() => o.onChange({ ...draft, kind: 'cron' })} />
            Repeat (cron)
          </label>
        </div>
        {draft.kind === 'once' ? (
          <label className="schedule-field">
            <span className="field-label">Date and time</span>
            <input className="field-input" type="datetime-local" value={draft.at} onChange={(e) => o.onChange({ ...draft, at: e.target.value })} />
          </label>
        ) : (
          <div className="schedule-row">
            <label className="schedule-field">
              <span className="field-label">Cron (minute hour day month weekday)</span>
              <input className="field-input field-mono" value={draft.expression} spellCheck={false} autoCapitalize="off" onChange={(e) => o.onChange({ ...draft, expression: e.target.value })} />
            </label>
            <label className="schedule-field">
              <span className="field-label">Time zone</span>
              <input className="field-input" list="schedule-zones" value={draft.timeZone} autoCapitalize="off" onChange={(e) => o.onChange({ ...draft, timeZone: e.target.value })} />
              <datalist id="schedule-zones">
                {ZONES.map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
            </label>
          </div>
        )}
        <div className="schedule-preview" aria-live="polite">
          {'error' in preview ? (
            <ScheduleError error={preview.error} />
          ) : (
            <>
              <span className="field-label">{preview.runs.length > 1 ? 'Next runs' : 'Runs'}</span>
              <ol className="schedule-runs">
                {preview.runs.map((at) => (
                  <li key={at}>{runTime(at, zone)}</li>
                ))}
              </ol>
              {draft.kind === 'cron' ? <p className="schedule-hint">Wall-clock times in {draft.timeZone}: on a daylight-saving change a skipped time does not run that day, a repeated one runs once. At most one run every 5 minutes.</p> : null}
            </>
          )}
        </div>
      </fieldset>
      <fieldset className="schedule-group">
        <legend className="field-label">If a run is missed (hub down, machine asleep)</legend>
        <div className="schedule-choice" role="radiogroup" aria-label="If a run is missed">
          <label className="schedule-option">
            <input type="radio" name="missed" checked={o.missed === 'run'} onChange={() => o.onMissed('run')} />
            Run it once when possible
          </label>
          <label className="schedule-option">
            <input type="radio" name="missed" checked={o.missed === 'skip'} onChange={() => o.onMissed('skip')} />
            Skip it
          </label>
        </div>
      </fieldset>
    </>
  );
}
