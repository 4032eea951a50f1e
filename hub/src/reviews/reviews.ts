// reviews.ts: a second opinion from another agent (shared reviews.ts, issue 29). Start: checks, the
// reviewed session's diff, a read-only child session on its machine and folder through the daemon,
// the review stored, the first prompt queued. Then the person's buttons on the parent's card: send
// the findings to the parent, ask the reviewer again, end it. follow.ts keeps each card's state and
// final answer from the reviewer's session.
//
//   review:start ─► checks (nothing stored on refusal) ─► workspace changes (the Changes view's diff)
//   ─► remote.spawn {readOnly} ─► store.addReview (child.parentId) ─► review.updated ─► prompt queued
//
// Invariants: every lookup is in the caller's namespace (another's session is `not_found`, like a
// missing one); a reviewer is only started through a daemon whose agent states `readOnly`
// (capabilities), never by its name; a review nests at most MAX_REVIEW_DEPTH deep.
import {
  ackError,
  agentDisplayName,
  isFinalStatus,
  MAX_REVIEW_DEPTH,
  spawnError,
  type Ack,
  type LaunchKind,
  type Namespace,
  type Review,
  type Session,
  type WebAcks,
  type WorkspaceAnswer,
} from '@tether/shared';
import type { z } from 'zod';
import type { ReviewAskSchema, ReviewEndSchema, ReviewSendSchema, ReviewStartSchema } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { Machines } from '../machines/machines.ts';
import type { RemoteSessions } from '../machines/remote-sessions.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { collectDiff, reviewPrompt, type FindingsToCheck } from './first-prompt.ts';
import type { ReviewFollower } from './follow.ts';
import { createParentEnds } from './parent-end.ts';

const NO_SESSION = 'no such session';
const NO_REVIEW = 'no such review';

type Deps = { store: Store; facts: FactBus; sessions: Pick<Sessions, 'get' | 'queuePrompt' | 'archive'>; machines: Pick<Machines, 'find'>; remote: Pick<RemoteSessions, 'spawn' | 'stop'>; workspace: Pick<Workspace, 'query'>; follower: ReviewFollower };
export type Reviews = ReturnType<typeof createReviews>;

/** How many reviews up the session sits (0: it reviews nothing); a broken chain counts as deep. */
async function depthOf(o: { store: Store; ns: Namespace; session: Session }): Promise<number> {
  let depth = 0;
  let current: Session | null = o.session;
  while (current?.parentId) {
    depth += 1;
    if (depth > MAX_REVIEW_DEPTH) return depth;
    current = await o.store.getSession({ namespace: o.ns, sessionId: current.parentId });
  }
  return depth;
}

/** The reviewer's agent, or why a review of `parent` cannot start (nothing is started or stored
 *  before this says yes). No agent asked: the machine's first reviewer-capable one that is not the
 *  parent's, else the parent's own. */
async function reviewerFor(deps: Deps, ns: Namespace, parent: Session, request: { agent: Session['agent'] | undefined; launchKind: LaunchKind }): Promise<Ack<never> | { agent: Session['agent'] }> {
  const asked = request.agent;
  if (isFinalStatus(parent.status)) return ackError('gone', 'the session has ended: a review reads its changes through its running session; resume it first');
  if ((await depthOf({ store: deps.store, ns, session: parent })) + 1 > MAX_REVIEW_DEPTH) {
    return ackError('bad_request', `reviews nest at most ${MAX_REVIEW_DEPTH} deep: this session is already a review of a review`);
  }
  if (!parent.machineId) return spawnError('conflict', 'machine_unknown', 'this session names no machine: a review starts through the daemon of the machine it runs on');
  const machine = await deps.machines.find(ns, parent.machineId);
  if (!machine) return spawnError('not_found', 'machine_unknown', "the session's machine is not known to this hub: start tether daemon there");
  const readOnlyHere = (a: Session['agent']) => machine.capabilities[a]?.readOnly === true && (machine.capabilities[a]?.readOnlyIn ?? [request.launchKind]).includes(request.launchKind);
  const capable = machine.agents.filter(readOnlyHere);
  const agent = asked ?? capable.find((a) => a !== parent.agent) ?? capable[0] ?? parent.agent;
  if (!machine.agents.includes(agent)) return spawnError('bad_request', 'agent_missing', `machine "${machine.name}" has no ${agent} (it has: ${machine.agents.join(', ') || 'none'})`);
  const capabilities = machine.capabilities[agent];
  if (capabilities?.readOnly !== true) {
    return spawnError('bad_request', 'agent_missing', `tether on "${machine.name}" cannot start ${capabilities?.displayName ?? agent} read-only (a reviewer): update tether there`);
  }
  if (!readOnlyHere(agent)) {
    return spawnError('bad_request', 'agent_missing', `${capabilities.displayName} reviews ${(capabilities.readOnlyIn ?? []).join(' or ')} only (read-only there in its own terms), not in a ${request.launchKind === 'pty' ? 'PTY' : request.launchKind} session`);
  }
  return { agent };
}

/** "Send on": the findings of another review of the same session, or why not (nothing started). */
async function findingsOf(store: Store, ns: Namespace, o: { reviewId: string; parentId: string }): Promise<Ack<never> | FindingsToCheck> {
  const other = await store.getReview({ namespace: ns, reviewId: o.reviewId });
  if (!other || other.parentId !== o.parentId) return ackError('not_found', 'no such review of this session to send on');
  if (!other.finalAnswer) return ackError('conflict', 'that review has not answered yet: there are no findings to send on');
  return { reviewer: agentDisplayName(other.agent), text: other.finalAnswer };
}

