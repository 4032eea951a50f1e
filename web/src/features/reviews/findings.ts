// findings.ts: how a review's findings read when they are sent to another agent: "Send to" the
// reviewed session (its author: "your changes"), "Send on" to another reviewer ("these changes").
import type { Review } from '@tether/shared';

export function findingsText(review: Review, reviewer: string, to: 'author' | 'reviewer' = 'author'): string {
  return `A ${reviewer} review of ${to === 'author' ? 'your' : 'these'} changes says:\n\n${review.finalAnswer ?? ''}`.trim();
}
