// front.ts: where the relay tunnel ends on the hub's machine (ssh -R's target, loopback only). Each
// connection starts with nginx's PROXY line and, around everything after it, the relay's hop TLS;
// inside that, the phone's TLS, which the front ends itself with the hub's own certificate, so the
// relay only ever carries ciphertext.
//
//   PROXY line ─► hop TLS: the client shows the relay's certificate (join code's fingerprint)?
//     no ─► closed (a PROXY line from anyone else: another user of either box, a client)
//     yes ─► phone's ClientHello: SNI this hub's name? no ─► closed
//            ALPN acme-tls/1 ─► the TLS-ALPN-01 challenge certificate, then closed
//            otherwise ─► TLS (the hub's certificate, swapped on renewal)
//                         ─► plaintext to the hub's http port, from a loopback source (peers.ts),
//                            each request line checked on the way (http-gate.ts: absolute-form)
// Invariant: nothing reaches the hub, and no address is remembered, before the hop handshake proved
// the relay's key; a connection is refused by closing it (counted in stats, never logged per connection).
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { TLSSocket, createSecureContext, type SecureContext } from 'node:tls';
import { makeHopIdentity } from '../relay/hop-identity.ts';
import { readClientHello, readProxyLine, sameName } from './client-hello.ts';
import { createHttpGate, type Refusal } from './http-gate.ts';
import type { Peers } from './peers.ts';

/** A tunnelled client must be through the hop handshake and its ClientHello within this (a
 *  half-open flood costs nothing). */
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

export type FrontOptions = {
  /** checkTarget: the hub's Host allowlist for a raw request-target (http-gate.ts). */
  hub: { host: string; port: number; checkTarget: (target: string) => Response | null };
  peers: Peers;
  /** The relay name this hub serves (the join code's): the only SNI taken. */
  name: string;
  /** SHA-256 of the relay's hop certificate (the join code's `hop`). */
  hop: string;
  log: (line: string) => void;
};

/** A refusal as raw HTTP/1.1 bytes: the hub's own answer (its 421) when it gave one. */
async function answerOf(refusal: Refusal): Promise<Buffer> {
  const body = refusal.answer ? Buffer.from(await refusal.answer.arrayBuffer()) : Buffer.from(`${refusal.status} ${refusal.reason}\n`);
  const type = refusal.answer?.headers.get('content-type') ?? 'text/plain; charset=utf-8';
  const text = ({ 421: 'Misdirected Request', 431: 'Request Header Fields Too Large', 502: 'Bad Gateway' } as Record<number, string>)[refusal.status] ?? 'Bad Request';
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${refusal.status} ${text}\r\ncontent-type: ${type}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`), body]);
}

export async function startFront(options: FrontOptions): Promise<Front> {
  let certificate: SecureContext | null = null;
  let challenge: SecureContext | null = null;
  let connections = 0;
  let refused = 0;
  const open = new Set<Socket>();
  // The hop's server side: nginx does not check it (it cannot pin one per hub), so a fresh one per run.
  const hopContext = createSecureContext(await makeHopIdentity({ commonName: 'tether relay front', years: 30 }));

  const plaintextToHub = (tls: TLSSocket, client: string) => {
    const source = options.peers.take(client);
    if (!source) return tls.destroy();
    const upstream = connect({ host: options.hub.host, port: options.hub.port, localAddress: source });
    upstream.setNoDelay(true);
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      options.peers.release(source);
      tls.destroy();
      upstream.destroy();
    };
    const gate = createHttpGate({ checkTarget: options.hub.checkTarget });
    const toHub = (bytes: Buffer) => {
      if (bytes.length > 0 && !upstream.write(bytes)) tls.pause();
    };
    const refuse = (refusal: Refusal) => {
      tls.pause();
      upstream.destroy();
      // An answer may go back only when none of the hub's is owed (else it would cut into one).
      if (!gate.idle()) return done();
      void answerOf(refusal).then((bytes) => tls.end(bytes, done));
    };
    upstream.on('drain', () => tls.resume());
    tls.on('drain', () => upstream.resume());
    tls.on('data', (chunk: Buffer) => {
      const step = gate.fromClient(chunk);
      if (step.refuse) return refuse(step.refuse);
      toHub(step.forward);
    });
    upstream.on('data', (chunk: Buffer) => {
      const step = gate.fromHub(chunk);
      // 502: the hub's answer could not be framed; nothing more can be sent to the client safely.
      if (step.refuse?.status === 502) return done();
      if (!tls.write(chunk)) upstream.pause();
      toHub(step.forward);
      // A refused Upgrade released what the client sent after it, and that was refused.
      if (step.refuse) refuse(step.refuse);
    });
    tls.on('end', () => upstream.end());
    upstream.on('end', () => tls.end());
    for (const end of [tls, upstream]) {
      end.once('close', done);
      end.once('error', done);
    }
  };

  /** Reads from `stream` until `read` says done or bad; the rest is put back for the next layer. */
  const preface = <T extends { kind: string }>(stream: Socket | TLSSocket, read: (buffered: Buffer) => T, then: (result: Exclude<T, { kind: 'more' }>) => void) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const result = read(buffered);
      if (result.kind === 'more') return;
      stream.off('data', onData);
      stream.pause();
      then(result as Exclude<T, { kind: 'more' }>);
    };
    stream.on('data', onData);
  };

  const accept = (socket: Socket) => {
    // Keystrokes are tiny writes: without this, Nagle holds one behind an unacked segment until
    // the peer's delayed ACK (40 ms on Linux).
    socket.setNoDelay(true);
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    let settled = false;
    const refuse = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      refused++;
      socket.destroy();
    };
    const timer = setTimeout(refuse, PREFACE_TIMEOUT_MS);
    preface(socket, readProxyLine, (line) => {
      if (line.kind === 'bad') return refuse();
      socket.unshift(line.rest);
      const hop = new TLSSocket(socket, { isServer: true, secureContext: hopContext, requestCert: true, rejectUnauthorized: false });
      hop.on('error', () => {
        refuse();
        hop.destroy();
      });
      hop.once('secure', () => {
        // The handshake proved the key of whatever certificate was shown; only the relay's counts.
        if (hop.getPeerCertificate()?.fingerprint256 !== options.hop) return refuse();
        preface(hop, readClientHello, (hello) => {
          if (hello.kind === 'bad' || !sameName(hello.serverName, options.name)) return refuse();
          const acme = hello.alpn.includes('acme-tls/1');
          const context = acme ? challenge : certificate;
          if (!context) return refuse();
          settled = true;
          clearTimeout(timer);
          hop.unshift(hello.rest);
          connections++;
          const tls = new TLSSocket(hop, { isServer: true, secureContext: context, ALPNProtocols: acme ? ['acme-tls/1'] : ['http/1.1'] });
          tls.on('error', () => tls.destroy());
          tls.once('close', () => socket.destroy());
          // The CA only needs the handshake: it reads the certificate and hangs up.
          tls.once('secure', () => (acme ? tls.end() : plaintextToHub(tls, line.client)));
        });
      });
    });
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