export function createReviews(deps: Deps) {
  const { store, facts, sessions } = deps;
  const publish = (ns: Namespace, review: Review) => facts.publish('review.updated', { namespace: ns, review });

  /** The review and its reviewer's session, in the caller's namespace. */
  const find = async (ns: Namespace, reviewId: string) => {
    const review = await store.getReview({ namespace: ns, reviewId });
    return review ? { review, child: await sessions.get(ns, reviewId) } : null;
  };

  /** A session in a worktree of its own is reviewed for its whole branch (the agent may have
   *  committed); any other for what is not committed yet. */
  const diffOf = (ns: Namespace, session: Session) =>
    collectDiff(async (cursor) => {
      const answer: Ack<WorkspaceAnswer> = await deps.workspace.query(ns, { kind: 'changes', sessionId: session.id, cursor }, { against: session.worktree?.base ? 'base' : 'head' });
      if (!answer.ok) return { error: answer.error };
      const { ok: _ok, ...page } = answer;
      return page.kind === 'changes' ? page : { error: 'the runner answered something else' };
    });

  const actions = {
    async start(ns: Namespace, request: z.output<typeof ReviewStartSchema>): Promise<Ack<WebAcks['review:start']>> {
      const parent = await sessions.get(ns, request.sessionId);
      if (!parent) return ackError('not_found', NO_SESSION);
      const reviewer = await reviewerFor(deps, ns, parent, { agent: request.agent, launchKind: request.launchKind });
      if ('ok' in reviewer) return reviewer;
      const { agent } = reviewer;
      const checks = request.checks ? await findingsOf(store, ns, { reviewId: request.checks, parentId: parent.id }) : undefined;
      if (checks && 'ok' in checks) return checks;
      const diff = await diffOf(ns, parent);
      const spawned = await deps.remote.spawn(
        ns,
        { machineId: parent.machineId!, cwd: parent.cwd, launchKind: request.launchKind, agent, createDir: false },
        { readOnly: true },
      );
      if (!spawned.ok) return spawned;
      const now = Date.now();
      const added = await store.addReview({
        namespace: ns,
        review: { id: spawned.session.id, parentId: parent.id, agent, state: 'reviewing', focus: request.focus, finalAnswer: null, createdAt: now, updatedAt: now },
      });
      if (added.kind === 'not_found') return ackError('not_found', NO_SESSION);
      publish(ns, added.review);
      const child = (await sessions.get(ns, spawned.session.id)) ?? spawned.session;
      facts.publish('session.updated', { namespace: ns, session: child });
      const queued = await sessions.queuePrompt(ns, { sessionId: child.id, promptId: crypto.randomUUID(), text: reviewPrompt({ title: parent.title, diff, focus: request.focus, checks }), attachments: [] });
      if (!queued.ok) return queued;
      return { ok: true, review: added.review, session: child };
    },
    /** "Send to <parent's agent>": the findings as a prompt in the reviewed session. */
    async send(ns: Namespace, request: z.output<typeof ReviewSendSchema>): Promise<Ack<WebAcks['review:send']>> {
      const found = await find(ns, request.reviewId);
      if (!found) return ackError('not_found', NO_REVIEW);
      return sessions.queuePrompt(ns, { sessionId: found.review.parentId, promptId: request.promptId, text: request.text, attachments: [] });
    },
    /** "Ask again": a follow-up to the same reviewer. */
    async ask(ns: Namespace, request: z.output<typeof ReviewAskSchema>): Promise<Ack<WebAcks['review:ask']>> {
      const found = await find(ns, request.reviewId);
      if (!found) return ackError('not_found', NO_REVIEW);
      if (!found.child || isFinalStatus(found.child.status)) return ackError('gone', 'the reviewer has ended: start another review');
      return sessions.queuePrompt(ns, { sessionId: found.review.id, promptId: request.promptId, text: request.text, attachments: [] });
    },
    /** "End": the reviewer's session stops; the card stays, read-only. */
    async end(ns: Namespace, request: z.output<typeof ReviewEndSchema>): Promise<Ack<WebAcks['review:end']>> {
      const found = await find(ns, request.reviewId);
      if (!found) return ackError('not_found', NO_REVIEW);
      if (found.child && !isFinalStatus(found.child.status)) {
        const stopped = await deps.remote.stop(ns, { sessionId: found.review.id });
        if (!stopped.ok) return stopped;
      }
      // The card as the ended session makes it, not as it was a moment before.
      const review = await deps.follower.settle(ns, request.reviewId);
      return review ? { ok: true, review } : ackError('not_found', NO_REVIEW);
    },
    async list(ns: Namespace, sessionId: string): Promise<Ack<WebAcks['review:list']>> {
      if (!(await sessions.get(ns, sessionId))) return ackError('not_found', NO_SESSION);
      return { ok: true, reviews: await store.listReviews({ namespace: ns, parentId: sessionId }) };
    },
  };
  // End and Archive of a session go through here: its live reviews are ended, kept or asked about.
  const parentEnds = createParentEnds({ store, sessions, remote: deps.remote, endReview: (ns, request) => actions.end(ns, request) });
  return { ...actions, stopSession: parentEnds.stop, archiveSession: parentEnds.archive };
}
