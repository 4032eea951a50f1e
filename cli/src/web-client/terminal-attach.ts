// terminal-attach.ts: one session's terminal through the hub's /web terminal room, for `tether
// attach`: the same subscribe / input / resize / ack a phone uses, with bytes handed over in
// offset order (a snapshot resets the screen and the position).
//
//   hub ─terminal:output {offset}─► here (drop what was already written) ─► onOutput(bytes)
//   hub ─terminal:snapshot───────► onReset(serialized screen)
//   keys ─input()─► terminal:input      size ─resize()─► terminal:desk {attached, cols, rows}
//   (the desk owns the PTY size while attached; the runner reports deskAttached to the hub)
//
// The hub may go away (restart, network): with a reconnecting client the attachment stays, says so,
// and on reconnect re-subscribes (a fresh snapshot repaints the screen over the notices) and
// announces the desk again, right away and on that snapshot (which only comes once the runner is
// back on the hub: before that the announcement has nobody to reach).
import { isFinalStatus, type Session } from '@tether/shared';
import type { WebClient } from './web-client.ts';

export type TerminalAttachment = {
  input(data: string): void;
  resize(size: { cols: number; rows: number }): void;
  /** Resolves with why the attachment ended: the session ended or the hub went away. */
  ended: Promise<string>;
  close(): void;
};

export async function attachTerminal(options: {
  client: WebClient;
  sessionId: string;
  onOutput: (data: Uint8Array) => void;
  onReset: (screen: string) => void;
  /** Lost the hub / back: a line for the user (without it, losing the hub ends the attachment). */
  onNotice?: (line: string) => void;
}): Promise<TerminalAttachment> {
  const { client, sessionId } = options;
  const socket = client.socket;
  let next = 0;
  let closed = false;
  let away = false;
  /** The desk's size, announced again after a reconnect. */
  let size: { cols: number; rows: number } | null = null;
  let announceOnSnapshot = false;
  const announce = () => {
    if (!closed && size) socket.emit('terminal:desk', { sessionId, attached: true, cols: size.cols, rows: size.rows });
  };
  let finish: (why: string) => void = () => {};
  const ended = new Promise<string>((resolve) => (finish = resolve));

  const onOutput = (payload: { sessionId: string; offset: number; data: Uint8Array | ArrayBuffer }) => {
    if (payload.sessionId !== sessionId || closed) return;
    const bytes = payload.data instanceof Uint8Array ? payload.data : new Uint8Array(payload.data);
    const end = payload.offset + bytes.byteLength;
    if (end <= next) return;
    options.onOutput(payload.offset < next ? bytes.subarray(next - payload.offset) : bytes);
    next = end;
    socket.emit('terminal:ack', { sessionId, offset: next });
  };
  const onSnapshot = (payload: { sessionId: string; offset: number; data: string }) => {
    if (payload.sessionId !== sessionId || closed) return;
    options.onReset(payload.data);
    next = payload.offset;
    socket.emit('terminal:ack', { sessionId, offset: next });
    if (announceOnSnapshot) {
      announceOnSnapshot = false;
      announce();
    }
  };
  const onSession = (session: Session) => {
    if (session.id === sessionId && isFinalStatus(session.status)) {
      finish(`session ${session.status}${session.failureReason ? `: ${session.failureReason}` : ''}`);
    }
  };
  const onDisconnect = (reason: string) => {
    if (closed) return;
    // 'io client disconnect' is our own close; without a notice sink nobody would hear of a retry.
    if (!options.onNotice || reason === 'io client disconnect' || !socket.io.opts.reconnection) return finish(`lost the hub (${reason})`);
    away = true;
    options.onNotice(`lost the hub (${reason}); reconnecting… (Ctrl-] detaches)`);
  };
  const rejoin = async () => {
    const watched = await client.request('session:watch', { sessionId, afterSeq: Number.MAX_SAFE_INTEGER });
    if (!watched.ok) return finish(`cannot re-attach: ${watched.error}`);
    if (isFinalStatus(watched.session.status)) return onSession(watched.session);
    // No `since`: a snapshot repaints the desk over the notices written meanwhile.
    const subscribed = await client.request('terminal:subscribe', { sessionId });
    if (!subscribed.ok) return finish(`cannot re-attach to the terminal: ${subscribed.error}`);
    announceOnSnapshot = true;
    announce();
    options.onNotice?.('back on the hub');
  };
  const onConnect = () => {
    if (!away || closed) return;
    away = false;
    rejoin().catch((error: unknown) => finish(`cannot re-attach: ${error instanceof Error ? error.message : String(error)}`));
  };
  socket.on('terminal:output', onOutput);
  socket.on('terminal:snapshot', onSnapshot);
  socket.on('session:updated', onSession);
  socket.on('disconnect', onDisconnect);
  socket.on('connect', onConnect);
  const detach = () => {
    socket.off('terminal:output', onOutput);
    socket.off('terminal:snapshot', onSnapshot);
    socket.off('session:updated', onSession);
    socket.off('disconnect', onDisconnect);
    socket.off('connect', onConnect);
  };

  const ack = await client.request('terminal:subscribe', { sessionId });
  if (!ack.ok) {
    detach();
    throw new Error(`cannot attach to the terminal: ${ack.error}`);
  }
  if (ack.mode === 'bytes') next = Math.max(next, 0);

  return {
    input: (data) => {
      // Keys typed while the hub is away are dropped, not queued to land in some later state.
      if (!closed && !away) socket.emit('terminal:input', { sessionId, data });
    },
    resize: ({ cols, rows }) => {
      size = { cols, rows };
      announce();
    },
    ended,
    close: () => {
      if (closed) return;
      closed = true;
      detach();
      // Unsubscribing detaches the desk on the hub too (and so does a dropped connection).
      socket.emit('terminal:unsubscribe', { sessionId });
      finish('detached');
    },
  };
}
