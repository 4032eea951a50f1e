// terminal-attach.ts: one session's terminal through the hub's /web terminal room, for `tether
// attach`: the same subscribe / input / resize / ack a phone uses, with bytes handed over in
// offset order (a snapshot resets the screen and the position).
//
//   hub ─terminal:output {offset}─► here (drop what was already written) ─► onOutput(bytes)
//   hub ─terminal:snapshot───────► onReset(serialized screen)
//   keys ─input()─► terminal:input      size ─resize()─► terminal:desk {attached, cols, rows}
//   (the desk owns the PTY size while attached; the runner reports deskAttached to the hub)
import type { Session } from '@tether/shared';
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
}): Promise<TerminalAttachment> {
  const { client, sessionId } = options;
  const socket = client.socket;
  let next = 0;
  let closed = false;
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
  };
  const onSession = (session: Session) => {
    if (session.id === sessionId && (session.status === 'ended' || session.status === 'failed')) {
      finish(`session ${session.status}${session.failureReason ? `: ${session.failureReason}` : ''}`);
    }
  };
  const onDisconnect = (reason: string) => finish(`lost the hub (${reason})`);
  socket.on('terminal:output', onOutput);
  socket.on('terminal:snapshot', onSnapshot);
  socket.on('session:updated', onSession);
  socket.on('disconnect', onDisconnect);
  const detach = () => {
    socket.off('terminal:output', onOutput);
    socket.off('terminal:snapshot', onSnapshot);
    socket.off('session:updated', onSession);
    socket.off('disconnect', onDisconnect);
  };

  const ack = await client.request('terminal:subscribe', { sessionId });
  if (!ack.ok) {
    detach();
    throw new Error(`cannot attach to the terminal: ${ack.error}`);
  }
  if (ack.mode === 'bytes') next = Math.max(next, 0);

  return {
    input: (data) => {
      if (!closed) socket.emit('terminal:input', { sessionId, data });
    },
    resize: ({ cols, rows }) => {
      if (!closed) socket.emit('terminal:desk', { sessionId, attached: true, cols, rows });
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
