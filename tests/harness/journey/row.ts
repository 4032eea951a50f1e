// row.ts (harness/journey): one agent's row of the journey table (tests/e2e/agent-journey.test.ts).
// A row holds only what differs per agent: how its stage starts (fake API, sandbox, desk size), how
// its fake API is scripted for each step, the words of its question on the phone, when its desk takes
// typing (or, for an agent tether runs headless only, the model it starts on and why it has no desk),
// and the model it is switched to. What the agent can do at the installed version is not in
// the row: the journey reads it from the capabilities the runner stated (the agent's own room), so a
// floor pin lacking one gets the step's "absent, and why" branch. Adding an agent is one more row.
import type { AgentKind, PendingRequest } from '@tether/shared';
import type { GuardedTurn, ScriptTurn } from '../../fixtures/script-cursor.ts';
import type { Defer } from '../cleanups.ts';
import type { RunnerHandle } from '../runner.ts';

/** A request as every fake API records it. */
export type ApiRequest = { seq: number; kind: string; path: string; body: unknown; outcome?: 'completed' | 'aborted' };

/** The question every agent asks in the journey, in its own tool's terms. */
export const JOURNEY_QUESTION = {
  header: 'Database',
  question: 'Which database should the tests use?',
  options: [
    { label: 'SQLite', description: 'A file per test' },
    { label: 'PostgreSQL', description: 'A throwaway cluster' },
  ],
} as const;

/** An approval answer, a question's answer: what `approval:answer` carries. */
export type Answer = Record<string, unknown>;

/** The turns a step scripts, in the agent-neutral terms the journey speaks. */
export type JourneyScripts = {
  /** Every prompt answered `<prefix><its text>`. */
  echo(prefix: string): void;
  /** A long reply streamed one paragraph a second (`Paragraph <marker>-<n>.`): abort cuts it. */
  story(marker: string): void;
  /** `prompt` → a shell command the agent asks about (with `description`); once its output holding
   *  `output` reached the model, the reply `then`. */
  command(o: { prompt: string; command: string; description: string; output: string; then: string }): void;
  /** `prompt` → JOURNEY_QUESTION in the agent's own question tool; once answered, `then`. */
  question(o: { prompt: string; then: string }): void;
  /** A reviewer's first prompt (it holds `diff --git`) → `findings`. */
  review(findings: string): void;
};

export type JourneyFake = JourneyScripts & {
  requests: ApiRequest[];
  waitForRequest(predicate: (request: ApiRequest) => boolean, options?: { timeoutMs?: number }): Promise<ApiRequest>;
  /** The model a main-loop request names. */
  modelOf(request: ApiRequest): string | null;
};

/** What a row starts before the journey's own parts (hub, daemon, runner, phone). */
export type AgentStage = {
  fake: JourneyFake;
  sandbox: { env: Record<string, string>; cwd: string };
  /** The env that lets a daemon find this agent's pinned binary. */
  binEnv: Record<string, string>;
};

/** A question the agent asks in the journey: how the phone shows it and how the person answers. */
export type JourneyQuestion = {
  /** What the desk does first (Codex asks its questions in its Plan mode only). */
  prepare?(runner: RunnerHandle): Promise<void>;
  /** The headline the phone shows for the question. */
  headlineOf(request: PendingRequest): string | undefined;
  /** What else the phone is shown of it (its options and field, in the agent's words). */
  shape?: Record<string, unknown>;
  /** Answers the hub refuses for it, each with the reason it gives (the question stays open). */
  refusals(request: PendingRequest): Array<[Answer, RegExp]>;
  /** The words are typed into a field on its screen (else they travel as data, a hook's answer). */
  typed: boolean;
  /** The person's answer in `words` of their own (with a pick where the agent wants one). */
  answer(request: PendingRequest, words: string): Answer;
};

/** A step the agent cannot take as tether runs it: why, and what shows it at the fake API. */
export type AbsentQuestion = {
  absent: string;
  /** The tools a main-loop request offered the model (the question tool is not among them). */
  toolsOffered(request: ApiRequest): string[];
  /** The name its question tool would have. */
  tool: string;
};

type RowCommon = {
  agent: AgentKind;
  stage(defer: Defer): Promise<AgentStage>;
  question: JourneyQuestion | AbsentQuestion;
  /** A model its switch takes, whether a request names it, and the phone's answer where the agent
   *  asks to confirm a switch first (null: not that dialog). */
  model: { to: string; names(requestModel: string | null): boolean; confirm?(request: PendingRequest): Answer | null };
};

