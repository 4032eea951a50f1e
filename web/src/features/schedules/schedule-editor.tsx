// schedule-editor.tsx: make or change a schedule: where it goes (new ones only), when, what if a run
// is missed, and the prompt. The hub checks everything again; its refusal is shown as it says it.
import { useState, type FormEvent } from 'react';
import type { Machine, MissedRun, Schedule, Session } from '@tether/shared';
import { requestHub } from '../../lib/socket.ts';
import { useNow } from '../../lib/ui/use-now.ts';
import { TargetFields, targetDraftOf, targetOfDraft } from './target-fields.tsx';
import { WhenFields, whenDraftOf, whenOfDraft } from './when-fields.tsx';
import { describeTarget, previewRuns } from './schedule-text.ts';
import { ScheduleError } from './schedule-list.tsx';

export function ScheduleEditor(o: { editing: Schedule | null; sessions: readonly Session[]; machines: readonly Machine[]; onDone: () => void }) {
  const now = useNow(15_000);
  const [target, setTarget] = useState(() => targetDraftOf(o));
  const [when, setWhen] = useState(() => whenDraftOf(o.editing?.when ?? null, Date.now()));
  const [missed, setMissed] = useState<MissedRun>(o.editing?.missed ?? 'run');
  const [prompt, setPrompt] = useState(o.editing?.prompt ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const timing = whenOfDraft(when);
  const timingOk = !('error' in timing) && !('error' in previewRuns(timing, now));
  const chosen = o.editing ? o.editing.target : targetOfDraft(target);
  const canSave = timingOk && !('error' in chosen) && prompt.trim() !== '' && !saving;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSave || 'error' in timing || 'error' in chosen) return;
    setSaving(true);
    setError(null);
    try {
      if (o.editing) await requestHub('schedule:update', { id: o.editing.id, when: timing, prompt, missed });
      else await requestHub('schedule:create', { id: crypto.randomUUID(), target: chosen, when: timing, prompt, missed });
      o.onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setSaving(false);
    }
  };

  return (
    <form className="schedule-editor" onSubmit={(e) => void save(e)} aria-label={o.editing ? 'Edit schedule' : 'New schedule'}>
      {o.editing ? (
        <p className="schedule-hint">{describeTarget(o.editing.target, o)}</p>
      ) : (
        <TargetFields draft={target} sessions={o.sessions} machines={o.machines} onChange={setTarget} />
      )}
      <WhenFields draft={when} missed={missed} now={now} onChange={setWhen} onMissed={setMissed} />
      <label className="schedule-field">
        <span className="field-label">Prompt</span>
        <textarea className="field-input field-area" rows={4} value={prompt} onChange={(e) => setPrompt(e.target.value)} placeholder="Run the tests and fix what fails" />
      </label>
      <ScheduleError error={error} />
      <div className="schedule-actions">
        <button type="button" className="button" onClick={o.onDone}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={!canSave}>
          {o.editing ? 'Save' : 'Schedule'}
        </button>
      </div>
    </form>
  );
}
