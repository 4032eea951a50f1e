// lifecycle.ts: the sessions room's one face to the edges. A runner registers, reports, chats and
// ends its session; a client queues prompts and sends commands to a live session's runner; REST
// and watching tabs read. Each step writes the store, publishes what it made true and answers
// with the ack its edge sends as is.
//
//   runner ─register/update/end/message:append/prompt:status─► here ─► store ─► facts (session.updated…)
//   client ─prompt:send / abort / set-model…─► here ─► runner (RunnerCommands) ─► facts
//   client ─session:pin / session:archive─► triage.ts ─► store ─► facts
//
// Invariants: every step acts on the caller's namespace only (a session of another namespace is
// `forbidden` at register and `not_found` everywhere else); a session's terminal ends (its final
// screen kept) before the ended session is announced, so a late viewer still sees that screen.
import { vouchedRegistration } from './machine-claim.ts';
import {
  ackError,
  isFinalStatus,
  type Ack,
  type CliAcks,
  type CliServerToClient,
  type Namespace,
  type PromptSend,
  type PromptStatus,
  type Session,
  type SessionAttentionFact,
  type SessionCommandFinished,
  type SessionEnd,
  type SessionPatch,
  type SessionWorktree,
  type SlashCommand,
  type WebAcks,
} from '@tether/shared';
import type { ChatMessageRecordInput, SessionRegistrationInput, Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import type { TerminalRegistry } from '../terminal/registry.ts';
import { endSession, patchSession, registerSession, type EndedSession } from './sessions.ts';
import { ingestChatMessages } from './chat-ingest.ts';
import { deliveryOf, handOver, queuePrompt, updatePromptStatus } from './prompt-delivery.ts';
import { createHeldPrompts } from './held-prompts.ts';
import { createSessionQueries } from './queries.ts';
import { createTriage } from './triage.ts';
import { asked, refusal, type SwitchCommand, type SwitchPayload } from './switches.ts';

const NO_SESSION = 'no such session';
/** A held prompt whose sender's device was revoked. */
export const REVOKED_SENDER_REASON = "its sender's device was signed out";
/** Commands a client may send to a live session's runner, and what each checks of the session. */
type LiveCommand = 'session:abort' | 'session:set-model' | 'session:set-effort' | 'session:set-mode';

export type Sessions = ReturnType<typeof createSessions>;
type End = Required<Pick<SessionEnd, 'sessionId' | 'status'>> & { exitCode: number | null; reason: string | null };

export function createSessions(options: { store: Store; facts: FactBus; runners: RunnerCommands; terminals: TerminalRegistry; hubUrl: () => string }) {
  const { store, facts, terminals } = options;

  /** What ending changed, in the order tabs must hear it: requests cleared, prompts dropped, the
   *  terminal's final screen kept, then the ended session. */
  const ended = async (ns: Namespace, sessionId: string, result: EndedSession): Promise<Session> => {
    for (const resolution of result.withdrawn) facts.publish('approval.resolved', { namespace: ns, resolution });
    for (const prompt of result.dropped) facts.publish('prompt.updated', { namespace: ns, prompt });
    await terminals.ended(ns, sessionId);
    facts.publish('session.updated', { namespace: ns, session: result.session });
    return result.session;
  };

  return {
    ...createSessionQueries({ store }),
    ...createTriage({ store, facts }),
    ...createHeldPrompts({ store, facts }),
    /** What a runner is sent for a prompt (with its attachments' refs). */
    delivery: deliveryOf,

    /** The runner's registration is stored; `runnerJoined` follows once its socket is in the runner room. */
    async register(ns: Namespace, claimed: SessionRegistrationInput): Promise<Ack<CliAcks['session:register']>> {
      // The machine it names is kept only when that machine's daemon vouches for it (machine-claim.ts).
      const registration = await vouchedRegistration({ store, namespace: ns, registration: claimed });
      const result = await registerSession({ store, namespace: ns, registration });
      if (result.kind === 'forbidden') return ackError('forbidden', 'session id belongs to another namespace');
      return { ok: true, session: result.session };
    },
    /** The hub starts this session through a daemon: tabs see it (starting) at once, unless its
     *  runner registered first (then that registration stands). */
    async registerStarting(ns: Namespace, registration: SessionRegistrationInput): Promise<void> {
      const result = await registerSession({ onlyIfNew: true, store, namespace: ns, registration });
      if (result?.kind === 'ok') facts.publish('session.updated', { namespace: ns, session: result.session });
    },
    /** The git worktree a daemon made for it, or its removal (hub/src/worktrees): stored, told to tabs. */
    async recordWorktree(ns: Namespace, sessionId: string, worktree: SessionWorktree): Promise<Session | null> {
      const session = await store.setSessionWorktree({ namespace: ns, sessionId, worktree, now: Date.now() });
      if (session) facts.publish('session.updated', { namespace: ns, session });
      return session;
    },
    /** A (re)connected runner of a live session streams its terminal from this hub (viewers get a
     *  fresh snapshot: its bytes since the drop are gone); returns the prompts queued meanwhile,
     *  handed over now (tabs hear it: they are no longer the phone's to edit). Called after the
     *  runner joined its room, so a prompt queued meanwhile is either here or sees the runner there. */
    async runnerJoined(ns: Namespace, session: Session) {
      if (!isFinalStatus(session.status)) {
        await terminals.running(ns, session.id);
        facts.publish('terminal.started', { namespace: ns, sessionId: session.id, hubUrl: options.hubUrl() });
      }
      facts.publish('session.updated', { namespace: ns, session });
      const handed = await handOver({ store, namespace: ns, sessionId: session.id });
      for (const prompt of handed.newly) facts.publish('prompt.updated', { namespace: ns, prompt });
      return handed.all;
    },
    async update(ns: Namespace, sessionId: string, patch: SessionPatch): Promise<Ack<CliAcks['session:update']>> {
      const session = await patchSession({ store, namespace: ns, sessionId, patch });
      if (!session) return ackError('not_found', NO_SESSION);
      facts.publish('session.updated', { namespace: ns, session });
      return { ok: true, session };
    },
    async end(ns: Namespace, end: End): Promise<Ack<CliAcks['session:end']>> {
      const result = await endSession({ store, namespace: ns, end });
      if (!result) return ackError('not_found', NO_SESSION);
      return { ok: true, session: await ended(ns, end.sessionId, result) };
    },
    /** Ends a session on behalf of a runner that cannot (died, never got ready); one that already
     *  ended is left as it is. */
    async endOnBehalf(ns: Namespace, end: End & { status: 'ended' | 'failed' }): Promise<Session | null> {
      const result = await endSession({ store, namespace: ns, end, ifLive: true });
      if (!result) return null;
      return result.alreadyEnded ? result.session : ended(ns, end.sessionId, result);
    },
    /** The runner's list of slash commands (replaces the last one); the composer reads it over REST. */
    async commandsReported(ns: Namespace, report: { sessionId: string; commands: SlashCommand[] }): Promise<Ack<object>> {
      const saved = await store.saveSessionCommands({ namespace: ns, sessionId: report.sessionId, commands: report.commands, at: Date.now() });
      return saved ? { ok: true } : ackError('not_found', NO_SESSION);
    },
    attention(ns: Namespace, attention: SessionAttentionFact): Ack<object> {
      facts.publish('session.attention', { namespace: ns, attention });
      return { ok: true };
    },
    /** The runner says a command it typed into claude finished: tabs waiting on it stop waiting. */
    commandFinished(ns: Namespace, finished: SessionCommandFinished): Ack<object> {
      facts.publish('session.command-finished', { namespace: ns, finished });
      return { ok: true };
    },
    async appendMessages(ns: Namespace, sessionId: string, messages: readonly ChatMessageRecordInput[]): Promise<Ack<CliAcks['message:append']>> {
      const result = await ingestChatMessages({ store, namespace: ns, sessionId, messages });
      if (!result) return ackError('not_found', NO_SESSION);
      if (result.added.length > 0) {
        facts.publish('messages.added', { namespace: ns, sessionId, messages: result.added });
        facts.publish('session.updated', { namespace: ns, session: result.session });
      }
      return { ok: true, added: result.added.length, lastSeq: result.lastSeq };
    },
    async promptStatus(ns: Namespace, update: { sessionId: string; promptId: string; status: PromptStatus; reason: string | null }): Promise<Ack<object>> {
      const prompt = await updatePromptStatus({ store, namespace: ns, ...update });
      if (!prompt) return ackError('not_found', 'no such prompt');
      facts.publish('prompt.updated', { namespace: ns, prompt });
      return { ok: true };
    },
    /** `sender`: the token of a person's client (the prompt dies with it while held); none for the
     *  hub's own prompts (a schedule's, a limit continue, a review's). */
    async queuePrompt(ns: Namespace, send: PromptSend, sender?: { tokenId: string }): Promise<Ack<WebAcks['prompt:send']>> {
      const result = await queuePrompt({ store, namespace: ns, send, creatorTokenId: sender?.tokenId ?? null });
      if (result.kind === 'not_found') return ackError('not_found', NO_SESSION);
      if (result.kind === 'ended') return ackError('gone', 'session has ended');
      if (result.kind === 'bad_attachment') return ackError('bad_request', `no such attachment in this session: ${result.id} (upload it first)`);
      // Held by the hub while no runner is there: the phone may still edit or withdraw it.
      const there = result.deliver && (await options.runners.present(ns, send.sessionId));
      const [handed] = there ? (await handOver({ store, namespace: ns, sessionId: send.sessionId, promptId: result.prompt.id })).all : [];
      if (handed) options.runners.send(ns, send.sessionId, 'prompt:deliver', deliveryOf(handed));
      const prompt = handed ?? result.prompt;
      facts.publish('prompt.updated', { namespace: ns, prompt });
      return { ok: true, prompt };
    },
    /** Tokens revoked (a device signed out or lost): the prompts they sent that the hub still holds are dropped. */
    async tokensRevoked(fact: { namespace: Namespace; tokenIds: readonly string[] }): Promise<void> {
      const dropped = await store.dropPromptsOfTokens({ namespace: fact.namespace, tokenIds: fact.tokenIds, reason: REVOKED_SENDER_REASON, now: Date.now() });
      for (const prompt of dropped) facts.publish('prompt.updated', { namespace: fact.namespace, prompt });
    },
    /** A command for a live session's runner: the session must be this namespace's and not ended. */
    async command<E extends LiveCommand>(ns: Namespace, event: E, payload: Parameters<CliServerToClient[E]>[0]): Promise<Ack<object>> {
      const current = await store.getSession({ namespace: ns, sessionId: payload.sessionId });
      if (!current) return ackError('not_found', NO_SESSION);
      if (isFinalStatus(current.status)) return ackError('gone', 'session has ended');
      // What the agent takes from here is its capabilities' call (switches.ts); abort is every agent's.
      const refused = event === 'session:abort' ? null : refusal(current, event as SwitchCommand, payload as SwitchPayload);
      if (refused) return refused;
      options.runners.send(ns, payload.sessionId, event, asked(current, payload));
      return { ok: true };
    },
  };
}
