// web-client.ts: a `/web` socket for CLI verbs that act like a phone (`tether send`, `tether chat`).
// The hub accepts an access token on /web as well as a browser session. One connect attempt, a
// clear error when the hub is unreachable or refuses the token; acks with a timeout.
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, type Ack, type WebAcks, type WebEventName, type WebPayload } from '@tether/shared';

/** A CLI user waits this long for the hub before being told it is unreachable. */
const CONNECT_TIMEOUT_MS = 8_000;
const ACK_TIMEOUT_MS = 10_000;

export type WebClient = {
  socket: Socket;
  request<E extends WebEventName>(event: E, payload: WebPayload<E>): Promise<Ack<WebAcks[E]>>;
  close(): void;
};

export async function connectWebClient(options: { hubUrl: string; token: string; device: string; reconnection?: boolean }): Promise<WebClient> {
  const socket = io(`${options.hubUrl.replace(/\/+$/, '')}/web`, {
    transports: ['websocket'],
    reconnection: options.reconnection ?? false,
    timeout: CONNECT_TIMEOUT_MS,
    auth: { protocol: PROTOCOL_VERSION.major, client: 'cli', token: options.token, device: options.device },
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`hub at ${options.hubUrl} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.close();
      reject(error);
    };
    const refused = (error: Error) => fail(new Error(`cannot connect to the hub at ${options.hubUrl}: ${error.message}`));
    socket.once('connect', () => {
      clearTimeout(timer);
      // Only the first attempt fails the verb; later ones (reconnection: true) keep retrying.
      socket.off('connect_error', refused);
      resolve();
    });
    socket.once('connect_error', refused);
  });
  return {
    socket,
    request: async (event, payload) => (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload)) as Ack<WebAcks[typeof event]>,
    close: () => socket.close(),
  };
}
