// rules.ts: the rules about records that the store applies when it writes them, kept here once
// (they were in each store's SQL). What must be atomic stays a single conditional statement in
// queries/ (first answer wins: UPDATE … WHERE resolved_at IS NULL, in queries/approvals.ts).
import { FINAL_STATUSES, type PromptStatus, type SessionStatus } from '@tether/shared';

/** How long a request waited for its answer; never negative (two hubs' clocks may disagree). */
export function waitedMs(options: { createdAt: number; at: number }): number {
  return Math.max(0, options.at - options.createdAt);
}

/** Prompts that never reached claude: dropped when their session ends, since they will not now. */
export const UNSENT_PROMPT_STATUSES: readonly PromptStatus[] = ['queued', 'waiting_for_desk', 'typing'];
export const DROPPED_ON_END = { status: 'dropped', reason: 'session ended' } as const satisfies { status: PromptStatus; reason: string };

/** A live session is never archived (a request it raises must never be out of sight): only a session
 *  in one of these statuses may be, and one that registers or reports a live status again (resumed)
 *  loses its archived mark in the same statement (queries/sessions.ts). Pinned and archived exclude
 *  each other: setting one clears the other. */
export const ARCHIVABLE_STATUSES: readonly SessionStatus[] = FINAL_STATUSES;
