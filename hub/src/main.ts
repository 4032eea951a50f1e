// main.ts: the hub's one composition root. createHub({ config, store }) opens the store (PostgreSQL
// with config.databaseUrl, else SQLite under TETHER_HOME, unless one is given), builds auth, the
// fact bus, the domain rooms and their subscribers, the Hono app and socket.io, and binds both on
// one Bun.serve: /socket.io/ goes to the engine, everything else to Hono. Tests and `tether hub`
// call this same function.
//
//   Bun.serve ─► Host allowlist (reach/: 421 for a name it does not serve)
//              ├─ /socket.io/* ─► @socket.io/bun-engine ─► /cli, /web (sockets/) ─┐
//              └─ everything else ─► Hono (http/): /healthz, /api/*, web app ─────┴─► domain rooms
//   domain rooms ─publish─► facts ─► socket rooms · cluster · readiness · web push
import { mkdirSync } from 'node:fs';
import { ATTACHMENT_MAX_BYTES, MAX_PAYLOAD_BYTES } from '@tether/shared';
import type { Store } from './store/store.ts';
import { openStore } from './store/open.ts';
import { loadHubSecret } from './auth/web-session.ts';
import { createAuth } from './auth/auth.ts';
import { createHttpApp } from './http/app.ts';
import { createTranscription } from './transcription/transcription.ts';
import { createSocketServer, SOCKET_PATH, type SocketServer } from './sockets/server.ts';
import { parseAllowedOrigin } from './sockets/origin.ts';
import { createRooms } from './sockets/rooms.ts';
import { createWebPush, type WebPush } from './push/push.ts';
import { createDomain } from './domain.ts';
import { createFactBus, type FactBus } from './facts/facts.ts';
import type { ClusterBus } from './cluster/bus.ts';
import { makeVapidKeys, parseVapidKeys } from './push/vapid.ts';
import type { Cluster } from './cluster/cluster.ts';
import { DEFAULT_HOST, HUB_VERSION, hubPaths, type HubConfig } from './config.ts';
import { createHostAllowlist } from './reach/host-allowlist.ts';
import { createReachProof } from './reach/reach-proof.ts';

// The hub package's public surface, for `tether hub/token` and the test harness.
export type { HubConfig } from './config.ts';
export { HUB_VERSION, hubPaths } from './config.ts';
export type { Store } from './store/store.ts';
export { createSqliteStore } from './store/sqlite/sqlite-store.ts';
/** PostgreSQL's store; its client loads on the first call, so a SQLite hub never loads it. */
export const createPostgresStore = async (options: { url: string }): Promise<Store> => (await import('./store/postgres/postgres-store.ts')).createPostgresStore(options);
export { openStore } from './store/open.ts';
export { StoreOpenError } from './store/store.ts';
export { redactUrl } from './store/postgres/connect.ts';
export { createAccessToken, revokeAccessToken } from './auth/tokens.ts';
export { createPairCode } from './auth/pairing.ts';
export { parseAllowedOrigin } from './sockets/origin.ts';
export { REACH_PROOF_PATH } from './reach/reach-proof.ts';
export { DEFAULT_TERMINAL_MEMORY_BYTES, parseTerminalMemoryMb } from './terminal/log-budget.ts';

export type Hub = {
  /** http://host:port, with the actual port when config.port was 0. */
  url: string;
  port: number;
  /** config.publicUrl: the https URL a phone opens (null: none); `tether hub` puts its pairing code in it. */
  publicUrl: string | null;
  store: Store;
  /** What this hub answers at `<url>/healthz/reach?challenge=…` (the TLS gate compares). */
  reachAnswer(challenge: string): string | null;
  /** The Host allowlist's judgement of a raw request-target (reach/host-allowlist.ts): Bun.serve
   *  hides an absolute-form target's authority, so whoever reads request lines asks here. */
  checkTarget(target: string): Response | null;
  /** Closes sockets, the server and (if createHub opened it) the store. */
  stop(): Promise<void>;
};

