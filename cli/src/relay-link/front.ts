// front.ts: where the relay tunnel ends on the hub's machine (ssh -R's target, loopback only). Each
// connection starts with nginx's PROXY line and a ClientHello; the front ends TLS itself with the
// hub's own certificate, so the relay only ever carries ciphertext.
//
//   PROXY + ClientHello ─► ALPN acme-tls/1 ─► the TLS-ALPN-01 challenge certificate, then closed
//                        └► otherwise ─► TLS (the hub's certificate, swapped on renewal)
//                             ─► plaintext to the hub's http port, from a loopback source (peers.ts)
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { TLSSocket, createSecureContext, type SecureContext } from 'node:tls';
import { readPreface } from './client-hello.ts';
import type { Peers } from './peers.ts';

/** A tunnelled client must send its ClientHello within this (a half-open flood costs nothing). */
const PREFACE_TIMEOUT_MS = 5_000;

export type Pem = { key: string; cert: string };

export type Front = {
  port: number;
  /** The certificate phones get (a renewal calls it again; live connections keep theirs). */
  setCertificate(pem: Pem): void;
  /** The TLS-ALPN-01 answer while a validation runs (null after). */
  setChallenge(pem: Pem | null): void;
  stats(): { connections: number; refused: number };
  close(): Promise<void>;
};

export async function startFront(options: { hub: { host: string; port: number }; peers: Peers; log: (line: string) => void }): Promise<Front> {
  let certificate: SecureContext | null = null;
  let challenge: SecureContext | null = null;
  let connections = 0;
  let refused = 0;
  const open = new Set<Socket>();

  const plaintextToHub = (tls: TLSSocket, client: string) => {
    const source = options.peers.take(client);
    if (!source) return tls.destroy();
    const upstream = connect({ host: options.hub.host, port: options.hub.port, localAddress: source });
    upstream.setNoDelay(true);
    tls.setNoDelay?.(true);
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      options.peers.release(source);
      tls.destroy();
      upstream.destroy();
    };
    tls.pipe(upstream).pipe(tls);
    for (const end of [tls, upstream]) {
      end.once('close', done);
      end.once('error', done);
    }
  };

  const accept = (socket: Socket) => {
    // Keystrokes are tiny writes: without this, Nagle holds one behind an unacked segment until
    // the peer's delayed ACK (40 ms on Linux).
    socket.setNoDelay(true);
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => {
      refused++;
      socket.destroy();
    }, PREFACE_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const read = readPreface(buffered);
      if (read.kind === 'more') return;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      if (read.kind === 'bad') {
        refused++;
        return void socket.destroy();
      }
      const acme = read.alpn.includes('acme-tls/1');
      const context = acme ? challenge : certificate;
      if (!context) {
        refused++;
        return void socket.destroy();
      }
      socket.unshift(read.rest);
      connections++;
      const tls = new TLSSocket(socket, { isServer: true, secureContext: context, ALPNProtocols: acme ? ['acme-tls/1'] : ['http/1.1'] });
      tls.on('error', () => tls.destroy());
      // The CA only needs the handshake: it reads the certificate and hangs up.
      tls.once('secure', () => (acme ? tls.end() : plaintextToHub(tls, read.client)));
    };
    socket.on('data', onData);
  };

  const server = createServer(accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    setCertificate(pem) {
      certificate = createSecureContext(pem);
    },
    setChallenge(pem) {
      challenge = pem ? createSecureContext(pem) : null;
    },
    stats: () => ({ connections, refused }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
