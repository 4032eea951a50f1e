// reviews.ts: a second opinion from another agent (issue 29). A review is a child session, started on
// the parent's machine and folder through its daemon, with the reviewer read-only in its agent's own
// terms; the parent's chat shows it as a card (reviewer, state, final answer) that can send the
// findings back, ask again or end it.
//
//   web / `tether review` ─review:start─► hub (checks: namespace, machine's agents, parent live, depth,
//   focus) ─daemon:spawn {readOnly}─► reviewer runner ─► first prompt: instructions + diff + focus
//   reviewer's answer (its chat) ─► hub ─► Review.finalAnswer ─review:updated─► the parent's card
//
// Invariants: a review's id is its child session's id; a session's `parentId` names the session it
// reviews, in the same namespace; a refused start stores nothing.
import { z } from 'zod';
import { PromptIdSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { MAX_PROMPT_CHARS } from './limits.ts';
import { AgentKindSchema, LaunchKindSchema } from './agent-terms.ts';
import type { AckError } from './protocol.ts';

/** A person's focus for the reviewer ("look at the error handling"): a few paragraphs at most. */
export const MAX_REVIEW_FOCUS_CHARS = 4_000;
/** How deep reviews nest: a session may be reviewed, and that review too; a review of a review of a
 *  review is refused (each level is another agent process on the machine). */
export const MAX_REVIEW_DEPTH = 2;
/** The diff in a first prompt: past this it is cut at a file boundary (or inside a file) with a note. */
export const MAX_REVIEW_DIFF_CHARS = 80_000;
/** The final answer kept on the card (the reviewer's whole answer is in its own chat). */
export const MAX_REVIEW_ANSWER_CHARS = 64_000;

/** starting: its session is being started · reviewing: it works on a prompt · answered: idle with an
 *  answer · ended / failed: its session is over (the card turns read-only). */
export const ReviewStateSchema = z.enum(['starting', 'reviewing', 'answered', 'ended', 'failed']);
export type ReviewState = z.infer<typeof ReviewStateSchema>;
export const REVIEW_FINAL_STATES: readonly ReviewState[] = ['ended', 'failed'];

export const ReviewSchema = z.object({
  /** The reviewer's session id. */
  id: SessionIdSchema,
  /** The session it reviews. */
  parentId: SessionIdSchema,
  /** The reviewer's agent. */
  agent: AgentKindSchema,
  state: ReviewStateSchema,
  focus: z.string().max(MAX_REVIEW_FOCUS_CHARS),
  /** The reviewer's last answer (its last assistant text after a turn), null before one. */
  finalAnswer: z.string().max(MAX_REVIEW_ANSWER_CHARS).nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Review = z.infer<typeof ReviewSchema>;

/** Web / CLI → hub: review this session's changes with `agent` (one the session's machine has; when
 *  left out, the hub picks the first of the machine's reviewer-capable agents other than the
 *  session's own, else its own). */
export const ReviewStartSchema = z.object({
  sessionId: SessionIdSchema,
  agent: AgentKindSchema.optional(),
  focus: z.string().max(MAX_REVIEW_FOCUS_CHARS, `a focus is at most ${MAX_REVIEW_FOCUS_CHARS} characters`).default(''),
  launchKind: LaunchKindSchema.default('headless'),
  /** "Send on": another review of this same session whose final answer the new reviewer checks (its
   *  findings go into the first prompt, after the diff). It must have answered. */
  checks: SessionIdSchema.optional(),
});
export type ReviewStart = z.input<typeof ReviewStartSchema>;

const ReviewText = z.string().min(1).max(MAX_PROMPT_CHARS).refine((text) => text.trim() !== '', 'the text is empty');

/** "Send to <parent's agent>": the findings (as the person edited them) queued as a prompt in the parent. */
export const ReviewSendSchema = z.object({ reviewId: SessionIdSchema, promptId: PromptIdSchema, text: ReviewText });
/** "Ask again": a follow-up prompt to the reviewer. */
export const ReviewAskSchema = z.object({ reviewId: SessionIdSchema, promptId: PromptIdSchema, text: ReviewText });
/** "End": the reviewer's session is stopped; the card stays, read-only. */
export const ReviewEndSchema = z.object({ reviewId: SessionIdSchema });
/** The reviews of a session (its cards), newest last. */
export const ReviewListSchema = z.object({ sessionId: SessionIdSchema });

/** What becomes of a session's live reviews when the session is ended or archived (issue 29):
 *  `end` ends them too; `keep` leaves them running on their own, still linked to it (their cards
 *  stay on its chat). Asked only when it has live reviews; without it the hub refuses and names them. */
export const LiveReviewsChoiceSchema = z.enum(['end', 'keep']);
export type LiveReviewsChoice = z.infer<typeof LiveReviewsChoiceSchema>;

/** A live review as a refusal names it: enough for a person to tell them apart. */
export type LiveReviewRef = Pick<Review, 'id' | 'agent' | 'state' | 'focus'>;
/** End or Archive of a session with live reviews and no choice: `conflict`, reason `reviews_live`,
 *  and the reviews (the web asks its question from them, the CLI lists them). */
export type LiveReviewsRefusal = AckError & { reason: 'reviews_live'; reviews: LiveReviewRef[] };
