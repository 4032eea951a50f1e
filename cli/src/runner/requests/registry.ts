// registry.ts: every request a session puts to a person (an approval, a question, a plan, an MCP
// form, a dialog on the agent's screen) in one place: one id → owner map the hub's answers are routed
// through, one send (a request the hub withdrew while the runner was away is asked again under a new
// id), one re-send when the link comes back, one withdraw and one "the desk answered it". What a
// request means to the agent, and what the answer becomes, stays with its owner (approvals.ts,
// elicitation.ts, dialogs/relay.ts).
//
//   owner ─open(request, onAnswer)─► registry ─approval:request─► hub
//   hub approval:answered ─► registry.answered ─(its id)─► that request's onAnswer
//   link back ─► registry.reconnected ─► every open request sent again
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
};

type Entry = { request: PendingRequest; onAnswer: (answer: Answer) => void; resend: boolean };

export function createRequestRegistry(o: { sessionId: () => string; link: () => HubLink | null }): RequestRegistry {
  const open = new Map<string, Entry>();
  const device = `desk@${hostname()}`.slice(0, 100);

  const send = async (entry: Entry): Promise<boolean> => {
    const link = o.link();
    if (!link) return false;
    const ack = await link.request('approval:request', entry.request);
    if (ack && !ack.ok && ack.code === 'gone' && open.get(entry.request.id) === entry) {
      open.delete(entry.request.id);
      entry.request = { ...entry.request, id: crypto.randomUUID() };
      open.set(entry.request.id, entry);
      const again = await link.request('approval:request', entry.request);
      return !!again?.ok;
    }
    return !!ack?.ok;
  };

  return {
    open({ request, onAnswer, resend = true }) {
      const entry: Entry = { request, onAnswer, resend };
      open.set(request.id, entry);
      const close = () => {
        if (open.get(entry.request.id) === entry) open.delete(entry.request.id);
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
  };
}
