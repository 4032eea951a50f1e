// git-actions.ts: a person's git writes in a session's folder (stage, unstage, commit, push, pull
// request) and the state they are drawn from, asked of the session's runner and recorded in the
// session's history. The workspace room reads; this one forwards writes, so its invariants are apart.
//
//   REST (http/routes/git-actions.ts) ─► here: the caller's session? live? mid-turn? ─► runner
//   (RunnerCommands.ask 'git:action') ─► answer checked (GitAnswerSchema) ─► history row ─► ack
//
// Invariants: another namespace's session is `not_found`; an ended one is `gone`; a write while the
// agent is thinking or waiting on a person is refused unless the request confirms; the hub never
// sees a credential (git and gh use the machine's own); every write that was done is recorded with
// who (the caller's token label), which device and what (commit sha, branch), in the same audit the
// approval history reads, as an answered request of tool GIT_HISTORY_TOOL that was never pending.
import { randomUUID } from 'node:crypto';
import {
  ackError,
  GIT_HISTORY_TOOL,
  GIT_MID_TURN_REFUSAL,
  GitAnswerSchema,
  isFinalStatus,
  type Ack,
  type GitAnswer,
  type GitDone,
  type GitWrite,
  type Namespace,
  type Session,
} from '@tether/shared';
import type { FactBus } from '../facts/facts.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import { askRunner } from '../facts/ask-runner.ts';
import type { Store } from '../store/store.ts';

/** The state: git status and `gh auth status` (capped at 8 s on the runner). */
export const GIT_STATE_TIMEOUT_MS = 20_000;
/** A write: a push or `gh pr create` talks to a remote (the runner caps them at 45 s and 40 s). */
export const GIT_WRITE_TIMEOUT_MS = 60_000;

export type GitActions = ReturnType<typeof createGitActions>;
export type GitActor = { namespace: Namespace; label: string; device: string | null };

export function createGitActions(options: {
  sessionOf: (ns: Namespace, sessionId: string) => Promise<Session | null>;
  runners: RunnerCommands;
  store: Pick<Store, 'addRequest' | 'resolveRequest'>;
  facts: Pick<FactBus, 'publish'>;
}) {
  const live = async (ns: Namespace, sessionId: string): Promise<Session | ReturnType<typeof ackError>> => {
    const session = await options.sessionOf(ns, sessionId);
    if (!session) return ackError('not_found', 'no such session');
    if (isFinalStatus(session.status)) return ackError('gone', "the session has ended: git runs through its runner, which has exited");
    return session;
  };
  const ask = (ns: Namespace, sessionId: string, query: { action: 'state' } | GitWrite, timeoutMs: number): Promise<Ack<GitAnswer>> =>
    askRunner({ runners: options.runners, ns, sessionId, event: 'git:action', payload: { sessionId, ...query }, timeoutMs, schema: GitAnswerSchema, asked: 'git actions' });

  return {
    async state(ns: Namespace, sessionId: string): Promise<Ack<GitAnswer>> {
      const session = await live(ns, sessionId);
      if ('ok' in session) return session;
      return ask(ns, sessionId, { action: 'state' }, GIT_STATE_TIMEOUT_MS);
    },

    async write(actor: GitActor, input: { sessionId: string; request: GitWrite; confirm: boolean }): Promise<Ack<GitDone>> {
      const { namespace: ns } = actor;
      const session = await live(ns, input.sessionId);
      if ('ok' in session) return session;
      if ((session.status === 'thinking' || session.status === 'waiting') && !input.confirm) return ackError('conflict', GIT_MID_TURN_REFUSAL);
      const answer = await ask(ns, input.sessionId, input.request, GIT_WRITE_TIMEOUT_MS);
      if (!answer.ok) return answer;
      if (answer.kind !== 'done' || answer.action !== input.request.action) return ackError('internal', "the session's runner answered another question than the one asked");
      await record(options, actor, input.sessionId, input.request, answer, input.confirm && session.status !== 'idle');
      return answer;
    },
  };
}

/** One history row: a request that was never pending, answered at once by the person who acted. */
async function record(
  options: { store: Pick<Store, 'addRequest' | 'resolveRequest'>; facts: Pick<FactBus, 'publish'> },
  actor: GitActor,
  sessionId: string,
  request: GitWrite,
  done: GitDone,
  midTurn: boolean,
) {
  const id = randomUUID();
  const now = Date.now();
  const input = {
    action: request.action,
    branch: done.branch,
    sha: done.sha,
    ...(request.action === 'commit' ? { message: request.message.slice(0, 2000) } : {}),
    ...(request.action === 'stage' || request.action === 'unstage' ? { paths: request.paths.slice(0, 50) } : {}),
    ...(done.url ? { url: done.url } : {}),
    ...(midTurn ? { midTurn: true } : {}),
  };
  const added = await options.store.addRequest({ namespace: actor.namespace, request: { id, sessionId, kind: 'permission', toolName: GIT_HISTORY_TOOL, toolInput: input, toolUseId: null, createdAt: now } });
  if (added.kind !== 'added') return;
  const resolved = await options.store.resolveRequest({
    namespace: actor.namespace,
    requestId: id,
    sessionId,
    outcome: 'answered',
    answer: { decision: 'allow', reason: done.summary.slice(0, 4000) },
    answeredBy: actor.label,
    device: actor.device,
    at: now,
  });
  if (resolved.kind === 'resolved') options.facts.publish('approval.resolved', { namespace: actor.namespace, resolution: resolved.resolution });
}
