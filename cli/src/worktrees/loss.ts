// loss.ts: what removing a worktree would lose, as one digest and as one sentence (issue 38). The
// digest is what a person's confirmation repeats; removal looks again and removes only when the
// digest of what is there then is the same, so nothing is deleted that the person was not shown.
//
// Invariants: the digest covers every lost path git listed and every file found under them (not
// only the ones an answer lists), and none of the rebuildable folders (a build may change them and
// they need no confirmation); the same loss always gives the same digest (sorted, stable encoding).
import { createHash } from 'node:crypto';
import type { WorktreeLoss } from '@tether/shared';

export type LossFacts = { uncommitted: string[]; unpushed: string[]; lostPaths: string[]; lostFiles: string[]; partial: string[] };

/** SHA-256 (hex) of a loss: equal exactly when the same files and commits would be lost. */
export function lossDigest(facts: LossFacts): string {
  const sorted = (list: string[]) => [...list].sort();
  const encoded = JSON.stringify([sorted(facts.uncommitted), facts.unpushed, sorted(facts.lostPaths), sorted(facts.lostFiles), sorted(facts.partial)]);
  return createHash('sha256').update(encoded).digest('hex');
}

/** Whether removing loses anything that needs a person's yes (rebuildable folders alone do not). */
export function losesWork(loss: WorktreeLoss): boolean {
  return loss.uncommitted.length + loss.unpushed.length + loss.ignored.length + loss.ignoredMore > 0;
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** "2 uncommitted files (a.ts, b.ts), 1 commit no remote has (abc1234 fix) and 1 ignored file or
 *  folder (.env)": what a refusal names, a few of each. */
export function describeLoss(loss: WorktreeLoss): string {
  const ignoredCount = loss.ignored.length + loss.ignoredMore;
  const parts = [
    loss.uncommitted.length ? `${plural(loss.uncommitted.length, 'uncommitted file')} (${loss.uncommitted.slice(0, 5).join(', ')})` : '',
    loss.unpushed.length ? `${plural(loss.unpushed.length, 'commit')} no remote has (${loss.unpushed.slice(0, 3).join('; ')})` : '',
    ignoredCount ? `${ignoredCount} ignored ${ignoredCount === 1 ? 'file or folder' : 'files or folders'} (${loss.ignored.slice(0, 5).map((e) => e.path).join(', ')})` : '',
  ].filter(Boolean);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'nothing');
}
