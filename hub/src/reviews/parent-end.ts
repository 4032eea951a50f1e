// parent-end.ts: End and Archive of a session that has live reviews (issue 29: "End and Archive on a
// parent ask what to do with live reviews"). The person's choice travels with the request
// (SessionStop / SessionArchive `reviews`): `end` ends them too (theirs first, deepest first),
// `keep` leaves them running on their own, still linked. With live reviews and no choice the
// request is refused (`conflict`, reason `reviews_live`) naming them, and nothing is stopped: the
// web asks its question from that list, `tether stop` lists them.
//
//   session:stop / session:archive ─► live reviews? ─ none, or a choice ─► (end them) ─► stop / archive
//                                                    └ no choice ─► refusal naming them
//
// Invariants: a review is live while its reviewer's session is (the session's status decides, not
// the card's state, which follows it); a review that cannot be ended leaves its parent as it was
// and says which; a request nothing here concerns (unarchive, an ended parent's stop, a live
// parent's archive) goes on unchanged to the room that decides it.
import {
  agentDisplayName,
  isFinalStatus,
  type Ack,
  type LiveReviewRef,
  type LiveReviewsChoice,
  type LiveReviewsRefusal,
  type Namespace,
  type Review,
  type SessionArchive,
  type WebAcks,
} from '@tether/shared';
import type { z } from 'zod';
import type { SessionStopSchema } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { RemoteSessions } from '../machines/remote-sessions.ts';

type Deps = {
  store: Store;
  sessions: Pick<Sessions, 'get' | 'archive'>;
  remote: Pick<RemoteSessions, 'stop'>;
  /** "End" on a card: stops the reviewer, the card settles (reviews.ts). */
  endReview: (ns: Namespace, request: { reviewId: string }) => Promise<Ack<WebAcks['review:end']>>;
};

/** "Codex review 1a2b3c4d (reviewing, focus: error handling)": a person tells them apart by this. */
export function describeReview(review: LiveReviewRef): string {
  const focus = review.focus.trim() ? `, focus: ${review.focus.trim().slice(0, 60)}${review.focus.trim().length > 60 ? '…' : ''}` : '';
  return `${agentDisplayName(review.agent)} review ${review.id.slice(0, 8)} (${review.state}${focus})`;
}

export function liveReviewsRefusal(o: { reviews: LiveReviewRef[]; action: 'end' | 'archive' }): LiveReviewsRefusal {
  const { reviews } = o;
  const which = reviews.map(describeReview).join('; ');
  const count = reviews.length === 1 ? 'a review is' : `${reviews.length} reviews are`;
  return {
    ok: false,
    code: 'conflict',
    reason: 'reviews_live',
    reviews,
    error: `${count} still running: ${which}. Say whether to end ${reviews.length === 1 ? 'it' : 'them'} too or keep ${reviews.length === 1 ? 'it' : 'them'} running on ${reviews.length === 1 ? 'its' : 'their'} own, then ${o.action} again`,
  };
}

export function createParentEnds(deps: Deps) {
  const { store, sessions } = deps;

  /** The session's reviews whose reviewer still runs, oldest first. */
  const liveReviewsOf = async (ns: Namespace, sessionId: string): Promise<Review[]> => {
    const reviews = await store.listReviews({ namespace: ns, parentId: sessionId });
    const live = await Promise.all(
      reviews.map(async (review) => {
        const child = await sessions.get(ns, review.id);
        return child && !isFinalStatus(child.status) ? review : null;
      }),
    );
    return live.filter((r): r is Review => r !== null);
  };

  /** End these reviews, each after its own live reviews; the first failure, or null. */
  const endAll = async (ns: Namespace, reviews: readonly Review[]): Promise<string | null> => {
    const failures = await Promise.all(
      reviews.map(async (review) => {
        const below = await endAll(ns, await liveReviewsOf(ns, review.id));
        if (below) return below;
        const ended = await deps.endReview(ns, { reviewId: review.id });
        return ended.ok ? null : `${describeReview(review)} could not be ended: ${ended.error}`;
      }),
    );
    return failures.find((f) => f !== null) ?? null;
  };

  /** Refused (no choice), failed (a review would not end), or null: go on. */
  const settle = async (o: { ns: Namespace; sessionId: string; choice: LiveReviewsChoice | undefined; action: 'end' | 'archive' }): Promise<Ack<never> | null> => {
    const live = await liveReviewsOf(o.ns, o.sessionId);
    if (live.length === 0 || o.choice === 'keep') return null;
    if (o.choice === undefined) {
      return liveReviewsRefusal({ reviews: live.map(({ id, agent, state, focus }) => ({ id, agent, state, focus })), action: o.action });
    }
    const failure = await endAll(o.ns, live);
    return failure ? { ok: false, code: 'conflict', error: `${failure}; the session was left as it was` } : null;
  };

  return {
    async stop(ns: Namespace, request: z.output<typeof SessionStopSchema>): Promise<Ack<WebAcks['session:stop']>> {
      const parent = await sessions.get(ns, request.sessionId);
      if (parent && !isFinalStatus(parent.status)) {
        const refused = await settle({ ns, sessionId: parent.id, choice: request.reviews, action: 'end' });
        if (refused) return refused;
      }
      return deps.remote.stop(ns, request);
    },
    async archive(ns: Namespace, request: SessionArchive): Promise<Ack<WebAcks['session:archive']>> {
      const parent = await sessions.get(ns, request.sessionId);
      // Only an ended session is archived (the triage room refuses the rest): nothing to ask before.
      if (request.archived && parent && isFinalStatus(parent.status)) {
        const refused = await settle({ ns, sessionId: parent.id, choice: request.reviews, action: 'archive' });
        if (refused) return refused;
      }
      return sessions.archive(ns, request);
    },
  };
}
