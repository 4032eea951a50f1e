// review-card.tsx: the review cards in a session's chat (issue 29). Each is collapsed to its
// reviewer, state and the first lines of its final answer; open, it shows the whole answer and the
// person's buttons: "Send to <this session's agent>" (the findings, editable, queued as a prompt
// here), "Ask again" (a follow-up to the reviewer), "End" (stops the reviewer), and the reviewer's
// own session. Once the reviewer has ended the card is read-only. A reviewer's own chat says whose
// changes it reviews, with a link back to that session (where its card is).
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { Review, Session } from '@tether/shared';
import { agentDisplayName } from '@tether/shared/wire';
import { requestHub } from '../../lib/socket.ts';
import { useSession } from '../../lib/queries.ts';
import { sessionTitle } from '../../lib/format.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { useReviews } from './use-reviews.ts';
import { findingsText } from './findings.ts';
import { SendOn } from './send-on.tsx';
import { ReviewFormFooter } from './form-footer.tsx';
import './reviews.css';

const STATE_TEXT: Record<Review['state'], string> = {
  starting: 'starting',
  reviewing: 'reviewing…',
  answered: 'answered',
  ended: 'ended',
  failed: 'failed',
};
const PREVIEW_LINES = 3;

const isOver = (review: Review) => review.state === 'ended' || review.state === 'failed';


/** One box for "Send to" and "Ask again": the text, then send or cancel. */
function Compose(o: { label: string; initial: string; action: string; onSend: (text: string) => Promise<void>; onCancel: () => void }) {
  const [text, setText] = useState(o.initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  // The cards scroll in a short strip on a phone: bring the whole box, its buttons too, into view.
  useEffect(() => {
    boxRef.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  const send = async () => {
    setBusy(true);
    setError(null);
    try {
      await o.onSend(text);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <div className="review-compose" ref={boxRef}>
      <label htmlFor={id} className="review-compose-label">
        {o.label}
      </label>
      <textarea id={id} value={text} rows={6} onChange={(e) => setText(e.target.value)} disabled={busy} />
      <ReviewFormFooter error={error} busy={busy} canSend={text.trim() !== ''} action={o.action} onCancel={o.onCancel} onSend={() => void send()} />
    </div>
  );
}

function ReviewCard({ review, parent, others }: { review: Review; parent: Session; others: readonly Review[] }) {
  const reviewer = agentDisplayName(review.agent);
  const parentAgent = agentDisplayName(parent.agent, parent.capabilities);
  const [mode, setMode] = useState<'idle' | 'send' | 'ask' | 'on'>('idle');
  const [note, setNote] = useState<string | null>(null);
  const [ending, setEnding] = useState(false);
  const over = isOver(review);
  const lines = review.finalAnswer?.split('\n') ?? [];
  const preview = lines.slice(0, PREVIEW_LINES).join('\n') + (lines.length > PREVIEW_LINES ? '\n…' : '');
  const end = async () => {
    setEnding(true);
    try {
      await requestHub('review:end', { reviewId: review.id }, { timeoutMs: 40_000 });
    } catch (e) {
      setNote(`Couldn't end it: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setEnding(false);
    }
  };
  return (
    <details className="review-card" data-state={review.state}>
      <summary>
        <span className="review-title">{reviewer} review</span>
        <span className="review-state">{STATE_TEXT[review.state]}</span>
        {preview ? <span className="review-preview">{preview}</span> : null}
      </summary>
      <div className="review-body">
        <p className="review-note">
          {over ? 'The reviewer has ended; this card is read-only.' : 'The reviewer is read-only; anything it wants to run is asked here.'}
          {review.focus ? ` Focus: ${review.focus}` : ''}
        </p>
        {review.finalAnswer ? <div className="review-answer">{review.finalAnswer}</div> : <p className="review-note">No answer yet.</p>}
        {note ? (
          <p className="review-status" role="status">
            {note}
          </p>
        ) : null}
        {mode === 'send' ? (
          <Compose
            label={`What ${parentAgent} is sent (edit it first if you like)`}
            initial={findingsText(review, reviewer)}
            action={`Send to ${parentAgent}`}
            onCancel={() => setMode('idle')}
            onSend={async (text) => {
              await requestHub('review:send', { reviewId: review.id, promptId: crypto.randomUUID(), text });
              setMode('idle');
              setNote(`Queued for ${parentAgent}: typed when it is idle.`);
            }}
          />
        ) : mode === 'on' ? (
          <SendOn
            {...{ review, parent, others }}
            onCancel={() => setMode('idle')}
            onDone={(done) => {
              setMode('idle');
              setNote(done);
            }}
          />
        ) : mode === 'ask' ? (
          <Compose
            label={`Ask ${reviewer} again`}
            initial=""
            action="Ask"
            onCancel={() => setMode('idle')}
            onSend={async (text) => {
              await requestHub('review:ask', { reviewId: review.id, promptId: crypto.randomUUID(), text });
              setMode('idle');
              setNote(`Sent to ${reviewer}.`);
            }}
          />
        ) : (
          <div className="review-actions">
            <Link to="/sessions/$sessionId" params={{ sessionId: review.id }} className="button button-quiet">
              Open reviewer
            </Link>
            {review.finalAnswer ? (
              <button type="button" className="button button-primary" onClick={() => setMode('send')}>
                Send to {parentAgent}
              </button>
            ) : null}
            {review.finalAnswer ? (
              <button type="button" className="button" onClick={() => setMode('on')}>
                Send on
              </button>
            ) : null}
            {over ? null : (
              <>
                <button type="button" className="button" onClick={() => setMode('ask')}>
                  Ask again
                </button>
                <button type="button" className="button button-danger" onClick={() => void end()} disabled={ending}>
                  {ending ? <Spinner size={16} /> : null} End
                </button>
              </>
            )}
          </div>
        )}
      </div>
    </details>
  );
}

/** In a reviewer's chat: the session it reviews, one tap away (its card is there). */
function ReviewOf({ parentId }: { parentId: string }) {
  const parent = useSession(parentId);
  return (
    <p className="review-of">
      A read-only review of{' '}
      <Link to="/sessions/$sessionId" params={{ sessionId: parentId }}>
        {parent.data ? sessionTitle(parent.data) : 'the reviewed session'}
      </Link>
      : send its findings from the card there.
    </p>
  );
}

/** The session's review cards, oldest first (and, for a reviewer, whose changes it reviews);
 *  nothing when there is neither. */
export function ReviewCards({ session }: { session: Session }) {
  const { reviews } = useReviews(session.id);
  const of = session.parentId ? <ReviewOf parentId={session.parentId} /> : null;
  if (reviews.length === 0) return of ? <div className="review-cards">{of}</div> : null;
  return (
    // Focusable: several open cards scroll inside it (a keyboard must reach them).
    <section className="review-cards" aria-label="Reviews" tabIndex={0}>
      {of}
      {reviews.map((review) => (
        <ReviewCard key={review.id} review={review} parent={session} others={reviews} />
      ))}
    </section>
  );
}
