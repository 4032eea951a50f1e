// use-session-chat.ts: keeps one session's chat in step with the hub while the chat is on screen.
//
//   route loader, mount ─phone cache (cached-open.ts)───────────────────────────────────────────┐
//   mount / reconnect ─session:watch {afterSeq: last seen}─► hub ─ack: missed messages + pending─┤
//   message:added, prompt:updated (this session only) ───────────── ──────────────────────────────┤
//   "Load earlier" ─GET /messages?before=first─────────────────────────────────────────────────┴─► chatReducer
//   chatReducer's messages ─(settled a moment)─► phone cache
//
// Invariant: after every (re)connect the tab asks for everything after the last seq it holds, so a
// drop never leaves a hole; duplicates are harmless because the reducer merges by message id. What
// the cache drew is the hub's own messages (append-only), so asking after its last seq is the same
// as asking after what this tab saw live.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, Prompt, Session } from '@tether/shared';
import { hubApi } from '../../lib/hub.ts';
import { queryKeys, setPendingRequests, upsertSession } from '../../lib/queries.ts';
import { getSocket, requestHub } from '../../lib/socket.ts';
import { chatReducer, INITIAL_CHAT_STATE, type ChatState } from './chat-state.ts';
import { useChatCacheWrites } from './chat-cache-sync.ts';
import { cachedChat, takeReadCachedChat } from './cached-open.ts';