/** The address the proxy in front of us saw: the last hop of X-Forwarded-For (earlier hops are
 *  whatever the client claimed). */
function forwardedFor(req: Request): string | null {
  const hops = req.headers.get('x-forwarded-for')?.split(',').map((h) => h.trim()).filter(Boolean);
  return hops?.at(-1)?.slice(0, 64) ?? null;
}

/** Headroom over the largest body (an attachment's bytes; every other route keeps MAX_PAYLOAD_BYTES
 *  in http/app.ts) for HTTP framing, so Hono (not Bun) answers a too-big body with the JSON 413 of
 *  the API. */
const REQUEST_BODY_HEADROOM = 64 * 1024;

/** The hub's keys: its own secret (web sessions, share links), and with a database the cluster's
 *  secrets. Several hubs on one database must verify the web sessions and share links another
 *  signed, and push with the VAPID keys browsers subscribed with, so those come from the database. */
async function openKeys(o: { config: HubConfig; store: Store; ownsStore: boolean; secretPath: string }) {
  if (!o.config.databaseUrl) {
    // vapid null: web push's keys are then made on first start and kept in TETHER_HOME, like the hub secret.
    return { cluster: null, secret: loadHubSecret({ path: o.secretPath }), vapid: null, linkSecret: null };
  }
  // The cluster's code (PostgreSQL's client and socket.io adapter) loads only for a hub on a database.
  const { openCluster, randomSecret } = await import('./cluster/cluster.ts');
  let cluster: Cluster;
  try {
    cluster = await openCluster({ databaseUrl: o.config.databaseUrl });
  } catch (error) {
    if (o.ownsStore) await o.store.close();
    throw error;
  }
  const secret = new Uint8Array(Buffer.from(await cluster.secret('hub-secret', () => randomSecret()), 'base64url'));
  const vapid = parseVapidKeys(await cluster.secret('vapid', makeVapidKeys));
  // Hubs link to each other (the terminal link) with a secret of the cluster's.
  // 'hub-link': the secret's stored name, older than "terminal link" (stored names stay).
  const linkSecret = await cluster.secret('hub-link', () => randomSecret());
  return { cluster, secret, vapid, linkSecret };
}

/** Tokens revoked through a hub (a device's sign-out, a replayed refresh secret, an idle device)
 *  lose their sockets and push subscriptions now, on this hub and every other. */
function followRevokedTokens(options: { facts: FactBus; bus: ClusterBus; sockets: SocketServer; push: WebPush }): void {
  const gone = ({ tokenIds }: { tokenIds: string[] }) => {
    options.sockets.dropTokens(tokenIds);
    for (const id of tokenIds) options.push.subscriptions.forgetToken(id);
  };
  options.facts.on('tokens.revoked', (event) => {
    gone(event);
    options.bus.tell('tokens-revoked', event);
  });
  options.bus.on('tokens-revoked', gone);
}

/** One Bun.serve for both: the Host allowlist first, then socket.io's engine or the Hono app (with
 *  the client's address: the proxy's last hop with --trust-proxy, else the peer, mapped by the relay). */
function serve(options: { config: HubConfig; host: string; sockets: SocketServer; app: { fetch: (req: Request, env: { ip?: string }) => Response | Promise<Response> }; hosts: ReturnType<typeof createHostAllowlist> }) {
  const { config, sockets, app, hosts } = options;
  return Bun.serve({
    hostname: options.host,
    port: config.port,
    idleTimeout: sockets.handler.idleTimeout,
    maxRequestBodySize: Math.max(MAX_PAYLOAD_BYTES, ATTACHMENT_MAX_BYTES) + REQUEST_BODY_HEADROOM,
    websocket: sockets.handler.websocket,
    fetch(req, srv) {
      const misdirected = hosts.check(req);
      if (misdirected) return misdirected;
      const url = new URL(req.url);
      if (url.pathname === SOCKET_PATH || url.pathname.startsWith(SOCKET_PATH)) {
        return sockets.engine.handleRequest(req, srv);
      }
      const peer = srv.requestIP(req)?.address;
      const ip = (config.trustProxy ? forwardedFor(req) : null) ?? (peer ? (config.peerAddress?.(peer) ?? peer) : undefined);
      return app.fetch(req, ip ? { ip } : {});
    },
  });
}

