// session-status.ts: status questions the list and the header ask, without importing zod at runtime.
import type { SessionStatus } from '@tether/shared';

/** Same set as shared FINAL_STATUSES (a literal here keeps the schemas out of the first-load bundle). */
export function isFinalStatusName(status: SessionStatus): boolean {
  return status === 'ended' || status === 'failed';
}
