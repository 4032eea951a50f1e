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
  WebEventSchemas,
  type Namespace,
  type AckError,
  type Session,
  type WebAcks,
} from '@tether/shared';
import type { Store } from '../store/store.ts';
import { queuePrompt } from '../sessions/prompt-relay.ts';
import { answerAndAnnounce } from '../approvals/announce.ts';
import type { Broadcast } from './broadcast.ts';
import type { TerminalViewers } from './terminal-viewers.ts';
import { handleSocketEvents, type HubSocket } from './handle.ts';
import type { createSessionControl } from './session-control.ts';
import type { ShellRelay } from './shells.ts';

/** Messages a watch ack backfills at most; the client pages further over REST or re-watches. */
const WATCH_BACKFILL_LIMIT = 500;
const NO_SESSION = 'no such session';

export function bindWebSocket(options: {
  socket: HubSocket;
  store: Store;
  broadcast: Broadcast;
  viewers: TerminalViewers;
  onError: (event: string, error: unknown) => void;
  control: ReturnType<typeof createSessionControl>;
  shells: ShellRelay;
}): void {
  const { socket, store, broadcast, viewers } = options;
  const ns: Namespace = socket.data.caller.namespace;
  // A share-link socket sees exactly one session; every other id is "not found".
  const share = socket.data.share;
  const session = async (sessionId: string) => (share && share.sessionId !== sessionId ? null : await store.getSession({ namespace: ns, sessionId }));
  /** A command for a live session's runner: the session must be this namespace's and not ended.
   *  `send` relays it (and may refuse it with an ack error of its own). */
  const toLiveRunner = async (sessionId: string, send: (current: Session) => AckError | void): Promise<AckError | { ok: true }> => {
    const current = await session(sessionId);
    if (!current) return ackError('not_found', NO_SESSION);
    if (isFinalStatus(current.status)) return ackError('gone', 'session has ended');
    return send(current) ?? { ok: true };
  };
  // One viewer per socket per terminal (its socket id): a second tab or device is another viewer.
  // Where the stream comes from (this hub's room, or the runner's hub) is terminal-viewers.ts's.
  /** Input and resize need a live session this socket subscribed to. */
  const liveTerminal = async (sessionId: string): Promise<AckError | null> => {
    const current = await session(sessionId);
    if (!current) return ackError('not_found', NO_SESSION);
    if (isFinalStatus(current.status)) return ackError('gone', 'session has ended');
    if (!socket.data.terminals.has(sessionId)) return ackError('conflict', 'subscribe to the terminal first');
    return null;
  };

  /** Sessions this socket is the desk terminal of (`tether attach`): leaving detaches the desk. */
  const deskOf = new Set<string>();
  const deskDetached = async (sessionId: string) => {
    if (!deskOf.delete(sessionId)) return;
    await viewers.desk(socket, sessionId, { attached: false });
  };

  // The namespace room carries every session's updates: not for a share link.
  if (!share) void socket.join(namespaceRoom(ns));

  handleSocketEvents<typeof WebEventSchemas, WebAcks>({
    socket,
    schemas: WebEventSchemas,
    onError: options.onError,
    unordered: WAITS_ON_OTHERS,
    handlers: readOnlyIf(share !== null, {
      'session:watch': async ({ sessionId, afterSeq }) => {
        const current = await session(sessionId);
        if (!current) return ackError('not_found', NO_SESSION);
        await socket.join(sessionRoom(ns, sessionId));
        // With afterSeq: what this tab missed. Without: the latest page (a fresh tab shows the end).
        const page = await store.listMessages({
          namespace: ns,
          sessionId,
          limit: WATCH_BACKFILL_LIMIT,
          ...(afterSeq !== undefined ? { after: afterSeq } : {}),
        });
        // A share link gets what GET /api/share/<token> gives: no pending requests (their toolInput
        // is what the owner is asked to allow, not part of the read-only view).
        const pending = share ? [] : await store.listPending({ namespace: ns, sessionId });
        return { ok: true, session: current, messages: page?.messages ?? [], more: page?.more ?? false, pending };
      },
      'session:unwatch': async ({ sessionId }) => {
        if (!(await session(sessionId))) return ackError('not_found', NO_SESSION);
        await socket.leave(sessionRoom(ns, sessionId));
        return { ok: true };
      },
      'prompt:send': async (send) => {
        const result = await queuePrompt({ store, namespace: ns, send });
        if (result.kind === 'not_found') return ackError('not_found', NO_SESSION);
        if (result.kind === 'ended') return ackError('gone', 'session has ended');
        if (result.deliver) {
          broadcast.toRunner(ns, send.sessionId, 'prompt:deliver', { sessionId: send.sessionId, promptId: result.prompt.id, text: result.prompt.text });
        }
        broadcast.toNamespace(ns, 'prompt:updated', result.prompt);
        return { ok: true, prompt: result.prompt };
      },
      'session:abort': ({ sessionId }) => toLiveRunner(sessionId, () => broadcast.toRunner(ns, sessionId, 'session:abort', { sessionId })),
      'session:set-model': ({ sessionId, model }) => toLiveRunner(sessionId, () => broadcast.toRunner(ns, sessionId, 'session:set-model', { sessionId, model })),
      'session:set-effort': ({ sessionId, level }) =>
        toLiveRunner(sessionId, (current) => {
          // claude's `/effort` is typed at the prompt: only a PTY session has one.
          if (current.launchKind !== 'pty') return ackError('bad_request', 'effort can only be changed in a PTY session');
          broadcast.toRunner(ns, sessionId, 'session:set-effort', { sessionId, level });
        }),
      // Bypass is refused by the runner unless the user started the session allowing it (the hub
      // does not know how it was started; claude's own Shift+Tab cycle enforces it too).
      'session:set-mode': ({ sessionId, mode }) => toLiveRunner(sessionId, () => broadcast.toRunner(ns, sessionId, 'session:set-mode', { sessionId, mode })),
      'approval:answer': async ({ requestId, answer }) => {
        const caller = socket.data.caller;
        const result = await answerAndAnnounce({
          store,
          facts: broadcast,
          namespace: ns,
          requestId,
          answer,
          answeredBy: caller.label || caller.tokenId,
          device: socket.data.device,
        });
        if (result.kind === 'not_found') return ackError('not_found', 'no such request');
        if (result.kind === 'conflict') return ackError('conflict', 'already answered');
        if (result.kind === 'invalid') return ackError('bad_request', result.reason);
        return { ok: true, resolution: result.resolution };
      },
      'terminal:subscribe': async ({ sessionId, since }) => {
        const current = await session(sessionId);
        if (!current) return ackError('not_found', NO_SESSION);
        socket.data.terminals.add(sessionId);
        // Output may reach the socket before this ack: the client places bytes by their offset.
        const ack = await viewers.subscribe(socket, current, since);
        if (!ack.ok) socket.data.terminals.delete(sessionId);
        return ack;
      },
      'terminal:unsubscribe': async ({ sessionId }) => {
        if (!(await session(sessionId))) return ackError('not_found', NO_SESSION);
        await deskDetached(sessionId);
        viewers.unsubscribe(socket, sessionId);
        socket.data.terminals.delete(sessionId);
        return { ok: true };
      },
      'terminal:input': async ({ sessionId, data }) => {
        const refused = await liveTerminal(sessionId);
        if (refused) return refused;
        const result = await viewers.input(socket, sessionId, data);
        if (typeof result === 'object') return result;
        switch (result) {
          case 'written':
          case 'dropped':
            return { ok: true };
          case 'read-only':
            return ackError('forbidden', 'this viewer is read-only');
          case 'not-joined':
            return ackError('conflict', 'subscribe to the terminal first');
          default: {
            const never: never = result;
            return never;
          }
        }
      },
      'terminal:resize': async ({ sessionId, cols, rows, fit }) => {
        const refused = await liveTerminal(sessionId);
        if (refused) return refused;
        const result = await viewers.resize(socket, sessionId, { cols, rows }, fit);
        if (typeof result === 'object') return result;
        if (result === 'read-only') return ackError('forbidden', 'this viewer is read-only');
        if (result === 'not-joined') return ackError('conflict', 'subscribe to the terminal first');
        return { ok: true };
      },
      'terminal:desk': async ({ sessionId, attached, cols, rows }) => {
        const refused = await liveTerminal(sessionId);
        if (refused) return refused;
        if (!attached) {
          await deskDetached(sessionId);
          return { ok: true };
        }
        // The runner resizes the PTY and reports it with desk: true; the room's size owner follows.
        if (!(await viewers.desk(socket, sessionId, { attached: true, ...(cols && rows ? { cols, rows } : {}) }))) return ackError('conflict', 'subscribe to the terminal first');
        deskOf.add(sessionId);
        return { ok: true };
      },
      'terminal:ack': async ({ sessionId, offset }) => {
        // Subscribing checked the namespace; acks are frequent, so they skip the store lookup.
        if (!socket.data.terminals.has(sessionId) && !(await session(sessionId))) return ackError('not_found', NO_SESSION);
        viewers.ack(socket, sessionId, offset);
        return { ok: true };
      },
      'client:visibility': ({ visible }) => {
        // Read by web push (hub/src/push): no tab on screen → the namespace gets a push.
        socket.data.visible = visible;
        return { ok: true };
      },
      ...options.control.webHandlers(socket),
      ...options.shells.webHandlers(socket),
    }),
  });

  socket.on('disconnect', () => {
    for (const sessionId of [...deskOf]) void deskDetached(sessionId);
    viewers.viewerGone(socket);
    options.shells.viewerGone(socket);
  });
}

/** Events that wait on a daemon or a runner (seconds): handled outside the socket's order so that
 *  typing into a terminal does not queue behind a session start. */
const WAITS_ON_OTHERS: ReadonlySet<string> = new Set(['session:spawn', 'session:resume', 'session:stop', 'shell:open', 'shell:input', 'shell:resize', 'shell:close']);

/** What a read-only share link may do: watch its one session and its terminal (never a shell). */
const SHARE_ALLOWED: ReadonlySet<string> = new Set(['session:watch', 'session:unwatch', 'terminal:subscribe', 'terminal:unsubscribe', 'terminal:ack']);

/** For a read-only connection every other handler answers `forbidden` without acting. */
function readOnlyIf<H extends Record<string, (payload: never) => unknown>>(readOnly: boolean, handlers: H): H {
  if (!readOnly) return handlers;
  const out: Record<string, unknown> = {};
  for (const [event, handler] of Object.entries(handlers)) {
    out[event] = SHARE_ALLOWED.has(event) ? handler : () => ackError('forbidden', 'this share link is read-only');
  }
  return out as H;
}
