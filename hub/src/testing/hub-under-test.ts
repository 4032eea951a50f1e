// hub-under-test.ts: the test fixture for a real hub on port 0 and the socket.io clients a test talks
// to it with. It owns each test's hub (a temp home, an access token for one namespace, every socket
// opened, the stop and the removal of the home) so the socket tests keep only what is their own.
// Not a test file itself and not wired by main: only *.test.ts files import it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, type Ack } from '@tether/shared';
import { createHub, type Hub, type HubConfig } from '../main.ts';
import { createAccessToken } from '../auth/tokens.ts';
import { pairDevice } from './pair-device.ts';

export type HubUnderTestOptions = {
  /** The temp home's name prefix, e.g. 'tether-sockets-' (a leftover home names its test file). */
  home: string;
  /** The namespace of the test's own access token (`accessToken`) and its label. */
  namespace?: string;
  label?: string;
  /** How long `ack` waits unless a call says otherwise. */
  ackTimeoutMs?: number;
  /** More of the hub's config than its port (0) and home (the temp one). */
  config?: Partial<Omit<HubConfig, 'port' | 'home'>>;
  /** What the test started that must finish before its sockets close (a played runner's acks). */
  settle?: () => Promise<unknown>;
  /** A fresh PostgreSQL database per test (its URL); without it, SQLite in the temp home. A restart
   *  keeps the test's database. */
  database?: () => Promise<string>;
};

export type ConnectOptions = {
  nsp: '/cli' | '/web';
  /** Another access token (or a share token) than the test's own. */
  token?: string;
  device?: string;
  /** Who the socket says it is; by default a runner on /cli and a web tab on /web. */
  client?: 'runner' | 'daemon' | 'web';
  /** A whole handshake of the test's making (a bad one, another protocol) instead of the usual one. */
  auth?: object;
};

/** What a session:register may carry besides its id; cwd and launch kind have defaults. */
export type SessionFields = { id: string } & Record<string, unknown>;

/** An ack as the hub sends it, with the fields a test reads off it untyped. */
export type TestAck<T extends object = Record<string, unknown>> = Ack<T> & Record<string, unknown>;

/** Call once at a test file's top level: every test of the file gets a fresh hub. */
export function hubUnderTest(options: HubUnderTestOptions) {
  const namespace = options.namespace ?? 'alpha';
  const ackTimeoutMs = options.ackTimeoutMs ?? 5000;
  let home: string | undefined;
  let hub: Hub | undefined;
  let accessToken: string | undefined, databaseUrl: string | undefined;
  const sockets: Socket[] = [];
  const current = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`no ${what}: the hub under test runs only inside a test`);
    return value;
  };

  const startHub = (hubHome: string) => createHub({ config: { ...options.config, ...(databaseUrl ? { databaseUrl } : {}), port: 0, home: hubHome } });
  const stopHub = async () => {
    await options.settle?.();
    for (const socket of sockets.splice(0)) socket.close();
    await hub?.stop();
  };

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), options.home));
    databaseUrl = options.database ? await options.database() : undefined;
    hub = await startHub(home);
    accessToken = (await createAccessToken({ store: hub.store, namespace, label: options.label })).token;
  });
  afterEach(async () => {
    await stopHub();
    if (home) rmSync(home, { recursive: true, force: true });
    hub = home = accessToken = databaseUrl = undefined;
  });

  /** Stops this test's hub (its sockets closed) and starts another on the same home: what a restart keeps. */
  async function restart(): Promise<Hub> {
    await stopHub();
    hub = await startHub(current(home, 'home'));
    return hub;
  }

  /** A token for `namespace` on this test's hub. */
  const token = async (tokenNamespace: string, tokenOptions: { label?: string } = {}) =>
    (await createAccessToken({ store: current(hub, 'hub').store, namespace: tokenNamespace, label: tokenOptions.label })).token;

  /** A socket connected to `nsp`, closed after the test; rejects with the hub's connect error. */
  function connect(connectOptions: ConnectOptions): Promise<Socket> {
    const { nsp, device } = connectOptions;
    const socket = io(current(hub, 'hub').url + nsp, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      auth: connectOptions.auth ?? {
        protocol: PROTOCOL_VERSION.major,
        client: connectOptions.client ?? (nsp === '/cli' ? 'runner' : 'web'),
        token: connectOptions.token ?? current(accessToken, 'access token'),
        ...(device ? { device } : {}),
      },
    });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  const ack = async <T extends object = Record<string, unknown>>(socket: Socket, event: string, payload?: unknown, ackOptions: { timeoutMs?: number } = {}) =>
    (await socket.timeout(ackOptions.timeoutMs ?? ackTimeoutMs).emitWithAck(event, payload)) as TestAck<T>;

  /** The next `event` on `socket` (that `match` accepts, if given); rejects after 5 s. */
  const next = <T = unknown>(socket: Socket, event: string, match?: (payload: T) => boolean) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.off(event, heard);
        reject(new Error(`no ${event}${match ? ' that matches' : ''}`));
      }, 5000);
      function heard(payload: T) {
        if (match && !match(payload)) return;
        clearTimeout(timer);
        socket.off(event, heard);
        resolve(payload);
      }
      socket.on(event, heard);
    });

  /** session:register in the working directory /work as a PTY session unless `fields` say otherwise. */
  const register = <T extends object = Record<string, unknown>>(socket: Socket, fields: SessionFields) =>
    ack<T>(socket, 'session:register', { cwd: '/work', launchKind: 'pty', ...fields });

  /** A runner with a fresh session registered on it (with `fields` besides its id) and a web tab of
   *  the namespace: where most socket tests start. */
  const runnerWithTab = async (fields: Omit<SessionFields, 'id'> = {}) => {
    const runner = await connect({ nsp: '/cli' });
    const web = await connect({ nsp: '/web' });
    const sid = randomUUID();
    const registered = await register(runner, { id: sid, ...fields });
    return { runner, web, sid, registered };
  };

  return {
    connect,
    ack,
    pairDevice: () => pairDevice({ url: current(hub, 'hub').url, accessToken: current(accessToken, 'access token'), store: current(hub, 'hub').store }),
    next,
    register,
    runnerWithTab,
    restart,
    token,
    /** This test's hub. */
    get hub(): Hub {
      return current(hub, 'hub');
    },
    /** This test's temp home (the hub's database lives there). */
    get home(): string {
      return current(home, 'home');
    },
    /** This test's access token for the namespace given (alpha by default). */
    get accessToken(): string {
      return current(accessToken, 'access token');
    },
  };
}
