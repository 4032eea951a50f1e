// status.ts: a session's status, derived in one place from what is known about it (turn events,
// requests to a person that are open, readiness, the end) instead of written by every part that
// sees something. The parts publish facts; the status is a function of them, so no part restores
// a "previous" status and no ordering of answers, aborts and turn ends can leave a stale one.
// Requests to a person are the request registry's to publish (statusFollowsRequests): no owner of a
// request tells the status about it.
import type { SessionStatus } from '@tether/shared';
import type { RequestRegistry } from '../requests/registry.ts';

/** What a part of the runner saw. Request ids are the part's own (prefixed by who asks). */
export type StatusFact =
  /** The agent is up and can take a prompt (its prompt drawn, its thread open, initialize answered). */
  | { kind: 'ready' }
  /** A turn began (a prompt submitted or sent, the agent says it is busy). */
  | { kind: 'turnStarted' }
  /** A turn is over (Stop, a result, the transcript's end or interrupt, the agent says idle, a refused turn). */
  | { kind: 'turnEnded' }
  /** tether asks a person something on the session's behalf (approval, question, form, dialog). */
  | { kind: 'requestOpened'; id: string }
  /** That request was answered (phone or desk), withdrawn, or dropped by the agent. */
  | { kind: 'requestClosed'; id: string }
  /** The agent itself says it needs a person, with no request of tether's behind it (a notification,
   *  its status file): over at a new turn, the turn's end, a tool finishing, or any answer. */
  | { kind: 'agentWaiting' }
  /** The agent went on after its own wait (a tool finished). */
  | { kind: 'agentResumed' }
  /** The session is over: ended, or failed (before it was ready, or as the runner judged its exit). */
  | { kind: 'exited'; failed: boolean };

export type StatusModel = {
  ready: boolean;
  turn: boolean;
  open: ReadonlySet<string>;
  agentWaiting: boolean;
  final: 'ended' | 'failed' | null;
};

export const initialStatusModel: StatusModel = { ready: false, turn: false, open: new Set(), agentWaiting: false, final: null };

/** The facts so far, with one more. Pure: the model given is not changed. A final state sticks. */
export function reduceStatus(model: StatusModel, fact: StatusFact): StatusModel {
  if (model.final) return model;
  switch (fact.kind) {
    case 'ready':
      return { ...model, ready: true };
    case 'turnStarted':
      // A new turn: whatever the agent waited on before is over.
      return { ...model, turn: true, agentWaiting: false };
    case 'turnEnded':
      // Requests of tether's stay open until they are answered or withdrawn; the agent's own wait
      // belonged to the turn.
      return { ...model, turn: false, agentWaiting: false };
    case 'requestOpened':
      return { ...model, open: new Set(model.open).add(fact.id) };
    case 'requestClosed': {
      if (!model.open.has(fact.id)) return model;
      const open = new Set(model.open);
      open.delete(fact.id);
      // The agent's own "needs you" was about what was just answered (or is stale: it says so again).
      return { ...model, open, agentWaiting: false };
    }
    case 'agentWaiting':
      return { ...model, agentWaiting: true };
    case 'agentResumed':
      return { ...model, agentWaiting: false };
    case 'exited':
      return { ...model, final: fact.failed ? 'failed' : 'ended' };
    default: {
      const never: never = fact;
      return never;
    }
  }
}

/** waiting while any request is open, else thinking while a turn runs, else idle once ready. */
export function deriveStatus(model: StatusModel): SessionStatus {
  if (model.final) return model.final;
  if (model.open.size > 0 || model.agentWaiting) return 'waiting';
  if (model.turn) return 'thinking';
  return model.ready ? 'idle' : 'starting';
}

export type StatusTracker = ReturnType<typeof createStatusTracker>;

/** The reducer with its state: `onChange` hears each derived status that differs from the last. */
export function createStatusTracker(o: { onChange: (next: SessionStatus, before: SessionStatus) => void; now?: () => number }) {
  let model = initialStatusModel;
  let status = deriveStatus(model);
  let turnEndedAt = 0;
  return {
    publish(fact: StatusFact) {
      const turnBefore = model.turn;
      model = reduceStatus(model, fact);
      if (turnBefore && !model.turn) turnEndedAt = (o.now ?? Date.now)();
      const next = deriveStatus(model);
      if (next === status) return;
      const before = status;
      status = next;
      o.onChange(next, before);
    },
    status: () => status,
    turnRunning: () => model.turn,
    /** When the last turn ended (ms since the epoch; 0: none yet). */
    turnEndedAt: () => turnEndedAt,
  };
}

/** The session waits while a request to a person is open: the registry's opened/closed become
 *  facts. Each is published on the next turn of the event loop: a status is an outbox entry
 *  (a SQLite commit; its fsync is off the loop, hub-link/wal-sync.ts), so it is written just after the request has left for the hub, and the
 *  "thinking" after the answer has left for the agent; neither delays the round trip
 *  (bench/approvals: tether's share). */
export function statusFollowsRequests(o: { requests: Pick<RequestRegistry, 'subscribe'>; status: Pick<StatusTracker, 'publish'> }): () => void {
  return o.requests.subscribe(({ kind, key }) => {
    setImmediate(() => o.status.publish({ kind: kind === 'opened' ? 'requestOpened' : 'requestClosed', id: key }));
  });
}
