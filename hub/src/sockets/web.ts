// web.ts: the `/web` namespace, spoken by browsers (web session) and CLI verbs that act like a phone
// (access token). Every socket joins its namespace room and hears about that namespace only.
// Each handler: validate (handle.ts) → check the session is in the caller's namespace → act → ack →
// broadcast / relay to the runner room.
// Invariant: every room joined here is built from the socket's authenticated namespace; a session of
// another namespace answers `not_found`, exactly like a missing one.
import {
  ackError,
  isFinalStatus,
  namespaceRoom,
  sessionRoom,
  terminalRoom,
  WebEventSchemas,
  type Namespace,
  type WebAcks,
} from '@tether/shared';
import type { Store } from '../store/store.ts';
import { queuePrompt } from '../sessions/prompt-relay.ts';
import { answerApproval } from '../approvals/answer.ts';
import type { Broadcast } from './broadcast.ts';
import { handleSocketEvents, type HubSocket } from './handle.ts';

/** Messages a watch ack backfills at most; the client pages further over REST or re-watches. */
const WATCH_BACKFILL_LIMIT = 500;
const NO_SESSION = 'no such session';

export function bindWebSocket(options: {
  socket: HubSocket;
  store: Store;
  broadcast: Broadcast;
  onError: (event: string, error: unknown) => void;
}): void {
  const { socket, store, broadcast } = options;
  const ns: Namespace = socket.data.caller.namespace;
  const session = (sessionId: string) => store.getSession({ namespace: ns, sessionId });
  const announceViewers = (sessionId: string) =>
    broadcast.toRunner(ns, sessionId, 'terminal:viewers', { sessionId, count: broadcast.terminalViewers(ns, sessionId) });

  void socket.join(namespaceRoom(ns));

  handleSocketEvents<typeof WebEventSchemas, WebAcks>({
    socket,
    schemas: WebEventSchemas,
    onError: options.onError,
    handlers: {
      'session:watch': async ({ sessionId, afterSeq }) => {
        const current = session(sessionId);
        if (!current) return ackError('not_found', NO_SESSION);
        await socket.join(sessionRoom(ns, sessionId));
        // With afterSeq: what this tab missed. Without: the latest page (a fresh tab shows the end).
        const page = store.listMessages({
          namespace: ns,
          sessionId,
          limit: WATCH_BACKFILL_LIMIT,
          ...(afterSeq !== undefined ? { after: afterSeq } : {}),
        });
        const pending = store.listPending({ namespace: ns, sessionId });
        return { ok: true, session: current, messages: page?.messages ?? [], more: page?.more ?? false, pending };
      },
      'session:unwatch': async ({ sessionId }) => {
        if (!session(sessionId)) return ackError('not_found', NO_SESSION);
        await socket.leave(sessionRoom(ns, sessionId));
        return { ok: true };
      },
      'prompt:send': (send) => {
        const result = queuePrompt({ store, namespace: ns, send });
        if (result.kind === 'not_found') return ackError('not_found', NO_SESSION);
        if (result.kind === 'ended') return ackError('gone', 'session has ended');
        if (result.deliver) {
          broadcast.toRunner(ns, send.sessionId, 'prompt:deliver', { sessionId: send.sessionId, promptId: result.prompt.id, text: result.prompt.text });
        }
        broadcast.toNamespace(ns, 'prompt:updated', result.prompt);
        return { ok: true, prompt: result.prompt };
      },
      'session:abort': ({ sessionId }) => {
        const current = session(sessionId);
        if (!current) return ackError('not_found', NO_SESSION);
        if (isFinalStatus(current.status)) return ackError('gone', 'session has ended');
        broadcast.toRunner(ns, sessionId, 'session:abort', { sessionId });
        return { ok: true };
      },
      'session:set-model': ({ sessionId, model }) => {
        const current = session(sessionId);
        if (!current) return ackError('not_found', NO_SESSION);
        if (isFinalStatus(current.status)) return ackError('gone', 'session has ended');
        broadcast.toRunner(ns, sessionId, 'session:set-model', { sessionId, model });
        return { ok: true };
      },
      'approval:answer': ({ requestId, answer }) => {
        const caller = socket.data.caller;
        const result = answerApproval({
          store,
          namespace: ns,
          requestId,
          answer,
          answeredBy: caller.label || caller.tokenId,
          device: socket.data.device,
        });
        if (result.kind === 'not_found') return ackError('not_found', 'no such request');
        if (result.kind === 'conflict') return ackError('conflict', 'already answered');
        const sessionId = result.request.sessionId;
        broadcast.toRunner(ns, sessionId, 'approval:answered', { sessionId, requestId, answer });
        broadcast.toNamespace(ns, 'approval:resolved', result.resolution);
        const updated = session(sessionId);
        if (updated) broadcast.toNamespace(ns, 'session:updated', updated);
        return { ok: true, resolution: result.resolution };
      },
      // Minimal terminal plumbing: namespace check + relay. Replay by offset is its own issue.
      'terminal:subscribe': async ({ sessionId, since }) => {
        if (!session(sessionId)) return ackError('not_found', NO_SESSION);
        await socket.join(terminalRoom(ns, sessionId));
        socket.data.terminals.add(sessionId);
        announceViewers(sessionId);
        broadcast.toRunner(ns, sessionId, 'terminal:snapshot-request', { sessionId });
        return { ok: true, mode: 'snapshot' as const, offset: since ?? 0 };
      },
      'terminal:unsubscribe': async ({ sessionId }) => {
        if (!session(sessionId)) return ackError('not_found', NO_SESSION);
        await socket.leave(terminalRoom(ns, sessionId));
        socket.data.terminals.delete(sessionId);
        announceViewers(sessionId);
        return { ok: true };
      },
      'terminal:input': ({ sessionId, data }) => {
        if (!session(sessionId)) return ackError('not_found', NO_SESSION);
        broadcast.toRunner(ns, sessionId, 'terminal:input', { sessionId, data });
        return { ok: true };
      },
      'terminal:resize': ({ sessionId, cols, rows }) => {
        if (!session(sessionId)) return ackError('not_found', NO_SESSION);
        broadcast.toRunner(ns, sessionId, 'terminal:resize', { sessionId, cols, rows });
        return { ok: true };
      },
      'terminal:ack': ({ sessionId }) => {
        if (!session(sessionId)) return ackError('not_found', NO_SESSION);
        return { ok: true };
      },
    },
  });

  socket.on('disconnect', () => {
    for (const sessionId of socket.data.terminals) announceViewers(sessionId);
  });
}
