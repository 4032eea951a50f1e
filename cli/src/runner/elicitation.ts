// elicitation.ts: an MCP server asking the person for input, forwarded to the hub as an
// `elicitation` request. First answer wins, as for approvals.
//
//   claude ──Elicitation (HTTP hook)──► ask() ──approval:request (kind elicitation)──► hub
//   first of:  hub approval:answered ─► hook output {action, content}: claude relays it to the server
//              the desk pressed Esc (claude interrupts the tool call and records it as rejected in
//                  the transcript; it keeps the hook's request open) or claude dropped the request
//                  ─► approval:desk-answer (answer null): every phone clears
//              claude exited ─► approval:withdraw
//
// claude (2.1.197 and 2.1.330, observed) runs the hook before it draws its own form: while the
// phone is asked, the desk sees "running Elicitation hook" and answers by Esc. Invariant: nothing is
// answered on the user's behalf. When the hub cannot take the request, or the payload cannot be
// shown as a form, or a hub answer does not fit the schema, ask() returns `{}`: claude then draws
// its own form at the desk.
import { hostname } from 'node:os';
import { elicitationAnswerOf, elicitationAnswerProblem, type Answer, type ElicitationInput, type PendingRequest } from '@tether/shared';
import { elicitationOutput, parseElicitationPayload } from '../hooks/elicitation.ts';
import type { HubLink } from '../hub-link/link.ts';

/** claude drops the hook request both when the desk presses Esc and when it exits; an exit reaches
 *  stop() (the session finishing) within this long, so only a drop still unexplained by then is the
 *  desk's answer. */
const DROP_GRACE_MS = 1_000;

export type Elicitations = {
  /** The Elicitation hook: resolves with the hook output (`{}` leaves claude's own form). */
  ask(options: { payload: Record<string, unknown>; signal: AbortSignal }): Promise<Record<string, unknown>>;
  /** The transcript recorded a rejected tool call (Esc at the desk) while a request waits. */
  interrupted(): void;
  /** A hub answer; false when the request is not an elicitation of this runner. */
  answered(options: { requestId: string; answer: Answer }): boolean;
  /** The hub link came back: re-send what still waits. */
  reconnected(): void;
  /** claude exited: what still waits is withdrawn. */
  stop(): void;
};

type Outcome = { from: 'hub'; answer: Answer } | { from: 'dropped' } | { from: 'stopped' };
type Waiting = { request: PendingRequest; settle: (outcome: Outcome) => void };

export function createElicitations(options: {
  sessionId: () => string;
  link: () => HubLink | null;
  /** The session waits on a person for this request (true), or no longer (false). */
  onWaiting?: (waiting: boolean, requestId: string) => void;
  log?: (line: string) => void;
}): Elicitations {
  const waiting = new Map<string, Waiting>();
  const log = options.log ?? (() => {});
  const device = `desk@${hostname()}`.slice(0, 100);
  let stopped = false;
  let onStop: Array<() => void> = [];

  const send = async (link: HubLink, entry: Waiting): Promise<boolean> => {
    const ack = await link.request('approval:request', entry.request);
    return !!ack?.ok;
  };
  /** Resolves true once stop() ran, or false after `ms`. */
  const stoppedWithin = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (stopped) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      onStop.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });

  // The hub refuses an answer that does not fit (the same check); one from an older hub may still.
  const answerFor = (input: ElicitationInput, answer: Answer): Record<string, unknown> | null => {
    const elicitation = elicitationAnswerOf(answer);
    if (elicitation.action !== 'accept') return elicitationOutput(elicitation);
    const problem = elicitationAnswerProblem(input, answer);
    if (problem) {
      log(`elicitation: ${problem}; claude's own form decides`);
      return null;
    }
    return elicitationOutput({ action: 'accept', content: elicitation.content ?? {} });
  };

  return {
    ask: async ({ payload, signal }) => {
      const parsed = parseElicitationPayload(payload);
      if (parsed.kind === 'unsupported') {
        log(`elicitation not forwarded: ${parsed.reason}; claude's own form decides`);
        return {};
      }
      const link = options.link();
      if (!link || stopped) return {};
      const { input } = parsed;
      let settle!: (outcome: Outcome) => void;
      const settled = new Promise<Outcome>((resolve) => {
        let done = false;
        settle = (outcome) => {
          if (done) return;
          done = true;
          resolve(outcome);
        };
      });
      const entry: Waiting = {
        request: { id: crypto.randomUUID(), sessionId: options.sessionId(), kind: 'elicitation', toolName: input.serverName, toolInput: input, toolUseId: null, createdAt: Date.now() },
        settle,
      };
      waiting.set(entry.request.id, entry);
      log(`elicitation ${entry.request.id} from ${input.serverName}: asking the hub`);
      const onDrop = () => settle({ from: 'dropped' });
      if (signal.aborted) onDrop();
      signal.addEventListener('abort', onDrop);
      options.onWaiting?.(true, entry.request.id);
      try {
        if (!(await send(link, entry))) {
          log(`elicitation from ${input.serverName}: the hub did not take it; claude's own form decides`);
          return {};
        }
        let outcome = await settled;
        if (outcome.from === 'dropped' && (await stoppedWithin(DROP_GRACE_MS))) outcome = { from: 'stopped' };
        const { request } = entry;
        switch (outcome.from) {
          case 'hub':
            log(`elicitation ${request.id} (${input.serverName}): answered on the hub: ${outcome.answer.elicitation?.action ?? outcome.answer.decision}`);
            return answerFor(input, outcome.answer) ?? {};
          case 'dropped': {
            // Esc at the desk interrupted the call (or claude gave up the hook): clear every phone.
            log(`elicitation ${request.id}: answered at the desk (the call was interrupted)`);
            const ack = await link.request('approval:desk-answer', { sessionId: options.sessionId(), requestId: request.id, answer: null, device });
            if (ack?.ok && !ack.won) log(`elicitation ${request.id}: ${ack.resolution.answeredBy ?? 'the hub'} answered first, but claude no longer listens`);
            return {};
          }
          case 'stopped':
            void link.request('approval:withdraw', { sessionId: options.sessionId(), requestId: request.id, reason: 'claude stopped waiting' });
            return {};
          default: {
            const never: never = outcome;
            return never;
          }
        }
      } finally {
        signal.removeEventListener('abort', onDrop);
        waiting.delete(entry.request.id);
        options.onWaiting?.(false, entry.request.id);
      }
    },

    interrupted: () => {
      for (const entry of waiting.values()) entry.settle({ from: 'dropped' });
    },

    answered: ({ requestId, answer }) => {
      const entry = waiting.get(requestId);
      if (!entry) return false;
      entry.settle({ from: 'hub', answer });
      return true;
    },

    reconnected: () => {
      const link = options.link();
      if (!link) return;
      for (const entry of [...waiting.values()]) void send(link, entry);
    },

    stop: () => {
      stopped = true;
      for (const fn of onStop) fn();
      onStop = [];
      for (const entry of waiting.values()) entry.settle({ from: 'stopped' });
    },
  };
}