/** The REST edge: the domain rooms it reads, auth, and what the hub owner switched on. */
function httpEdge(o: {
  config: HubConfig;
  domain: ReturnType<typeof createDomain>;
  auth: ReturnType<typeof createAuth>;
  push: WebPush;
  reachProof: ReturnType<typeof createReachProof>;
  /** In a cluster: how many hubs this one hears. */
  clusterHubs: (() => Promise<number>) | null;
}) {
  const { config, domain, auth } = o;
  const transcription = config.transcription ? createTranscription({ endpoint: config.transcription }) : null;
  return createHttpApp({
    sessions: domain.sessions,
    machines: domain.machines,
    outside: domain.outside,
    approvals: domain.approvals,
    workspace: domain.workspace,
    git: domain.git,
    edits: domain.edits,
    find: domain.find,
    attachments: domain.attachments,
    resolver: auth.resolver,
    login: auth.login,
    pairing: auth.pairing,
    devices: auth.devices,
    ...(config.deviceIdleDays !== undefined ? { deviceIdleDays: config.deviceIdleDays } : {}),
    publicUrl: config.publicUrl ?? null,
    shareLinks: auth.shareLinks,
    cacheKeys: auth.cacheKeys,
    push: o.push,
    authFailures: auth.failures,
    version: HUB_VERSION,
    features: { shell: config.shell ?? false, ...(transcription ? { transcription: { host: transcription.host } } : {}), ...(config.install ? { install: config.install } : {}) },
    transcription,
    terminalMemory: () => domain.terminals.memory(),
    ...(o.clusterHubs ? { clusterHubs: o.clusterHubs } : {}),
    ...(config.webDist ? { webDist: config.webDist } : {}),
    reachProof: o.reachProof,
  });
}

