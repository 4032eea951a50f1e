// continue-default.tsx: the namespace's continue-at-reset default, in the unattended work panel: a
// switch "Continue sessions after a usage limit resets" and the prompt sent then. It applies to a
// session with no choice of its own (its limit banner's switch wins); each continue still counts
// against the guard above (pause, the day's cap).
import { useEffect, useState } from 'react';
import { DEFAULT_CONTINUE_PROMPT, MAX_CONTINUE_PROMPT_CHARS, type LimitContinue, type UnattendedSet } from '@tether/shared';

export function ContinueDefault({ choice, busy, change }: { choice: LimitContinue; busy: boolean; change: (change: UnattendedSet) => Promise<void> }) {
  const [prompt, setPrompt] = useState(choice.prompt);
  useEffect(() => setPrompt(choice.prompt), [choice.prompt]);
  // The tap shows at once (a phone's round trip is long); the hub's answer, or the unchanged choice
  // after a refusal, replaces it. A controlled switch that waited for the ack snapped back first.
  const [pendingOn, setPendingOn] = useState<boolean | null>(null);
  const switchOn = (on: boolean) => {
    setPendingOn(on);
    void change({ limitContinue: { on } }).finally(() => setPendingOn(null));
  };
  const wanted = prompt.trim();
  return (
    <div className="continue-default" role="group" aria-labelledby="continue-default-title">
      <h3 className="continue-default-title" id="continue-default-title">
        At a usage limit
      </h3>
      <label className="continue-default-switch">
        <input type="checkbox" role="switch" checked={pendingOn ?? choice.on} disabled={busy} onChange={(event) => switchOn(event.currentTarget.checked)} />
        Continue sessions after a usage limit resets
      </label>
      <p className="schedule-meta">
        {choice.on
          ? `A session stopped at its usage limit gets “${choice.prompt}” after the reset, unless you chose otherwise on that session. Each one counts as an unattended run.`
          : 'Sessions wait at their usage limit until you send a prompt, unless you switched continuing on for that session.'}
      </p>
      <form
        className="continue-default-prompt"
        onSubmit={(event) => {
          event.preventDefault();
          if (wanted) void change({ limitContinue: { on: choice.on, prompt: wanted } });
        }}
      >
        <label className="schedule-meta" htmlFor="continue-default-prompt">
          Prompt sent at the reset
        </label>
        <input
          id="continue-default-prompt"
          className="field-input continue-default-input"
          value={prompt}
          maxLength={MAX_CONTINUE_PROMPT_CHARS}
          placeholder={DEFAULT_CONTINUE_PROMPT}
          disabled={busy}
          onChange={(event) => setPrompt(event.currentTarget.value)}
        />
        <button type="submit" className="button" disabled={busy || !wanted || wanted === choice.prompt}>
          Save prompt
        </button>
      </form>
    </div>
  );
}
