// elicitation.ts: an MCP server asking the person for input, forwarded to the hub as an
// `elicitation` request. First answer wins, as for approvals. Two agents' ways in, one request:
//
//   claude ──Elicitation (HTTP hook)──► ask() ─┐
//   a headless agent's own request ──► form() ─┴─approval:request (kind elicitation)──► hub
//   first of:  hub approval:answered ─► the form's answer {action, content} (claude: as hook output)
//              the desk answered first (claude: Esc interrupts the tool call and is recorded as
//                  rejected in the transcript, or claude dropped the hook's request; a headless
//                  agent: it stopped waiting, its `signal`) ─► approval:desk-answer (answer null):
//                  every phone clears
//              the agent exited ─► approval:withdraw
//
// claude (2.1.197 and 2.1.330, observed) runs the hook before it draws its own form: while the
// phone is asked, the desk sees "running Elicitation hook" and answers by Esc. Invariant: nothing is
// answered on the user's behalf. When the hub cannot take the request, or the payload cannot be
// shown as a form, or a hub answer does not fit the schema, form() resolves null: ask() then returns
// `{}` (claude draws its own form at the desk) and a headless agent, with no desk, declines. The
// request itself (id, send, re-send, withdraw, the desk's answer) is the session's request
// registry's (requests/registry.ts).
import { elicitationAnswerOf, elicitationAnswerProblem, type Answer, type ElicitationAnswer, type ElicitationInput } from '@tether/shared';
import { elicitationOutput, parseElicitationPayload } from '../../hooks/elicitation.ts';
import type { HubLink } from '../../hub-link/link.ts';
import { firstAnswer, type FirstAnswer } from './first-answer.ts';
import { createRequestRegistry, type RequestHandle, type RequestRegistry } from './registry.ts';

/** claude drops the hook request both when the desk presses Esc and when it exits; an exit reaches
 *  stop() (the session finishing) within this long, so only a drop still unexplained by then is the
 *  desk's answer. */
const DROP_GRACE_MS = 1_000;

export type Elicitations = {
  /** The Elicitation hook: resolves with the hook output (`{}` leaves claude's own form). */
  ask(options: { payload: Record<string, unknown>; signal: AbortSignal }): Promise<Record<string, unknown>>;
  /** A form put to the person for an agent that asks on its own (not through the hook): the answer
   *  that fits it, or null when nobody answered it here (no hub, the hub did not take it, an answer
   *  that does not fit, the desk first: `signal`, or the agent stopped). */
  form(options: { input: ElicitationInput; signal: AbortSignal }): Promise<ElicitationAnswer | null>;
  /** The transcript recorded a rejected tool call (Esc at the desk) while a request waits. */
  interrupted(): void;
  /** A hub answer; false when the request is not an elicitation of this runner. */
  answered(options: { requestId: string; answer: Answer }): boolean;
  /** claude exited: what still waits is withdrawn. */
  stop(): void;
};

type Outcome = { from: 'hub'; answer: Answer } | { from: 'dropped' } | { from: 'stopped' };
type Waiting = { handle: RequestHandle; settle: FirstAnswer<Outcome>['settle'] };

export function createElicitations(options: {
  sessionId: () => string;
  link: () => HubLink | null;
  /** The session's registry (one for every kind of request); its own when none is given (tests). */
  requests?: RequestRegistry;
  log?: (line: string) => void;
}): Elicitations {
  const requests = options.requests ?? createRequestRegistry({ sessionId: options.sessionId, link: options.link });
  const waiting = new Set<Waiting>();
  const log = options.log ?? (() => {});
  let stopped = false;
  let onStop: Array<() => void> = [];
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
  const answerFor = (input: ElicitationInput, answer: Answer): ElicitationAnswer | null => {
    const elicitation = elicitationAnswerOf(answer);
    if (elicitation.action !== 'accept') return { action: elicitation.action };
    const problem = elicitationAnswerProblem(input, answer);
    if (problem) {
      log(`elicitation: ${problem}; not passed on`);
      return null;
    }
    return { action: 'accept', content: elicitation.content ?? {} };
  };

  const form = async ({ input, signal }: { input: ElicitationInput; signal: AbortSignal }): Promise<ElicitationAnswer | null> => {
    const link = options.link();
    if (!link || stopped) return null;
    const { settle, settled } = firstAnswer<Outcome>();
    const handle = requests.open({
      request: { id: crypto.randomUUID(), sessionId: options.sessionId(), kind: 'elicitation', toolName: input.serverName, toolInput: input, toolUseId: null, createdAt: Date.now() },
      onAnswer: (answer) => settle({ from: 'hub', answer }),
    });
    const entry: Waiting = { handle, settle };
    waiting.add(entry);
    log(`elicitation ${handle.request.id} from ${input.serverName}: asking the hub`);
    const onDrop = () => settle({ from: 'dropped' });
    if (signal.aborted) onDrop();
    signal.addEventListener('abort', onDrop);
    try {
      if (!(await handle.send())) {
        log(`elicitation from ${input.serverName}: the hub did not take it`);
        return null;
      }
      let outcome = await settled;
      if (outcome.from === 'dropped' && (await stoppedWithin(DROP_GRACE_MS))) outcome = { from: 'stopped' };
      const { request } = handle;
      switch (outcome.from) {
        case 'hub':
          log(`elicitation ${request.id} (${input.serverName}): answered on the hub: ${outcome.answer.elicitation?.action ?? outcome.answer.decision}`);
          return answerFor(input, outcome.answer);
        case 'dropped': {
          // The desk answered (or the agent gave the request up): clear every phone.
          log(`elicitation ${request.id}: answered at the desk (the agent stopped waiting)`);
          const ack = await handle.answeredAtDesk();
          if (ack?.ok && !ack.won) log(`elicitation ${request.id}: ${ack.resolution.answeredBy ?? 'the hub'} answered first, but the agent no longer listens`);
          return null;
        }
        case 'stopped':
          handle.withdraw('the agent stopped waiting');
          return null;
        default: {
          const never: never = outcome;
          return never;
        }
      }
    } finally {
      signal.removeEventListener('abort', onDrop);
      handle.close();
      waiting.delete(entry);
    }
  };

  return {
    ask: async ({ payload, signal }) => {
      const parsed = parseElicitationPayload(payload);
      if (parsed.kind === 'unsupported') {
        log(`elicitation not forwarded: ${parsed.reason}; claude's own form decides`);
        return {};
      }
      const answer = await form({ input: parsed.input, signal });
      if (!answer) log(`elicitation from ${parsed.input.serverName}: no answer from the hub; claude's own form decides`);
      return answer ? elicitationOutput(answer) : {};
    },

    form,

    interrupted: () => {
      for (const entry of waiting.values()) entry.settle({ from: 'dropped' });
    },

    answered: ({ requestId, answer }) => [...waiting].some((entry) => entry.handle.request.id === requestId) && requests.answered({ requestId, answer }),

    stop: () => {
      stopped = true;
      for (const fn of onStop) fn();
      onStop = [];
      for (const entry of waiting.values()) entry.settle({ from: 'stopped' });
    },
  };
}