export async function createHub(options: { config: HubConfig; store?: Store }): Promise<Hub> {
  const { config } = options;
  const host = config.host ?? DEFAULT_HOST;
  mkdirSync(config.home, { recursive: true, mode: 0o700 });
  const paths = hubPaths(config.home);
  const ownsStore = !options.store;
  const store = options.store ?? (await openStore({ databaseUrl: config.databaseUrl, sqlitePath: paths.db }));

  const { cluster, secret, vapid, linkSecret } = await openKeys({ config, store, ownsStore, secretPath: paths.secret });
  let selfUrl = '';
  const reachProof = createReachProof({ secret });
  const facts = createFactBus({ onError: (what, error) => console.error(`tether hub: ${what}: ${error instanceof Error ? error.message : String(error)}`) });
  const auth = createAuth({ store, secret, config, facts });
  const { resolver, shareLinks, failures: authFailures, devices } = auth;
  const onError = (event: string, error: unknown) => {
    console.error(`tether hub: socket event ${event} failed: ${error instanceof Error ? error.message : String(error)}`);
  };
  // The public URL's origin is the hub's own too: behind a proxy that rewrites Host the socket
  // handshake would otherwise not recognise it.
  const extraOrigins = [...(config.allowedOrigins ?? []), ...(config.publicUrl ? [config.publicUrl] : [])].map(parseAllowedOrigin);
  const sockets = createSocketServer({
    authFailures,
    origins: { extraOrigins: new Set(extraOrigins), trustProxy: config.trustProxy ?? false },
    ...(config.peerAddress ? { peerAddress: config.peerAddress } : {}),
    ...(cluster ? { adapter: cluster.adapter } : {}),
  });
  const rooms = createRooms({ io: sockets.io });
  const hubUrl = cluster ? () => selfUrl : () => '';
  rooms.subscribe(facts);
  const domain = createDomain({
    store,
    facts,
    io: sockets.io,
    ports: rooms,
    onError,
    hubUrl,
    cluster: linkSecret !== null ? { url: hubUrl, linkSecret } : null,
    shell: config.shell ?? false,
    ...(config.terminalLogBytes !== undefined ? { terminalLogBytes: config.terminalLogBytes } : {}),
    ...(config.terminalMemoryBytes !== undefined ? { terminalMemoryBytes: config.terminalMemoryBytes } : {}),
    ...(config.schedules ? { schedules: config.schedules } : {}),
    ...(config.limits ? { limits: limitsOf(config.limits) } : {}),
  });
  // Facts reach tabs first (above), then the other hubs and readiness waits (createDomain), then
  // push; push answers a notification through the approvals room.
  const push = createWebPush({
    home: config.home,
    store,
    approvals: domain.approvals,
    anyVisible: (ns) => rooms.anyVisible(ns),
    endpoints: { dev: config.devPushEndpoints ?? false },
    ...(vapid ? { keys: vapid } : {}),
  });
  push.listen(facts);
  const { sessions, approvals, machines, remote, shells, terminals, viewers, reviews, worktrees, outside, schedules, rules } = domain;
  sockets.attach({
    resolver,
    shareLinks,
    hubUrl,
    ...(config.revocationCheckMs !== undefined ? { revocationCheckMs: config.revocationCheckMs } : {}),
    shareRevoked: { heard: (listener) => domain.bus.on('share-revoked', ({ jti }) => listener(jti)), tell: (jti) => domain.bus.tell('share-revoked', { jti }) },
    terminalLinks: cluster !== null,
    cli: { sessions, approvals, machines, remote, shells, terminals, outside, rules, onError, ...(config.runnerGoneGraceMs !== undefined ? { runnerGoneGraceMs: config.runnerGoneGraceMs } : {}) },
    web: { sessions, approvals, remote, shells, viewers, reviews, worktrees, outside, schedules, rules, limits: domain.limits, unattended: domain.unattended, onError },
  });
  followRevokedTokens({ facts, bus: domain.bus, sockets, push });
  const app = httpEdge({
    config,
    domain,
    auth,
    push,
    reachProof,
    clusterHubs: cluster ? () => sockets.io.of('/cli').adapter.serverCount() : null,
  });
  const hosts = createHostAllowlist({ config: { ...config, host }, log: (line) => console.error(line) });

  let server: ReturnType<typeof Bun.serve>;
  try {
    server = serve({ config, host, sockets, app, hosts });
  } catch (error) {
    // Nothing of this hub may outlive a failed bind (the caller may try the next port).
    domain.stop();
    await sockets.stop();
    await cluster?.stop();
    if (ownsStore) await store.close();
    throw error;
  }

  const port = server.port ?? config.port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let stopped: Promise<void> | null = null;
  selfUrl = config.clusterUrl ?? `http://${urlHost}:${port}`;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    publicUrl: config.publicUrl ?? null,
    store,
    reachAnswer: (challenge) => reachProof.answer(challenge),
    checkTarget: (target) => hosts.checkTarget(target),
    stop() {
      stopped ??= (async () => {
        domain.stop();
        await sockets.stop();
        await server.stop(true);
        await cluster?.stop();
        if (ownsStore) await store.close();
      })();
      return stopped;
    },
  };
}

/** The config's usage-limit settings as the domain takes them. */
function limitsOf(limits: NonNullable<HubConfig['limits']>) {
  return {
    ...(limits.continueByDefault !== undefined ? { continueByDefault: limits.continueByDefault } : {}),
    timing: { ...(limits.marginMs !== undefined ? { marginMs: limits.marginMs } : {}), ...(limits.agentGraceMs !== undefined ? { agentGraceMs: limits.agentGraceMs } : {}) },
  };
}