/** An agent tether runs in a PTY at a desk (`tether <agent>`), mirrored to the phone. */
export type PtyJourneyRow = RowCommon & {
  launchKind: 'pty';
  /** `tether <agent>`'s own arguments and the desk's size. */
  runner: { args: string[]; cols?: number; rows?: number };
  /** The agent's idle, empty input at the desk, between turns (the journey's first turn, a prompt
   *  from the phone, comes before any key at the desk: the agent has started its session by then). */
  idle: RegExp;
  /** A person's pause between a paste at the desk and its Enter (Gemini takes an early Enter as a newline). */
  pasteSettleMs: number;
};

/** An agent tether runs headless only, started from the phone through the daemon: no desk. */
export type HeadlessJourneyRow = RowCommon & {
  launchKind: 'headless';
  /** The model it starts on (the phone's new-session form names one). */
  startModel: string;
  /** `tether <agent>` at a desk: refused, with what the runner says why; or its own TUI shows
   *  (walked in its own e2e: opencode-pty.test.ts), which the row checks starts. */
  desk: { refused: RegExp } | { shows: RegExp };
};

export type JourneyRow = PtyJourneyRow | HeadlessJourneyRow;

/** A fake's own builders and handle, from which every row's JourneyFake is made the same way. */
export type FakeParts<Req, Rep, R extends ApiRequest> = {
  fake: { requests: R[]; setScript(script: ScriptTurn<Req, Rep>[]): void; waitForRequest(predicate: (request: R) => boolean, options?: { timeoutMs?: number }): Promise<R> };
  /** The fake's module: its reply builders and request readers. */
  api: {
    text(value: string): Rep;
    streamedText(chunks: string[], options: { gapMs: number }): Rep;
    when(matcher: (request: Req) => boolean, turn: Rep): GuardedTurn<Req, Rep>;
    userSays(pattern: string): (request: Req) => boolean;
    lastUserText(request: Req): string;
  };
  modelOf(request: ApiRequest): string | null;
  /** Its shell tool asked to run `command`. */
  command(command: string, description: string): Rep;
  /** JOURNEY_QUESTION in its question tool (null: it has none, AbsentQuestion). */
  question: (() => Rep) | null;
  /** The request carries the question's answer. */
  answered(request: Req): boolean;
};

/** A row's stage: its fake (started by the row) and sandbox, both stopped by the scope. */
export function rowStage<Req, Rep, R extends ApiRequest>(defer: Defer, o: { parts: FakeParts<Req, Rep, R> & { fake: { stop(): unknown } }; sandbox: AgentStage['sandbox'] & { stop(): unknown }; binEnv: Record<string, string> }): AgentStage {
  defer(() => o.parts.fake.stop());
  defer(() => o.sandbox.stop());
  return { sandbox: o.sandbox, binEnv: o.binEnv, fake: journeyFake(o.parts) };
}

/** A row's fake in the journey's terms, from its own builders. */
export function journeyFake<Req, Rep, R extends ApiRequest>(parts: FakeParts<Req, Rep, R>): JourneyFake {
  const { fake } = parts;
  const { when, userSays, text } = parts.api;
  const bodyHas = (needle: string) => (request: Req) => JSON.stringify(request).includes(needle);
  return {
    requests: fake.requests,
    waitForRequest: (predicate, options) => fake.waitForRequest(predicate, options),
    modelOf: parts.modelOf,
    echo: (prefix) => fake.setScript([(request: Req) => text(`${prefix}${parts.api.lastUserText(request)}`)]),
    story: (marker) => fake.setScript([parts.api.streamedText(Array.from({ length: 20 }, (_, i) => `Paragraph ${marker}-${i + 1}.\n\n`), { gapMs: 1000 })]),
    command: (o) => fake.setScript([when(userSays(o.prompt), parts.command(o.command, o.description)), when(bodyHas(o.output), text(o.then))]),
    question: (o) => fake.setScript(parts.question ? [when(userSays(o.prompt), parts.question()), when(parts.answered, text(o.then))] : [when(userSays(o.prompt), text(o.then))]),
    review: (findings) => fake.setScript([when(userSays('diff --git'), text(findings))]),
  };
}
