// registry.ts: every request a session puts to a person (an approval, a question, a plan, an MCP
// form, a dialog on the agent's screen) in one place: one id → owner map the hub's answers are routed
// through, one send (a request the hub withdrew while the runner was away is asked again under a new
// id), one re-send when the link comes back, one withdraw and one "the desk answered it". What a
// request means to the agent, and what the answer becomes, stays with its owner (approvals.ts,
// elicitation.ts, dialogs/bridge.ts).
//
//   owner ─open(request, onAnswer)─► registry ─approval:request─► hub
//   hub approval:answered ─► registry.answered ─(its id)─► that request's onAnswer
//   link back ─► registry.reconnected ─► every open request sent again
//   the hub took it / it no longer waits ─► every listener (subscribe): opened / closed
//
// A request is "opened" for its listeners once the hub took it (a person can answer it now) and
// "closed" when it stops waiting, each once, under a key that stays when the hub's id changes; one
// the hub never took was never opened. The session's status listens (session/core.ts): no owner tells
// the status about its requests.
import { hostname } from 'node:os';
import type { Ack, Answer, CliAcks, PendingRequest } from '@tether/shared';
import type { HubLink } from '../../hub-link/link.ts';

/** One open request, as its owner holds it: its id may change (re-asked after the hub withdrew it). */
export type RequestHandle = {
  /** The request as the hub has it now. */
  readonly request: PendingRequest;
  /** Sends it (again); true once the hub took it. */
  send(): Promise<boolean>;
  /** No longer routed answers; the hub is told nothing (it answered, or the owner said it already). */
  close(): void;
  /** Closed, and the hub told why nobody needs to answer it any more. */
  withdraw(reason: string): void;
  /** Closed, and the hub told the desk answered it (in the agent's own UI): every phone clears. */
  answeredAtDesk(): Promise<Ack<CliAcks['approval:desk-answer']> | null>;
};

export type RequestRegistry = {
  /** Registers before anything is sent, so an answer that overtakes the send's ack is routed. */
  open(o: { request: PendingRequest; onAnswer: (answer: Answer) => void; resend?: boolean }): RequestHandle;
  /** A hub answer: false when no request of this session has that id. */
  answered(o: { requestId: string; answer: Answer }): boolean;
  /** The hub link came back: every open request is sent again (the hub may have withdrawn it). */
  reconnected(): void;
  /** How many are open (a request waits for a person). */
  size(): number;
  /** Hears each request the hub took (opened) and each of those that stopped waiting (closed). */
  subscribe(listener: (change: RequestChange) => void): () => void;
};

/** A request to a person began or stopped waiting; `key` is the registry's own, the same for both. */
export type RequestChange = { kind: 'opened' | 'closed'; key: string };

type Entry = { request: PendingRequest; onAnswer: (answer: Answer) => void; resend: boolean; key: string; announced: boolean };

export function createRequestRegistry(o: { sessionId: () => string; link: () => HubLink | null }): RequestRegistry {
  const open = new Map<string, Entry>();
  const device = `desk@${hostname()}`.slice(0, 100);
  const listeners = new Set<(change: RequestChange) => void>();
  let opened = 0;
  const tell = (change: RequestChange) => {
    for (const listener of [...listeners]) listener(change);
  };
  const isOpen = (entry: Entry) => open.get(entry.request.id) === entry;
  /** The hub took it: opened for the listeners, once, unless it was closed meanwhile (an answer can
   *  overtake the send's ack). */
  const taken = (entry: Entry): true => {
    if (!entry.announced && isOpen(entry)) {
      entry.announced = true;
      tell({ kind: 'opened', key: entry.key });
    }
    return true;
  };

  const send = async (entry: Entry): Promise<boolean> => {
    const link = o.link();
    if (!link) return false;
    const ack = await link.request('approval:request', entry.request);
    if (ack && !ack.ok && ack.code === 'gone' && isOpen(entry)) {
      open.delete(entry.request.id);
      entry.request = { ...entry.request, id: crypto.randomUUID() };
      open.set(entry.request.id, entry);
      const again = await link.request('approval:request', entry.request);
      return !!again?.ok && taken(entry);
    }
    return !!ack?.ok && taken(entry);
  };

  return {
    open({ request, onAnswer, resend = true }) {
      const entry: Entry = { request, onAnswer, resend, key: `request:${++opened}`, announced: false };
      open.set(request.id, entry);
      const close = () => {
        if (!isOpen(entry)) return;
        open.delete(entry.request.id);
        if (entry.announced) tell({ kind: 'closed', key: entry.key });
      };
      return {
        get request() {
          return entry.request;
        },
        send: () => send(entry),
        close,
        withdraw(reason) {
          close();
          void o.link()?.request('approval:withdraw', { sessionId: o.sessionId(), requestId: entry.request.id, reason });
        },
        answeredAtDesk() {
          close();
          return o.link()?.request('approval:desk-answer', { sessionId: o.sessionId(), requestId: entry.request.id, answer: null, device }) ?? Promise.resolve(null);
        },
      };
    },
    answered({ requestId, answer }) {
      const entry = open.get(requestId);
      if (!entry) return false;
      entry.onAnswer(answer);
      return true;
    },
    reconnected() {
      for (const entry of [...open.values()]) if (entry.resend) void send(entry);
    },
    size: () => open.size,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
