// hub.ts (harness): a hub in a private place. startHub runs createHub in this process on port 0 with
// a temp TETHER_HOME and a first token; startHubProcess spawns the real `tether hub` as a child
// process (for SIGKILL/restart tests). connectSocket opens a real socket.io client to /cli or /web.
//
//   test ─► startHub ─► createHub({ port: 0, home: tmp }) ─► { url, token, store, stop }
//   test ─► startHubProcess ─► bun cli/src/main.ts hub --port 0 ─► first stdout line has the URL
//
// Invariant: stop() releases everything it made (server, sockets, temp home, child process).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import { createAccessToken, createHub, type HubConfig, type Store } from '@tether/hub';
import { PROTOCOL_VERSION, type Ack, type Attachment, type ClientKind, type InstallKind } from '@tether/shared';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI_MAIN = join(REPO_ROOT, 'cli', 'src', 'main.ts');
/** A child hub that has not printed its URL by then is broken, not slow (it starts in < 1 s). */
const PROCESS_START_TIMEOUT_MS = 20_000;
/** Default namespace of the first token, as `tether hub` creates it. */
export const DEFAULT_NAMESPACE = 'default';

export type HubHandle = {
  url: string;
  home: string;
  /** An access token of `namespace`. */
  token: string;
  namespace: string;
  store: Store;
  /** A fresh access token for any namespace (created directly in the store). */
  createToken(namespace: string, label?: string): Promise<string>;
  stop(): Promise<void>;
};

export function makeTempHome(prefix = 'tether-hub-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startHub(
  options: {
    home?: string;
    webDist?: string;
    revocationCheckMs?: number;
    /** A renewable paired device's session, and the grace for two tabs refreshing at once. */
    deviceSessionMs?: number;
    deviceRefreshGraceMs?: number;
    terminalLogBytes?: number;
    runnerGoneGraceMs?: number;
    shell?: boolean;
    /** Push endpoints may be http on 127.0.0.1 (push-endpoint.ts, the local push service). */
    devPushEndpoints?: boolean;
    /** Dictation's transcription endpoint (tests/fixtures/fake-transcription). */
    transcription?: { baseUrl: string; apiKey?: string; model: string };
    /** How the hub's tether says it was installed (`tether hub` passes cli/src/config/build.ts's kind). */
    install?: InstallKind;
    /** Schedules' clock (hub/src/testing/manual-clock.ts: moved by the test). */
    schedules?: HubConfig['schedules'];
    /** One of several hubs on this PostgreSQL database (in this process: they share a test's clock). */
    databaseUrl?: string;
    /** Sessions at their usage limit: the default choice and short margins (hub/src/usage-limits). */
    limits?: HubConfig['limits'];
  } = {},
): Promise<HubHandle> {
  const ownsHome = !options.home;
  const home = options.home ?? makeTempHome();
  const hub = await createHub({
    config: {
      port: 0,
      home,
      ...(options.webDist ? { webDist: options.webDist } : {}),
      ...(options.revocationCheckMs !== undefined ? { revocationCheckMs: options.revocationCheckMs } : {}),
      ...(options.deviceSessionMs !== undefined ? { deviceSessionMs: options.deviceSessionMs } : {}),
      ...(options.deviceRefreshGraceMs !== undefined ? { deviceRefreshGraceMs: options.deviceRefreshGraceMs } : {}),
      ...(options.terminalLogBytes !== undefined ? { terminalLogBytes: options.terminalLogBytes } : {}),
      ...(options.runnerGoneGraceMs !== undefined ? { runnerGoneGraceMs: options.runnerGoneGraceMs } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.shell ? { shell: true } : {}),
      ...(options.devPushEndpoints ? { devPushEndpoints: true } : {}),
      ...(options.transcription ? { transcription: options.transcription } : {}),
      ...(options.install ? { install: options.install } : {}),
      ...(options.schedules ? { schedules: options.schedules } : {}),
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    },
  });
  const createToken = async (namespace: string, label = `test ${namespace}`) =>
    (await createAccessToken({ store: hub.store, namespace, label })).token;
  const token = await createToken(DEFAULT_NAMESPACE, 'harness');
  return {
    url: hub.url,
    home,
    token,
    namespace: DEFAULT_NAMESPACE,
    store: hub.store,
    createToken,
    async stop() {
      await hub.stop();
      if (ownsHome) rmSync(home, { recursive: true, force: true });
    },
  };
}

export type HubProcessHandle = {
  url: string;
  port: number;
  home: string;
  /** The token printed on first start (null when the home already had tokens). */
  token: string | null;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGKILL (crash) or SIGTERM (graceful); resolves when the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
};

/** Spawns `bun cli/src/main.ts hub --port <port>` (or `<command> hub …`) with TETHER_HOME=home; resolves once the first
 *  line (with the URL) and, on a first start, the token are printed. */
