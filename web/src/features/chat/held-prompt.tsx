// held-prompt.tsx: a prompt the hub still holds because no runner of the session is there (its
// machine offline, or the runner not back yet). It says so, and may be edited in place or
// withdrawn until the hub hands it over; then it turns into an ordinary pending prompt. A refusal
// (handed over meanwhile) is shown as the hub words it.
import { useState } from 'react';
import type { OutgoingPrompt } from './chat-state.ts';

/** What the chat can do with a held prompt; each answers null, or the hub's refusal. */
export type HeldPromptActions = {
  /** "machine offline" or "waiting for the runner": why it is still held. */
  why: string;
  edit: (promptId: string, text: string) => Promise<string | null>;
  withdraw: (promptId: string) => Promise<string | null>;
};

export function HeldPrompt({ prompt, actions }: { prompt: OutgoingPrompt; actions: HeldPromptActions }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (act: () => Promise<string | null>, after?: () => void) => {
    setBusy(true);
    const refused = await act();
    setBusy(false);
    setError(refused);
    if (!refused) after?.();
  };
  const editorId = `held-${prompt.id}`;
  return (
    <div className="msg msg-user msg-held">
      {draft === null ? (
        <div className="bubble">{prompt.text}</div>
      ) : (
        <div className="held-editor">
          <label className="sr-only" htmlFor={editorId}>
            Edit the queued prompt
          </label>
          <textarea id={editorId} className="field-input field-area" value={draft} rows={3} onChange={(e) => setDraft(e.target.value)} disabled={busy} />
        </div>
      )}
      <div className="msg-meta" role="status">
        Queued: {actions.why}
        <span className="msg-actions">
          {draft === null ? (
            <>
              <button type="button" className="link-button" onClick={() => (setError(null), setDraft(prompt.text))}>
                Edit
              </button>
              <button type="button" className="link-button" disabled={busy} onClick={() => void run(() => actions.withdraw(prompt.id))}>
                Withdraw
              </button>
            </>
          ) : (
            <>
              <button type="button" className="link-button" disabled={busy || draft.trim() === ''} onClick={() => void run(() => actions.edit(prompt.id, draft), () => setDraft(null))}>
                Save
              </button>
              <button type="button" className="link-button" disabled={busy} onClick={() => setDraft(null)}>
                Cancel
              </button>
            </>
          )}
        </span>
      </div>
      {error ? (
        <div className="msg-meta held-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}
