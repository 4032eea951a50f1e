// chat-state.ts: one session's chat as this tab knows it, and the pure reducer that changes it.
// Messages arrive from four places (the phone cache, the session:watch backfill, live message:added
// facts, and REST pages of older messages), in any order and possibly twice.
// Pending approvals are not here: they live in the query cache (lib/queries.ts), shared with
// the approvals feature.
// Invariant: `messages` is sorted by seq with each id once, whatever order the inputs came in.
import type { ChatMessage, Prompt } from '@tether/shared';
import { WITHDRAWN_REASON } from '@tether/shared/wire';

/** A prompt this tab (or another) queued and the transcript has not shown yet. */
export type OutgoingPrompt = Pick<Prompt, 'id' | 'text' | 'status' | 'reason' | 'createdAt' | 'handedAt'> & {
  /** The hub refused or never acked it; the text is kept so the user can send it again. */
  failed?: string;
  /** What the hub stored of its files (once it acked). */
  attachments?: Prompt['attachments'];
  /** The ids it was sent with (before the hub acked: a retry sends them again). */
  attachmentIds?: string[];
};

export type ChatState = {
  phase: 'loading' | 'ready' | 'error';
  error: string | null;
  messages: ChatMessage[];
  /** Older messages exist before messages[0] (loaded on demand). */
  hasEarlier: boolean;
  loadingEarlier: boolean;
  prompts: OutgoingPrompt[];
};

export const INITIAL_CHAT_STATE: ChatState = {
  phase: 'loading',
  error: null,
  messages: [],
  hasEarlier: false,
  loadingEarlier: false,
  prompts: [],
};

export type ChatAction =
  /** What the phone cache held (lib/phone-cache): drawn at once, the watch then asks for what follows. */
  | { type: 'cached'; messages: ChatMessage[] }
  | { type: 'watched'; messages: ChatMessage[]; hasEarlier?: boolean }
  | { type: 'watch-failed'; error: string }
  | { type: 'messages'; messages: ChatMessage[] }
  | { type: 'earlier-loading' }
  | { type: 'earlier-loaded'; messages: ChatMessage[]; more: boolean }
  | { type: 'earlier-failed' }
  | { type: 'prompt'; prompt: OutgoingPrompt }
  | { type: 'prompt-failed'; promptId: string; error: string }
  | { type: 'prompt-dismissed'; promptId: string };

export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return existing as ChatMessage[];
  const last = existing[existing.length - 1];
  // Fast path, by far the most common: live messages that extend the end in order.
  if (
    last &&
    incoming.every((m, i) => m.seq > (i === 0 ? last.seq : (incoming[i - 1]?.seq ?? Infinity))) &&
    !incoming.some((m) => m.id === last.id)
  ) {
    return [...existing, ...incoming];
  }
  const byId = new Map<string, ChatMessage>();
  for (const message of existing) byId.set(message.id, message);
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/** A prompt is done once the transcript shows it (a user message carrying its id). */
function withoutDelivered(prompts: OutgoingPrompt[], messages: readonly ChatMessage[]): OutgoingPrompt[] {
  if (prompts.length === 0) return prompts;
  const delivered = new Set(messages.map((m) => m.promptId).filter((id): id is string => !!id));
  const next = prompts.filter((p) => !delivered.has(p.id) && p.status !== 'delivered');
  return next.length === prompts.length ? prompts : next;
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'cached': {
      // The hub answered first (a fast link): what it sent is newer than the cache; keep it.
      if (state.phase !== 'loading' || action.messages.length === 0) return state;
      const messages = mergeMessages(state.messages, action.messages);
      return { ...state, phase: 'ready', error: null, messages, hasEarlier: (messages[0]?.seq ?? 1) > 1, prompts: withoutDelivered(state.prompts, messages) };
    }
    case 'watched': {
      const messages = mergeMessages(state.messages, action.messages);
      return {
        ...state,
        phase: 'ready',
        error: null,
        messages,
        hasEarlier: action.hasEarlier ?? (state.phase === 'loading' ? (messages[0]?.seq ?? 1) > 1 : state.hasEarlier),
        prompts: withoutDelivered(state.prompts, messages),
      };
    }
    case 'watch-failed':
      return state.phase === 'ready' ? state : { ...state, phase: 'error', error: action.error };
    case 'messages': {
      const messages = mergeMessages(state.messages, action.messages);
      return { ...state, messages, prompts: withoutDelivered(state.prompts, action.messages) };
    }
    case 'earlier-loading':
      return { ...state, loadingEarlier: true };
    case 'earlier-loaded':
      return {
        ...state,
        loadingEarlier: false,
        messages: mergeMessages(state.messages, action.messages),
        hasEarlier: action.more,
      };
    case 'earlier-failed':
      return { ...state, loadingEarlier: false };
    case 'prompt': {
      // Delivered, or withdrawn by a person (from any tab): nothing left to show.
      if (action.prompt.status === 'delivered' || (action.prompt.status === 'dropped' && action.prompt.reason === WITHDRAWN_REASON)) {
        return { ...state, prompts: state.prompts.filter((p) => p.id !== action.prompt.id) };
      }
      const index = state.prompts.findIndex((p) => p.id === action.prompt.id);
      const prompts = state.prompts.slice();
      if (index === -1) prompts.push(action.prompt);
      else prompts[index] = { ...prompts[index], ...action.prompt, failed: undefined };
      return { ...state, prompts: withoutDelivered(prompts, state.messages) };
    }
    case 'prompt-failed':
      return {
        ...state,
        prompts: state.prompts.map((p) => (p.id === action.promptId ? { ...p, failed: action.error } : p)),
      };
    case 'prompt-dismissed':
      return { ...state, prompts: state.prompts.filter((p) => p.id !== action.promptId) };
    default: {
      const never: never = action;
      return never;
    }
  }
}