export async function startHubProcess(options: { home: string; port?: number; env?: NodeJS.ProcessEnv; args?: string[]; command?: string[]; cwd?: string }): Promise<HubProcessHandle> {
  const [program, ...entry] = options.command ?? [process.execPath.endsWith('bun') ? process.execPath : 'bun', CLI_MAIN];
  const child = spawn(program!, [...entry, 'hub', '--port', String(options.port ?? 0), ...(options.args ?? [])], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env, TETHER_HOME: options.home, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const ready = new Promise<{ url: string; token: string | null }>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`hub process did not start in time:\n${out}\n${err}`)), PROCESS_START_TIMEOUT_MS);
    const check = () => {
      const firstLine = out.split('\n')[0] ?? '';
      const url = /https?:\/\/[^\s]+/.exec(firstLine)?.[0];
      if (!url || !out.includes('\n')) return;
      // On a first start the token follows; the "ready" marker line comes after everything.
      if (!out.includes('tether hub ready')) return;
      clearTimeout(timer);
      const token = /\b(tth_[A-Za-z0-9_-]+)/.exec(out)?.[1] ?? null;
      resolveReady({ url: url.replace(/\/$/, ''), token });
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      check();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`hub process exited (${code}) before it was ready:\n${out}\n${err}`));
    });
  });
  const { url, token } = await ready;
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    home: options.home,
    token,
    child,
    output: () => out + err,
    kill,
    async stop() {
      await kill('SIGTERM');
    },
  };
}

/** A `tether hub` process on its own temp home that a test can kill and start again on the same
 *  port and SQLite file (clients keep their URL). Stopped and removed by the scope's `defer`. */
export type RestartableHub = {
  hub: { url: string; token: string };
  /** Kills the process (SIGKILL: a crash, or SIGTERM) and waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and home. */
  start(): Promise<void>;
  /** What the current process printed. */
  output(): string;
};

export async function startRestartableHub(defer: (cleanup: () => unknown) => void): Promise<RestartableHub> {
  const home = makeTempHome();
  defer(() => rmSync(home, { recursive: true, force: true }));
  let current = await startHubProcess({ home });
  defer(() => current.stop());
  const port = current.port;
  return {
    hub: { url: current.url, token: current.token! },
    kill: async (signal = 'SIGKILL') => {
      await current.kill(signal);
    },
    start: async () => {
      current = await startHubProcess({ home, port });
    },
    output: () => current.output(),
  };
}

export type SocketOptions = {
  url: string;
  nsp: '/cli' | '/web';
  token: string;
  client?: ClientKind;
  device?: string;
  protocol?: number;
  /** Off by default: a test decides when to reconnect. */
  reconnection?: boolean;
};

/** Opens a socket.io client and resolves once connected; rejects with the connect_error. */
export function connectSocket(options: SocketOptions): Promise<Socket> {
  const socket = io(options.url + options.nsp, {
    transports: ['websocket'],
    reconnection: options.reconnection ?? false,
    forceNew: true,
    auth: {
      protocol: options.protocol ?? PROTOCOL_VERSION.major,
      client: options.client ?? (options.nsp === '/cli' ? 'runner' : 'web'),
      token: options.token,
      ...(options.device ? { device: options.device } : {}),
    },
  });
  return new Promise((resolveSocket, reject) => {
    socket.once('connect', () => resolveSocket(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Emits with an ack and resolves with it (rejects after `timeoutMs` without one). */
export async function emitAck<T extends object = Record<string, unknown>>(
  socket: Socket,
  event: string,
  payload: unknown,
  timeoutMs = 10_000,
): Promise<Ack<T>> {
  return (await socket.timeout(timeoutMs).emitWithAck(event, payload)) as Ack<T>;
}

/** Resolves with the next `event` on `socket` (rejects after `timeoutMs`). */
/** A file the phone attaches to a prompt: uploaded to the session (201), as the web does. */
export async function uploadAttachment(hub: { url: string; token: string }, o: { sessionId: string; data: Uint8Array; name: string }): Promise<Attachment> {
  const res = await fetch(`${hub.url}/api/sessions/${o.sessionId}/attachments?name=${encodeURIComponent(o.name)}`, { method: 'POST', headers: { authorization: `Bearer ${hub.token}` }, body: o.data as Uint8Array<ArrayBuffer> });
  if (res.status !== 201) throw new Error(`upload of ${o.name}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { attachment: Attachment }).attachment;
}

export function nextEvent<T = unknown>(socket: Socket, event: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolveEvent, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, on);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (payload: T) => {
      clearTimeout(timer);
      resolveEvent(payload);
    };
    socket.once(event, on);
  });
}

/** `tether hub <args>` as a raw child process in a fresh temp TETHER_HOME, for tests of its command
 *  line (flags, refusals, what it prints): nothing waits for it to start. `env` is added to this
 *  process's environment minus the `unset` names (so an inherited setting cannot decide a test). */
export function spawnHubCommand(defer: (cleanup: () => unknown) => void, options: { args: string[]; env?: Record<string, string>; unset?: string[] }) {
  const home = mkdtempSync(join(tmpdir(), 'tether-hub-command-'));
  defer(() => rmSync(home, { recursive: true, force: true }));
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of options.unset ?? []) delete base[name];
  const proc = Bun.spawn([process.execPath, CLI_MAIN, 'hub', ...options.args], { env: { ...base, ...options.env, TETHER_HOME: home }, stdout: 'pipe', stderr: 'pipe' });
  defer(() => proc.kill('SIGKILL'));
  return proc;
}

/** Text of `stream` up to the first match of `pattern` (or all of it when the stream ends or
 *  `timeoutMs` passes first: the caller's expectation then shows what came). */
export async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs));
  while (!pattern.test(text)) {
    const chunk = await Promise.race([reader.read(), timeout]);
    if (chunk === null || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  reader.releaseLock();
  return text;
}
