// history.ts: a worktree removed from the phone lands in the session's history, like a git write
// from the phone (git-actions/): who (the caller's token label), which device, what was removed and
// what that lost (uncommitted files, unpushed commits, ignored files; the rebuildable folders named). A request of tool GIT_HISTORY_TOOL that was never pending, answered at once.
import { randomUUID } from 'node:crypto';
import { GIT_HISTORY_TOOL, type Namespace, type SessionWorktree, type WorktreeLoss } from '@tether/shared';
import type { FactBus } from '../facts/facts.ts';
import type { Store } from '../store/store.ts';

export type WorktreeActor = { label: string; device: string | null };

export async function recordRemoval(options: {
  store: Pick<Store, 'addRequest' | 'resolveRequest'>;
  facts: Pick<FactBus, 'publish'>;
  namespace: Namespace;
  sessionId: string;
  actor: WorktreeActor;
  worktree: SessionWorktree;
  lost: WorktreeLoss;
}): Promise<void> {
  const { store, namespace, sessionId, worktree, lost } = options;
  const id = randomUUID();
  const now = Date.now();
  const ignored = lost.ignored.length + lost.ignoredMore;
  const toolInput = {
    action: 'remove-worktree',
    path: worktree.path,
    branch: worktree.branch,
    uncommitted: lost.uncommitted.slice(0, 50),
    unpushed: lost.unpushed.slice(0, 50),
    ignored: lost.ignored.slice(0, 50).map((e) => e.path),
    rebuildable: lost.rebuildable.slice(0, 50).map((e) => e.path),
  };
  const added = await store.addRequest({ namespace, request: { id, sessionId, kind: 'permission', toolName: GIT_HISTORY_TOOL, toolInput, toolUseId: null, createdAt: now } });
  if (added.kind !== 'added') return;
  const loss = lost.uncommitted.length + lost.unpushed.length + ignored;
  // What was lost first: the activity panel shows the first 72 characters.
  const losing = `${lost.uncommitted.length} uncommitted file(s), ${lost.unpushed.length} unpushed commit(s) and ${ignored} ignored file(s) or folder(s)`;
  const summary = `Removed the worktree of ${worktree.branch}${loss ? `, losing ${losing}` : ', nothing lost'} (${worktree.path}; the branch is kept)`;
  const resolved = await store.resolveRequest({
    namespace,
    requestId: id,
    sessionId,
    outcome: 'answered',
    answer: { decision: 'allow', reason: summary.slice(0, 4000) },
    answeredBy: options.actor.label,
    device: options.actor.device,
    at: now,
  });
  if (resolved.kind === 'resolved') options.facts.publish('approval.resolved', { namespace, resolution: resolved.resolution });
}
