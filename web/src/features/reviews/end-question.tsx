// end-question.tsx: End and Archive of a session whose reviews still run ask what becomes of them
// (issue 29): end them too, or keep them running on their own, still linked to it. The hub refuses
// either request without an answer (reason `reviews_live`, hub/src/reviews/parent-end.ts), so the
// question here is the person's way to give one, never the only guard. The routes put these into
// the End dialog's and the session menu's slots (features never import each other).
//
//   End dialog ─► EndReviewsQuestion (the live reviews, two radios) ─► session:stop {reviews}
//   Archive ─refused reviews_live─► ArchiveReviewsQuestion (a modal) ─► session:archive {reviews}
import { useEffect, useId, useState } from 'react';
import { useModal } from '../../lib/ui/use-modal.ts';
import type { LiveReviewsChoice, Review } from '@tether/shared';
import { agentDisplayName } from '@tether/shared/wire';
import { Spinner } from '../../lib/ui/badge.tsx';
import { useReviews } from './use-reviews.ts';
import './reviews.css';

/** The reviews whose reviewer still runs (the card's state follows its session). */
export function liveReviews(reviews: readonly Review[]): Review[] {
  return reviews.filter((r) => r.state !== 'ended' && r.state !== 'failed');
}

const STATE_TEXT: Record<Review['state'], string> = { starting: 'starting', reviewing: 'reviewing', answered: 'answered', ended: 'ended', failed: 'failed' };

function LiveList({ reviews }: { reviews: readonly Review[] }) {
  return (
    <ul className="reviews-question-list">
      {reviews.map((r) => (
        <li key={r.id}>
          <span className="reviews-question-name">{agentDisplayName(r.agent)} review</span> · {STATE_TEXT[r.state]}
          {r.focus.trim() ? <span className="reviews-question-focus"> · {r.focus.trim().split('\n')[0]}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** "a review is" / "2 reviews are", "it" / "them": the question reads right for one or several. */
const words = (n: number) => (n === 1 ? { still: 'Its review is still running', them: 'it', their: 'its' } : { still: `Its ${n} reviews are still running`, them: 'them', their: 'their' });

export type EndReviewsQuestionProps = {
  sessionId: string;
  choice: LiveReviewsChoice | null;
  onChoice: (choice: LiveReviewsChoice) => void;
  /** Whether there is anything to ask (the End button waits for an answer while there is). */
  onNeeded: (needed: boolean) => void;
};

/** Inside the End dialog: nothing when no review runs; else the reviews and the two answers. */
export function EndReviewsQuestion({ sessionId, choice, onChoice, onNeeded }: EndReviewsQuestionProps) {
  const { reviews } = useReviews(sessionId);
  const live = liveReviews(reviews);
  const name = useId();
  useEffect(() => {
    onNeeded(live.length > 0);
  }, [live.length, onNeeded]);
  if (live.length === 0) return null;
  const w = words(live.length);
  return (
    <fieldset className="reviews-question">
      <legend>{w.still}</legend>
      <LiveList reviews={live} />
      <label className="review-agent">
        <input type="radio" name={name} checked={choice === 'end'} onChange={() => onChoice('end')} /> End {w.them} too
      </label>
      <label className="review-agent">
        <input type="radio" name={name} checked={choice === 'keep'} onChange={() => onChoice('keep')} /> Keep {w.them} running, on {w.their} own
      </label>
    </fieldset>
  );
}

export type ArchiveReviewsQuestionProps = {
  sessionId: string;
  title: string;
  /** Archives with the answer; a failure stays in the dialog. */
  onArchive: (choice: LiveReviewsChoice) => Promise<void>;
  onClose: () => void;
};

/** Archive of an ended session whose kept reviews still run: a modal with the two answers. */
export function ArchiveReviewsQuestion({ sessionId, title, onArchive, onClose }: ArchiveReviewsQuestionProps) {
  const { reviews } = useReviews(sessionId);
  const live = liveReviews(reviews);
  const [busy, setBusy] = useState<LiveReviewsChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { titleId, textId, props } = useModal({ busy: busy !== null, onClose });
  const answer = async (choice: LiveReviewsChoice) => {
    setBusy(choice);
    setError(null);
    try {
      await onArchive(choice);
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(null);
    }
  };
  const w = words(Math.max(live.length, 1));
  return (
    <dialog {...props} className="review-dialog">
      <h2 id={titleId} className="review-dialog-title">
        Archive “{title}”?
      </h2>
      <div id={textId}>
        <p className="review-note">{w.still}: it can still ask you things, and its card stays on this session.</p>
        <LiveList reviews={live} />
      </div>
      {error ? (
        <p className="review-error" role="alert">
          Couldn't archive it: {error}
        </p>
      ) : null}
      <div className="review-actions reviews-question-actions">
        <button type="button" className="button" autoFocus onClick={onClose} disabled={busy !== null}>
          Cancel
        </button>
        <button type="button" className="button" onClick={() => void answer('keep')} disabled={busy !== null}>
          {busy === 'keep' ? <Spinner size={16} /> : null} Keep {w.them} running
        </button>
        <button type="button" className="button button-danger" onClick={() => void answer('end')} disabled={busy !== null}>
          {busy === 'end' ? <Spinner size={16} /> : null} End {w.them} too
        </button>
      </div>
    </dialog>
  );
}
