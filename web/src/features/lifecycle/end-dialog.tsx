// end-dialog.tsx: "End session" in the session header and its confirmation. The confirmation is a
// modal <dialog role="alertdialog">: the page behind is inert, focus starts on Cancel (the harmless
// answer), Esc cancels, and focus returns to the button that opened it. Ending waits for the hub's
// ack (the session has ended); a refusal stays in the dialog as an alert. A session whose reviews
// still run is asked what becomes of them (the route's `reviewsQuestion` slot draws the question);
// End waits for that answer.
import { agentDisplayName } from '@tether/shared/wire';
import { useCallback, useState, type ReactNode } from 'react';
import { useModal, useModalOpener } from '../../lib/ui/use-modal.ts';
import type { LiveReviewsChoice, Session } from '@tether/shared';
import { Spinner } from '../../lib/ui/badge.tsx';
import './lifecycle.css';
import { dismissFailure, endSession, useLifecycle } from './lifecycle-store.ts';
import { IconPower } from '../../lib/ui/icons.tsx';

function consequence(session: Session): string {
  const name = agentDisplayName(session.agent);
  // A background session tether attached to (capabilities.adopted): End only closes tether's view.
  const adopted = session.capabilities?.adopted;
  if (adopted) return `tether detaches from background session ${adopted.backgroundId}: it keeps running in ${name}'s own pool, and nothing of it is stopped. The chat and the last screen stay here.`;
  // Both agents leave the same way: Ctrl-C twice at their TUI, or, headless, the end of their input.
  const how = session.launchKind === 'pty' ? `${name} exits as it does at the desk (Ctrl-C twice)` : `${name} reaches the end of its input and exits`;
  const turn = session.status === 'thinking' ? '; the turn in progress is interrupted' : '';
  return `${how}${turn}. ${session.launchKind === 'pty' ? 'The chat and the last screen stay' : 'The chat stays'} here.`;
}

/** The desk's own resume verb: claude's flag, Codex's subcommand. */
const DESK_RESUME: Record<Session['agent'], string> = { claude: 'tether claude --resume', codex: 'tether codex resume', gemini: 'tether gemini --resume', opencode: 'opencode --session' };

function resumeLater(session: Session): string {
  const adopted = session.capabilities?.adopted;
  if (adopted?.stop) return `Adopt it again with tether adopt ${adopted.backgroundId}, or Resume here. To end it for good, stop it in its pool below (it asks first).`;
  if (adopted) return `Adopt it again with tether adopt ${adopted.backgroundId}; stopping it in its pool is tether adopt ${adopted.backgroundId} --stop, which asks first.`;
  return session.machineId
    ? 'You can resume it later from here or with tether resume.'
    : `It was started at a desk: resume it there with ${DESK_RESUME[session.agent]}.`;
}

/** End never removes a worktree (the session may be resumed in it): said, so nobody wonders where
 *  the branch's work went. Archive is where removing one is asked. */
function worktreeStays(session: Session): string | null {
  const worktree = session.worktree;
  if (!worktree || worktree.removedAt !== null) return null;
  return `Its worktree on ${worktree.branch} stays as it is, with everything in it; Archive asks whether to remove it.`;
}

/** The question about live reviews inside the dialog: nothing when none runs; `onNeeded` says
 *  whether End must wait for an answer. */
export type ReviewsQuestionSlot = (o: { sessionId: string; choice: LiveReviewsChoice | null; onChoice: (c: LiveReviewsChoice) => void; onNeeded: (needed: boolean) => void }) => ReactNode;

export function EndSessionButton({ session, reviewsQuestion }: { session: Session; reviewsQuestion?: ReviewsQuestionSlot | undefined }) {
  const { open, show, close, triggerRef } = useModalOpener();
  const lifecycle = useLifecycle(session.id);
  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className="icon-button end-session-button"
        aria-label="End session"
        title="End session"
        aria-haspopup="dialog"
        disabled={lifecycle.kind === 'ending'}
        onClick={() => {
          dismissFailure(session.id);
          show();
        }}
      >
        {lifecycle.kind === 'ending' ? <Spinner size={18} label="Ending session" /> : <IconPower size={21} />}
      </button>
      {open ? (
        <EndDialog session={session} reviewsQuestion={reviewsQuestion} onClose={close} />
      ) : null}
    </>
  );
}

