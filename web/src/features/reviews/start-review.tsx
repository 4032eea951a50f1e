// start-review.tsx: "Review" from the session header and the Changes view: a modal dialog that
// offers the agents the session's machine can run as a reviewer (its capabilities say readOnly),
// a focus, and PTY or headless; Start waits for the hub (the reviewer ready, its first prompt
// queued), then the card appears in this session's chat. A refusal stays in the dialog; with the
// machine's daemon offline it says to start it there, and Start waits for it.
import { useEffect, useId, useRef, useState } from 'react';
import type { AgentKind, LaunchKind, Session } from '@tether/shared';
import { agentDisplayName, isFinalStatus } from '@tether/shared/wire';
import { useMachines } from '../../lib/queries.ts';
import { machineOf, startDaemonOn } from '../../lib/daemon-hint.ts';
import { requestHub } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconSvg } from '../../lib/ui/icon-svg.tsx';
import { useModalOpener } from '../../lib/ui/use-modal.ts';
import './reviews.css';

/** MAX_REVIEW_FOCUS_CHARS (shared reviews.ts; not imported: that module brings zod into this chunk).
 *  The hub checks it again. */
const FOCUS_MAX = 4_000;
/** The hub reads the diff, then waits for the reviewer to be ready (45 s at most). */
const START_TIMEOUT_MS = 120_000;

/** The agents that can review this session: its machine's, read-only capable in that launch kind
 *  (Gemini: headless only); another than its own first. */
export function reviewerChoices(
  session: Session,
  machines: readonly { id: string; agents: AgentKind[]; capabilities: Partial<Record<AgentKind, { readOnly?: boolean; readOnlyIn?: readonly LaunchKind[]; displayName: string }>> }[] | undefined,
  launchKind: LaunchKind = 'headless',
) {
  const machine = machines?.find((m) => m.id === session.machineId);
  if (!machine) return [];
  const capable = machine.agents.filter((a) => machine.capabilities[a]?.readOnly === true && (machine.capabilities[a]?.readOnlyIn ?? [launchKind]).includes(launchKind));
  return [...capable.filter((a) => a !== session.agent), ...capable.filter((a) => a === session.agent)].map((agent) => ({ agent, name: agentDisplayName(agent, machine.capabilities[agent] ?? null) }));
}

function StartDialog({ session, onClose }: { session: Session; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const focusId = useId();
  const machines = useMachines();
  const [pty, setPty] = useState(false);
  const choices = reviewerChoices(session, machines.data, pty ? 'pty' : 'headless');
  const machine = machineOf(session.machineId, machines.data);
  const offline = machine !== null && !machine.online;
  const [agent, setAgent] = useState<AgentKind | null>(null);
  const [focus, setFocus] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // An agent picked that the launch kind now asked cannot run as a reviewer gives way to the first that can.
  const picked = choices.find((c) => c.agent === agent)?.agent ?? choices[0]?.agent ?? null;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const start = async () => {
    if (!picked) return;
    setBusy(true);
    setError(null);
    try {
      await requestHub('review:start', { sessionId: session.id, agent: picked, focus, launchKind: pty ? 'pty' : 'headless' }, { timeoutMs: START_TIMEOUT_MS });
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="review-dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={titleId} className="review-dialog-title">
        Review these changes
      </h2>
      <p className="review-note">Another agent reads this session's changes in the same folder, read-only, and answers here. Anything it wants to run is asked like any approval.</p>
      {offline ? (
        <p className="review-error" role="alert">
          {machine.name} is offline: {startDaemonOn(machine.name)} to review there.
        </p>
      ) : null}
      {choices.length === 0 ? (
        <p className="review-error" role="alert">
          {machines.isLoading ? 'Loading the machine…' : "This session's machine has no agent that can review read-only (update tether there)."}
        </p>
      ) : (
        <fieldset className="review-agents">
          <legend>Reviewer</legend>
          {choices.map((c) => (
            <label key={c.agent} className="review-agent">
              <input type="radio" name="reviewer" value={c.agent} checked={picked === c.agent} onChange={() => setAgent(c.agent)} disabled={busy} /> {c.name}
            </label>
          ))}
        </fieldset>
      )}
      <label htmlFor={focusId} className="review-compose-label">
        Focus (optional)
      </label>
      <textarea id={focusId} rows={3} maxLength={FOCUS_MAX} value={focus} onChange={(e) => setFocus(e.target.value)} placeholder="e.g. the error handling" disabled={busy} />
      <label className="review-agent">
        <input type="checkbox" checked={pty} onChange={(e) => setPty(e.target.checked)} disabled={busy} /> PTY (watch its terminal)
      </label>
      {error ? (
        <p className="review-error" role="alert">
          Couldn't start the review: {error}
        </p>
      ) : null}
      <div className="review-actions">
        <button type="button" className="button" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="button button-primary" onClick={() => void start()} disabled={busy || !picked || offline}>
          {busy ? (
            <>
              <Spinner size={16} /> Starting…
            </>
          ) : (
            'Start review'
          )}
        </button>
      </div>
    </dialog>
  );
}

/** `compact`: the header's small button; otherwise a labelled one (the Changes view). */
export function StartReviewButton({ session, compact = false }: { session: Session; compact?: boolean }) {
  const { open, show, close, triggerRef } = useModalOpener();
  if (isFinalStatus(session.status) || !session.machineId) return null;
  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className={compact ? 'icon-button review-start-compact' : 'button review-start'}
        aria-haspopup="dialog"
        title="A second opinion from another agent"
        {...(compact ? { 'aria-label': 'Review by another agent' } : {})}
        onClick={show}
      >
        {compact ? <ReviewIcon /> : 'Review'}
      </button>
      {open ? (
        <StartDialog session={session} onClose={close} />
      ) : null}
    </>
  );
}

/** Two speech bubbles, the second answering the first: a second opinion. */
function ReviewIcon() {
  return (
    <IconSvg size={21}>
      <path d="M4 5h9a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2H8l-3 3v-3H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2z" />
      <path d="M17 9h3a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2h-1v3l-3-3h-3a2 2 0 0 1-2-2v-1" />
    </IconSvg>
  );
}
