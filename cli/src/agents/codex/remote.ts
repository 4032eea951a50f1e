// remote.ts: one live Codex thread on two screens. A headless session's `codex app-server` listens
// on a loopback WebSocket instead of stdio, guarded by a capability token (Codex compares the
// SHA-256 it is given on its command line; the token itself is never there), and tether is its first
// client over that socket. Codex's own TUI joins the same thread at the machine's desk with
// `codex resume <thread> --remote ws://127.0.0.1:<port> --remote-auth-token-env <VAR>`: each client
// sees the other's turns as they happen (docs/decisions/agents.md, "One Codex thread on two screens").
//
//   app-server --listen ws://127.0.0.1:0 --ws-auth capability-token --ws-token-sha256 <hex>
//     stderr "listening on: ws://127.0.0.1:<port>" ─► tether connects (Authorization: Bearer <token>)
//     one JSON-RPC message per WebSocket text frame ─► the same line connection as stdio (json-rpc.ts)
//
// Both sides are marked experimental by Codex; tether has run them at 0.160.0 and 0.171.0.
import { randomBytes } from 'node:crypto';
import { compareVersions } from '../version.ts';

/** The first Codex tether joined at its desk (both its listener's flags and the TUI's). */
export const JOIN_FROM = '0.160.0';

/** The first Codex seen joining a thread whose rollout is not written yet (a thread with no turn):
 *  0.160.0 refuses it ("thread/resume failed: no rollout found for thread id …"), 0.171.0 joins. */
export const JOIN_UNWRITTEN_FROM = '0.171.0';

/** The variable the joining TUI reads its token from (`--remote-auth-token-env`). */
export const JOIN_TOKEN_VARIABLE = 'TETHER_CODEX_JOIN_TOKEN';

/** How long the app server may take to say where it listens. */
const LISTENING_WAIT_MS = 30_000;
/** stderr kept while looking for the listening line. */
const LISTENING_KEEP_CHARS = 4_000;

/** Whether this Codex can be joined at the desk, and why not. */
export function joinSupport(version: string | null): { supported: true; version: string } | { supported: false; reason: string } {
  if (version === null) return { supported: false, reason: 'its version could not be read' };
  if (compareVersions(version, JOIN_FROM) < 0) return { supported: false, reason: `Codex ${version} predates the app server's WebSocket listener with a token that tether joins (from ${JOIN_FROM})` };
  return { supported: true, version };
}

/** Why this desk's Codex cannot join the thread yet, or null: one older than JOIN_UNWRITTEN_FROM
 *  finds no conversation before the thread's first turn is written. */
export function notYetJoinable(o: { version: string; transcriptWritten: boolean }): string | null {
  if (o.transcriptWritten || compareVersions(o.version, JOIN_UNWRITTEN_FROM) >= 0) return null;
  return `Codex ${o.version} joins a thread only once its first turn is written (from ${JOIN_UNWRITTEN_FROM} also before): send the session a prompt first`;
}

export type RemoteListener = { token: string; args: string[] };

/** A fresh token and the app server's arguments to listen for it on 127.0.0.1 (a port of its choosing). */
export function remoteListener(): RemoteListener {
  const token = randomBytes(32).toString('base64url');
  const sha256 = new Bun.CryptoHasher('sha256').update(token).digest('hex');
  return { token, args: ['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-sha256', sha256] };
}

/** The address in the app server's "listening on:" line; only a loopback one counts. */
export function listeningUrl(stderr: string): string | null {
  return /listening on: (ws:\/\/127\.0\.0\.1:\d{1,5})\b/.exec(stderr)?.[1] ?? null;
}

/** Resolves with the address once the app server has said it, or rejects when it has not in time. */
export function awaitListening(onStderr: (listener: (text: string) => void) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error(`codex app-server did not say where it listens within ${LISTENING_WAIT_MS / 1000} s`));
    }, LISTENING_WAIT_MS);
    onStderr((text) => {
      if (done) return;
      seen = (seen + text).slice(-LISTENING_KEEP_CHARS);
      const url = listeningUrl(seen);
      if (!url) return;
      done = true;
      clearTimeout(timer);
      resolve(url);
    });
  });
}

/** What the JSON-RPC line connection speaks through: a WebSocket as stdin and stdout. */
export type SocketPipes = { stdin: { write(data: string): void; flush(): void; end(): void }; stdout: ReadableStream<Uint8Array> };

/** Connects to the listener with the token and carries one message per frame, each read as one
 *  line. stdout ends when the socket closes; end() closes it. */
export function connectRemote(o: { url: string; token: string }): Promise<SocketPipes> {
  const socket = new WebSocket(o.url, { headers: { Authorization: `Bearer ${o.token}` } } as unknown as string[]);
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    controller?.close();
  };
  const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  socket.addEventListener('message', (event) => {
    if (!ended) controller?.enqueue(encoder.encode(`${typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data as ArrayBuffer)}\n`));
  });
  socket.addEventListener('close', end);
  return new Promise((resolve, reject) => {
    socket.addEventListener('open', () =>
      resolve({
        stdin: {
          write: (data) => {
            for (const line of data.split('\n')) if (line.trim() !== '' && socket.readyState === WebSocket.OPEN) socket.send(line);
          },
          flush: () => {},
          end: () => socket.close(),
        },
        stdout,
      }),
    );
    socket.addEventListener('error', () => {
      end();
      reject(new Error(`could not connect to codex app-server at ${o.url}`));
    });
  });
}

/** The app server's socket as the JSON-RPC connection's pipes, once it says where it listens; or
 *  why not (it exited first, it never said, the connection failed). Its stdout is drained. */
export async function openRemote(o: { pipes: { stdout: ReadableStream<Uint8Array>; onStderr(listener: (text: string) => void): void }; token: string; log: (line: string) => void }): Promise<(SocketPipes & { url: string }) | { error: string }> {
  const exited = (async () => {
    for await (const _ of o.pipes.stdout) {
      // nothing is said on stdout when it listens on a socket
    }
    throw new Error('codex app-server exited before it listened');
  })();
  try {
    const url = await Promise.race([awaitListening(o.pipes.onStderr), exited]);
    const pipes = await connectRemote({ url, token: o.token });
    o.log(`codex app-server listens on ${url} (a token guards it); tether joined it`);
    return { ...pipes, url };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The desk's command line that joins thread `threadId` at `url` (the token in JOIN_TOKEN_VARIABLE). */
export function joinArgs(o: { threadId: string; url: string }): string[] {
  return ['resume', o.threadId, '--remote', o.url, '--remote-auth-token-env', JOIN_TOKEN_VARIABLE];
}