/** A step's failure (if the last end failed) and its two answers: the harmless one focused first. */
function DialogFooter(o: { session: Session; failed: string; cancel: { label: string; onClick: () => void }; confirm: { label: string; busy: string; disabled: boolean; onClick: () => void } }) {
  const lifecycle = useLifecycle(o.session.id);
  const ending = lifecycle.kind === 'ending';
  return (
    <>
      {lifecycle.kind === 'failed' && lifecycle.action === 'end' ? (
        <p className="confirm-dialog-error" role="alert">
          {o.failed}: {lifecycle.message}
        </p>
      ) : null}
      <div className="confirm-dialog-actions">
        <button type="button" className="button" autoFocus disabled={ending} onClick={o.cancel.onClick}>
          {o.cancel.label}
        </button>
        <button type="button" className="button button-danger" disabled={ending || o.confirm.disabled} onClick={o.confirm.onClick}>
          {ending ? (
            <>
              <Spinner size={16} /> {o.confirm.busy}
            </>
          ) : (
            o.confirm.label
          )}
        </button>
      </div>
    </>
  );
}

/** The second step for an adopted session: stopping it in the agent's own pool, said as it is. */
function PoolStopStep({ session, textId, onBack }: { session: Session; textId: string; onBack: () => void }) {
  const id = session.capabilities!.adopted!.backgroundId;
  const name = agentDisplayName(session.agent, session.capabilities);
  return (
    <>
      <div id={textId} className="confirm-dialog-text">
        <p className="pool-stop-warning">
          This stops {name} background session {id} in {name}'s own pool (<code>{session.agent} stop {id}</code>): a turn it is running ends, and it no longer runs anywhere. Its conversation stays on disk.
        </p>
      </div>
      <DialogFooter session={session} failed="Couldn't stop it" cancel={{ label: 'Back', onClick: onBack }} confirm={{ label: 'Stop in pool', busy: 'Stopping…', disabled: false, onClick: () => void endSession(session, undefined, { stopInPool: true }) }} />
    </>
  );
}

function EndDialog({ session, reviewsQuestion, onClose }: { session: Session; reviewsQuestion: ReviewsQuestionSlot | undefined; onClose: () => void }) {
  const [poolStop, setPoolStop] = useState(false);
  const [reviews, setReviews] = useState<LiveReviewsChoice | null>(null);
  const [asking, setAsking] = useState(false);
  const onNeeded = useCallback((needed: boolean) => setAsking(needed), []);
  const lifecycle = useLifecycle(session.id);
  const ending = lifecycle.kind === 'ending';
  // Esc cancels, unless the end is already on its way.
  const { titleId, textId, props } = useModal({ busy: ending, onClose });

  const stays = worktreeStays(session);
  const end = async () => {
    if (await endSession(session, asking && reviews ? reviews : undefined)) onClose();
  };

  const adopted = session.capabilities?.adopted;
  if (poolStop && adopted) {
    return (
      <dialog {...props} className="confirm-dialog">
        <h2 id={titleId} className="confirm-dialog-title">
          Stop it in {agentDisplayName(session.agent, session.capabilities)}'s pool?
        </h2>
        <PoolStopStep session={session} textId={textId} onBack={() => setPoolStop(false)} />
      </dialog>
    );
  }
  return (
    <dialog {...props} className="confirm-dialog">
      <h2 id={titleId} className="confirm-dialog-title">
        {adopted ? 'Detach from this session?' : 'End this session?'}
      </h2>
      <div id={textId} className="confirm-dialog-text">
        <p>{consequence(session)}</p>
        <p>{resumeLater(session)}</p>
        {stays ? <p>{stays}</p> : null}
      </div>
      {reviewsQuestion?.({ sessionId: session.id, choice: reviews, onChoice: setReviews, onNeeded })}
      {adopted?.stop ? (
        <button type="button" className="button button-quiet pool-stop-open" disabled={ending} onClick={() => setPoolStop(true)}>
          Stop it in {agentDisplayName(session.agent, session.capabilities)}'s pool instead…
        </button>
      ) : null}
      <DialogFooter session={session} failed="Couldn't end it" cancel={{ label: 'Cancel', onClick: onClose }} confirm={{ label: adopted ? 'Detach' : 'End session', busy: 'Ending…', disabled: asking && reviews === null, onClick: () => void end() }} />
    </dialog>
  );
}