function maxSeq(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** Page size for "Load earlier" and for catching up after a long drop: the hub's cap (MAX_PAGE_LIMIT),
 *  cheap to render now that the list is windowed. */
const PAGE_SIZE = 500;

/** Ids for prompts. crypto.randomUUID exists only in secure contexts, and a phone on the LAN
 *  often opens the hub over plain http, so build a v4 UUID from getRandomValues when it is missing. */
export function newPromptId(): string {
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type SessionChat = ChatState & {
  loadEarlier: () => void;
  sendPrompt: (message: { text: string; attachments: string[] }) => Promise<void>;
  retryPrompt: (promptId: string) => void;
  dismissPrompt: (promptId: string) => void;
  /** A prompt the hub still holds: new text, or taken back. Null, or the hub's refusal. */
  editPrompt: (promptId: string, text: string) => Promise<string | null>;
  withdrawPrompt: (promptId: string) => Promise<string | null>;
  abort: () => Promise<void>;
};

/** `cache`: draw from and keep the phone cache (never for a share link's viewer). */
export function useSessionChat(sessionId: string, options: { cache: boolean }): SessionChat {
  const { cache } = options;
  const client = useQueryClient();
  // The cache's slice, when its read (started by the route's loader) is already done: the first
  // render draws it. undefined: not read yet (the effect waits for it).
  const [readAtMount] = useState(() => (cache ? takeReadCachedChat({ sessionId, lastSeq: client.getQueryData<Session>(queryKeys.session(sessionId))?.lastSeq }) : null));
  const [state, dispatch] = useReducer(chatReducer, readAtMount, (drawn) =>
    drawn ? chatReducer(INITIAL_CHAT_STATE, { type: 'cached', messages: drawn }) : INITIAL_CHAT_STATE,
  );
  const stateRef = useRef(state);
  stateRef.current = state;
  const cacheDrew = useChatCacheWrites({ sessionId, state, enabled: cache, drawnAtMount: readAtMount });

  useEffect(() => {
    const socket = getSocket();
    if (!socket) return;
    let alive = true;
    // The watch asks after the cache's last seq: it waits for the cache to be read (or found empty).
    let cachedLastSeq: number | undefined;
    const drew = (messages: ChatMessage[]) => {
      cachedLastSeq = messages[messages.length - 1]?.seq;
      cacheDrew(messages);
    };
    if (readAtMount) drew(readAtMount);
    const cacheRead =
      cache && readAtMount === undefined
        ? cachedChat({ sessionId, lastSeq: client.getQueryData<Session>(queryKeys.session(sessionId))?.lastSeq }).then((messages) => {
            if (!alive || !messages) return;
            drew(messages);
            dispatch({ type: 'cached', messages });
          })
        : Promise.resolve();

    async function catchUp(afterSeq: number) {
      // The watch ack had more than one page to give: page forward over REST until level.
      let after = afterSeq;
      for (;;) {
        const page = await hubApi.listMessages({ sessionId, after, limit: PAGE_SIZE });
        if (!alive) return;
        dispatch({ type: 'messages', messages: page.messages });
        const last = page.messages[page.messages.length - 1];
        if (!page.more || !last) return;
        after = last.seq;
      }
    }

    async function watch() {
      await cacheRead;
      if (!alive) return;
      const last = stateRef.current.messages[stateRef.current.messages.length - 1];
      const afterSeq = maxSeq(last?.seq, cachedLastSeq);
      try {
        const ack = await requestHub('session:watch', afterSeq === undefined ? { sessionId } : { sessionId, afterSeq });
        if (!alive) return;
        upsertSession(client, ack.session);
        setPendingRequests(client, sessionId, ack.pending);
        // The queue as the hub holds it (a reload, or a hub that restarted, loses none of it).
        for (const prompt of ack.prompts ?? []) dispatch({ type: 'prompt', prompt });
        const first = ack.messages[0];
        // With afterSeq (or a first page that starts at seq 1) `more` means newer messages remain;
        // otherwise the hub sent the newest page and `more` means older ones exist.
        const forward = afterSeq !== undefined || (first !== undefined && first.seq <= 1);
        dispatch({
          type: 'watched',
          messages: ack.messages,
          ...(forward ? {} : { hasEarlier: ack.more || (first?.seq ?? 1) > 1 }),
        });
        const newest = ack.messages[ack.messages.length - 1];
        if (forward && ack.more && newest) await catchUp(newest.seq);
      } catch (error) {
        if (alive) dispatch({ type: 'watch-failed', error: error instanceof Error ? error.message : String(error) });
      }
    }

    const onMessages = (payload: { sessionId: string; messages: ChatMessage[] }) => {
      if (payload.sessionId === sessionId) dispatch({ type: 'messages', messages: payload.messages });
    };
    const onPrompt = (prompt: Prompt) => {
      if (prompt.sessionId === sessionId) dispatch({ type: 'prompt', prompt });
    };
    const onConnect = () => void watch();

    socket.on('message:added', onMessages);
    socket.on('prompt:updated', onPrompt);
    socket.on('connect', onConnect);
    // Emitting before the connection is up is fine: socket.io buffers it until `connect`.
    if (socket.connected) void watch();
    else if (!socket.active) socket.connect();

    return () => {
      alive = false;
      socket.off('message:added', onMessages);
      socket.off('prompt:updated', onPrompt);
      socket.off('connect', onConnect);
      if (socket.connected) requestHub('session:unwatch', { sessionId }).catch(() => {});
    };
  }, [sessionId, client, cache, cacheDrew, readAtMount]);

  const loadEarlier = useCallback(() => {
    const first = stateRef.current.messages[0];
    if (!first || stateRef.current.loadingEarlier) return;
    dispatch({ type: 'earlier-loading' });
    hubApi
      .listMessages({ sessionId, before: first.seq, limit: PAGE_SIZE })
      .then((page) => dispatch({ type: 'earlier-loaded', messages: page.messages, more: page.more }))
      .catch(() => dispatch({ type: 'earlier-failed' }));
  }, [sessionId]);

  const send = useCallback(
    async (promptId: string, text: string, attachments: string[]) => {
      try {
        const ack = await requestHub('prompt:send', { sessionId, promptId, text, attachments });
        dispatch({ type: 'prompt', prompt: ack.prompt });
      } catch (error) {
        dispatch({ type: 'prompt-failed', promptId, error: error instanceof Error ? error.message : String(error) });
      }
    },
    [sessionId],
  );

  const sendPrompt = useCallback(
    async ({ text, attachments }: { text: string; attachments: string[] }) => {
      const promptId = newPromptId();
      dispatch({ type: 'prompt', prompt: { id: promptId, text, attachmentIds: attachments, status: 'queued', reason: null, createdAt: Date.now() } });
      await send(promptId, text, attachments);
    },
    [send],
  );

  const retryPrompt = useCallback(
    (promptId: string) => {
      const prompt = stateRef.current.prompts.find((p) => p.id === promptId);
      if (!prompt) return;
      dispatch({ type: 'prompt', prompt: { ...prompt, status: 'queued' } });
      // Same id: if the first attempt did reach the hub, the retry is a no-op there.
      void send(prompt.id, prompt.text, prompt.attachmentIds ?? prompt.attachments?.map((a) => a.id) ?? []);
    },
    [send],
  );

  const dismissPrompt = useCallback((promptId: string) => dispatch({ type: 'prompt-dismissed', promptId }), []);

  /** Asks the hub to change a held prompt: the prompt as it now is, or the refusal's words. */
  const changeHeld = useCallback(async (ask: () => Promise<{ prompt: Prompt }>): Promise<string | null> => {
    try {
      dispatch({ type: 'prompt', prompt: (await ask()).prompt });
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }, []);
  const editPrompt = useCallback((promptId: string, text: string) => changeHeld(() => requestHub('prompt:edit', { sessionId, promptId, text })), [changeHeld, sessionId]);
  const withdrawPrompt = useCallback((promptId: string) => changeHeld(() => requestHub('prompt:withdraw', { sessionId, promptId })), [changeHeld, sessionId]);

  const abort = useCallback(async () => {
    await requestHub('session:abort', { sessionId });
  }, [sessionId]);

  return { ...state, loadEarlier, sendPrompt, retryPrompt, dismissPrompt, editPrompt, withdrawPrompt, abort };
}
