// follow.ts: a review card follows its reviewer's session. The reviewer's chat gives the final
// answer (its last assistant text), its status the card's state: working → reviewing, idle with an
// answer → answered, ended / failed → ended / failed (read-only from then on). Subscribed to the
// fact bus in createHub; it works where the reviewer's runner reports, on whichever hub that is.
//
// Invariant: one refresh per review at a time (a chain per id), so a late status never overwrites a
// newer answer; a session that is no review costs one lookup per assistant batch and nothing else.
import { MAX_REVIEW_ANSWER_CHARS, type ChatMessage, type Namespace, type Review, type ReviewState, type Session } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';

/** The last assistant text among these messages, or null. */
export function answerIn(messages: readonly ChatMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    const text = message.content
      .filter((b) => b.type === 'text')
      .map((b) => (b as { text: string }).text)
      .join('\n')
      .trim();
    if (text) return text.length > MAX_REVIEW_ANSWER_CHARS ? `${text.slice(0, MAX_REVIEW_ANSWER_CHARS - 40)}\n[cut: the whole answer is in its chat]` : text;
  }
  return null;
}

/** The card's state for the reviewer's status (an idle reviewer without an answer is still at work). */
export function stateFor(status: Session['status'], hasAnswer: boolean): ReviewState {
  if (status === 'ended' || status === 'failed') return status;
  if (status === 'idle' && hasAnswer) return 'answered';
  return 'reviewing';
}

export type ReviewFollower = ReturnType<typeof followReviews>;

export function followReviews(o: { store: Store; facts: FactBus; onError: (what: string, error: unknown) => void }) {
  const { store, facts } = o;
  const chains = new Map<string, Promise<Review | null>>();

  const refresh = async (ns: Namespace, reviewId: string, answer: string | null): Promise<Review | null> => {
    const review = await store.getReview({ namespace: ns, reviewId });
    if (!review) return null;
    const child = await store.getSession({ namespace: ns, sessionId: reviewId });
    if (!child) return review;
    const finalAnswer = answer ?? review.finalAnswer;
    const state = stateFor(child.status, finalAnswer !== null);
    if (state === review.state && finalAnswer === review.finalAnswer) return review;
    const updated: Review | null = await store.updateReview({ namespace: ns, reviewId, state, ...(finalAnswer !== null ? { finalAnswer } : {}), now: Date.now() });
    if (updated) facts.publish('review.updated', { namespace: ns, review: updated });
    return updated;
  };
  const queue = (ns: Namespace, reviewId: string, answer: string | null): Promise<Review | null> => {
    const key = `${ns}\u0000${reviewId}`;
    const next = (chains.get(key) ?? Promise.resolve(null))
      .then(() => refresh(ns, reviewId, answer))
      .catch((error: unknown) => {
        o.onError('review follow', error);
        return null;
      });
    chains.set(key, next);
    void next.finally(() => {
      if (chains.get(key) === next) chains.delete(key);
    });
    return next;
  };

  facts.on('session.updated', ({ namespace, session }) => {
    if (session.parentId) void queue(namespace, session.id, null);
  });
  facts.on('messages.added', ({ namespace, sessionId, messages }) => {
    const answer = answerIn(messages);
    if (answer !== null) void queue(namespace, sessionId, answer);
  });
  return {
    /** The card as its reviewer's session now is (after every refresh queued before it). */
    settle: (ns: Namespace, reviewId: string) => queue(ns, reviewId, null),
  };
}
