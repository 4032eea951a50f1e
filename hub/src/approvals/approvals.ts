// approvals.ts: the approvals room's rules. A runner asks (PermissionRequest hook, a dialog, a form),
// any client answers, first answer wins (the store resolves in one transaction), and a runner that
// went away has its requests withdrawn. Every step publishes what it made true and answers with
// the ack its edge sends as is: the store's outcome is read once, here.
//
//   runner ─request─► store ─added─► approval.requested, session.updated
//   phone / notification ─answer─► store (first wins) ─► runner: approval:answered; approval.resolved, session.updated
//   desk ─desk answer─► store (first wins, else the desk learns the winner) ─► approval.resolved, session.updated
//
// Invariants: a request re-sent after a reconnect is a no-op while it waits, and gets its stored
// answer if it was answered meanwhile; a withdrawn request is never answered; nothing is answered
// on anyone's behalf (fail closed: an answer that fits no option of a dialog is refused).
import { ackError, DESK_ANSWERER, DIALOG_OUTCOME_REASON, type Ack, type Answer, type CliAcks, type Namespace, type PendingRequest, type Resolution } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import { announceSession } from '../sessions/announce.ts';
import { answerProblem } from './answer.ts';
import { watchRunnerGone, type RunnerGoneWatch } from './runner-gone.ts';

const NO_REQUEST = 'no such request';

export type Approvals = ReturnType<typeof createApprovals>;
/** A request's ack; `answered` is the answer the runner missed while it was away (deliver it now). */
export type RequestAck = Ack<{ answered?: Answer }>;

export type ApprovalQueries = ReturnType<typeof createApprovalQueries>;

export function createApprovalQueries(options: { store: Store }) {
  const { store } = options;
  return {
    /** Every request still waiting in the namespace, oldest first (`GET /api/pending`). */
    async pending(ns: Namespace): Promise<PendingRequest[]> {
      const pending: PendingRequest[] = [];
      // pendingCount comes from the same table, so only sessions with waiting requests are read.
      for (const session of await store.listSessions({ namespace: ns })) {
        if (session.pendingCount > 0) pending.push(...(await store.listPending({ namespace: ns, sessionId: session.id })));
      }
      return pending.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    },
  };
}

export function createApprovals(options: { store: Store; facts: FactBus; runners: RunnerCommands }) {
  const { store, facts } = options;
  const resolved = async (ns: Namespace, resolution: Resolution) => {
    facts.publish('approval.resolved', { namespace: ns, resolution });
    await announceSession({ store, facts, namespace: ns, sessionId: resolution.sessionId });
  };

  return {
    async request(ns: Namespace, request: PendingRequest): Promise<RequestAck> {
      const result = await store.addRequest({ namespace: ns, request });
      switch (result.kind) {
        case 'not_found':
          return ackError('not_found', 'no such session');
        case 'added':
          facts.publish('approval.requested', { namespace: ns, request: result.request });
          await announceSession({ store, facts, namespace: ns, sessionId: request.sessionId });
          return { ok: true };
        case 'pending':
          return { ok: true };
        case 'resolved':
          // Answered while the runner was away: hand it the answer. Withdrawn (the runner was gone
          // too long): it must ask again under a new id.
          return result.resolution.outcome === 'answered' && result.resolution.answer
            ? { ok: true, answered: result.resolution.answer }
            : ackError('gone', 'request was withdrawn');
        default: {
          const never: never = result;
          throw new Error(`unexpected result ${String(never)}`);
        }
      }
    },

    async withdraw(ns: Namespace, target: { sessionId: string; requestId: string }): Promise<Ack<CliAcks['approval:withdraw']>> {
      const result = await store.resolveRequest({ namespace: ns, ...target, outcome: 'withdrawn', answer: null, answeredBy: null, device: null, at: Date.now() });
      if (result.kind === 'not_found') return ackError('not_found', NO_REQUEST);
      if (result.kind === 'resolved') await resolved(ns, result.resolution);
      return { ok: true };
    },

    /** The desk answered a request of its own session (or took it to claude's dialog: `answer`
     *  null). First answer wins here too: when a client answered first, the desk learns that answer. */
    async deskAnswer(ns: Namespace, desk: { sessionId: string; requestId: string; answer: Answer | null; device: string | null }): Promise<Ack<CliAcks['approval:desk-answer']>> {
      const { sessionId, requestId, answer, device } = desk;
      const result = await store.resolveRequest({ namespace: ns, requestId, sessionId, outcome: 'answered', answer, answeredBy: DESK_ANSWERER, device, at: Date.now() });
      if (result.kind === 'not_found') return ackError('not_found', NO_REQUEST);
      if (result.kind === 'resolved') await resolved(ns, result.resolution);
      return { ok: true, won: result.kind === 'resolved', resolution: result.resolution };
    },

    /** What the person chose in claude's own dialog, for a request the desk took there. */
    async dialogOutcome(ns: Namespace, outcome: { sessionId: string; requestId: string; decision: Answer['decision'] }): Promise<Ack<CliAcks['approval:dialog-outcome']>> {
      const { sessionId, requestId, decision } = outcome;
      const resolution = await store.recordDialogOutcome({ namespace: ns, sessionId, requestId, answer: { decision, reason: DIALOG_OUTCOME_REASON } });
      if (!resolution) return ackError('not_found', "no request of this session was taken to claude's dialog under that id");
      facts.publish('approval.resolved', { namespace: ns, resolution });
      return { ok: true, resolution };
    },

    /** An answer from any client (a tab, `tether answer`, a notification's Allow/Deny). */
    async answer(ns: Namespace, input: { requestId: string; answer: Answer; answeredBy: string; device: string | null }): Promise<Ack<{ resolution: Resolution }>> {
      const { requestId, answer } = input;
      const problem = await answerProblem({ store, namespace: ns, requestId, answer });
      if (problem) return ackError('bad_request', problem);
      const result = await store.resolveRequest({ namespace: ns, requestId, outcome: 'answered', answer, answeredBy: input.answeredBy, device: input.device, at: Date.now() });
      if (result.kind === 'not_found') return ackError('not_found', NO_REQUEST);
      if (result.kind === 'already') return ackError('conflict', 'already answered');
      const sessionId = result.request.sessionId;
      options.runners.send(ns, sessionId, 'approval:answered', { sessionId, requestId, answer });
      await resolved(ns, result.resolution);
      if (answer.decision === 'allow') facts.publish('approval.allowed', { namespace: ns, request: result.request, answer });
      return { ok: true, resolution: result.resolution };
    },

    ...createApprovalQueries({ store }),

    /** A runner socket went away: what it left waiting is withdrawn if it does not come back. */
    runnerGone(watch: Omit<RunnerGoneWatch, 'store' | 'publish'>): void {
      watchRunnerGone({
        ...watch,
        store,
        publish: async ({ namespace, sessionId, withdrawn }) => {
          for (const resolution of withdrawn) facts.publish('approval.resolved', { namespace, resolution });
          await announceSession({ store, facts, namespace, sessionId });
        },
      });
    },
  };
}
