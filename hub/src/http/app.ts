// app.ts: the hub's Hono app. `/healthz`, REST under `/api` (login open, everything else behind the
// bearer middleware), and the built web app at `/`. Every body is size-capped and schema-parsed.
//
//   request ─► secure headers ─► /healthz | /api/auth/login, /pair (failures limited) | /api/* (auth ► route) | static
//
// It is given the domain rooms it reads (sessions, machines, approvals) and auth; it never touches
// the store or the socket layer.
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { ATTACHMENT_MAX_BYTES, HubFeaturesSchema, MAX_PAYLOAD_BYTES, PROTOCOL_VERSION, TRANSCRIPTION_MAX_BYTES, type HubFeatures } from '@tether/shared';
import type { CallerResolver } from '../auth/namespace.ts';
import type { Login } from '../auth/login.ts';
import type { Pairing } from '../auth/pairing.ts';
import type { SessionQueries } from '../sessions/queries.ts';
import type { MachineQueries } from '../machines/machines.ts';
import type { Outside } from '../outside/outside.ts';
import type { ApprovalQueries } from '../approvals/approvals.ts';
import type { Attachments } from '../attachments/attachments.ts';
import type { HubHttpEnv } from './env.ts';
import { httpError } from './errors.ts';
import { requireCaller } from './middleware/auth.ts';
import { AUTH_MAX_FAILURES_PER_ADDRESS, createAuthFailures, type AuthFailures } from '../auth/failures.ts';
import { createAuthRoutes } from './routes/auth.ts';
import { createPairCodeRoutes } from './routes/pair-codes.ts';
import { createDeviceRoutes } from './routes/devices.ts';
import { DEVICE_IDLE_DAYS, type Devices } from '../auth/devices.ts';
import { createMachineRoutes } from './routes/machines.ts';
import { createApprovalRoutes } from './routes/approvals.ts';
import { createSessionRoutes } from './routes/sessions.ts';
import type { CacheKeys } from '../auth/cache-keys.ts';
import { createAttachmentRoutes } from './routes/attachments.ts';
import { createStaticRoutes } from './routes/static.ts';
import { inlineScriptSources } from './inline-scripts.ts';
import { createShareAdminRoutes, createSharedViewRoutes } from './routes/share.ts';
import type { ShareLinks } from '../auth/share-links.ts';
import { createPushActionRoutes, createPushRoutes } from './routes/push.ts';
import type { WebPush } from '../push/push.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { createWorkspaceRoutes } from './routes/workspace.ts';
import type { GitActions } from '../git-actions/git-actions.ts';
import { createGitActionRoutes } from './routes/git-actions.ts';
import type { FileEdits } from '../file-edits/file-edits.ts';
import { createFileEditRoutes } from './routes/file-edits.ts';
import type { Find } from '../find/find.ts';
import { createFindRoutes } from './routes/find.ts';
import { REACH_PROOF_PATH, type ReachProof } from '../reach/reach-proof.ts';
import type { Transcription } from '../transcription/transcription.ts';
import { createTranscriptionRoutes } from './routes/transcription.ts';


/** Failed logins allowed per address per window before 429 (auth/failures.ts). */
export const LOGIN_MAX_FAILURES = AUTH_MAX_FAILURES_PER_ADDRESS;

/** The one route whose body may pass MAX_PAYLOAD_BYTES: an attachment's bytes (up to ATTACHMENT_MAX_BYTES). */
const ATTACHMENT_UPLOAD_PATH = /^\/api\/sessions\/[^/]+\/attachments\/?$/;
/** A dictation's audio: up to TRANSCRIPTION_MAX_BYTES. */
const TRANSCRIPTION_PATH = /^\/api\/transcriptions\/?$/;

/** What the app is given: the domain rooms it reads, auth, and the optional features' rooms. */
export type HttpAppOptions = {
  sessions: SessionQueries;
  machines: MachineQueries;
  /** Conversations found on the machines (outside/); without it the list answers 404. */
  outside?: Outside;
  approvals: ApprovalQueries;
  /** A session's working directory, read through its runner; without it the routes are absent. */
  workspace?: Workspace;
  git?: GitActions;
  /** A person's save of one file through the session's runner; without it the route is absent. */
  edits?: FileEdits;
  find?: Find;
  /** Files uploaded for prompts; without it the attachment routes answer 404. */
  attachments?: Attachments;
  resolver: CallerResolver;
  login: Login;
  /** One-time pairing codes: made by a caller for its namespace, redeemed by a phone. */
  pairing: Pairing;
  /** Paired devices: refresh, sign-out, the namespace's list. */
  devices: Devices;
  /** How long a refresh cookie lives (the device idle limit), in days. */
  deviceIdleDays?: number;
  /** The hub's phone URL (config.publicUrl), returned with each pairing code; null: none. */
  publicUrl?: string | null;
  shareLinks: ShareLinks;
  /** A web login's key for its phone's chat cache, sent with the session list; absent: none sent. */
  cacheKeys?: CacheKeys;
  version: string;
  /** Optional features the hub owner switched on (GET /api/config; /healthz repeats them). */
  features?: HubFeatures;
  webDist?: string;
  /** Failed credentials (login, bearer; the socket handshake shares it in main.ts). */
  authFailures?: AuthFailures;
  /** Web push (VAPID key, subscriptions, notification actions); without it the push routes are absent. */
  push?: WebPush;
  /** What the terminal logs hold, for /healthz (operators and the scale bench watch it against the
   *  budget). /healthz is open, so only the hub-wide total and the budget: not how many sessions
   *  run, nor anything about one of them. */
  terminalMemory?: () => { logBytes: number; budgetBytes: number };
  /** In a cluster: how many hubs this one hears (itself included). Until a starting hub has heard
   *  the others, a daemon or runner connected to them is not found from here. */
  clusterHubs?: () => Promise<number>;
  /** Answers `tether hub`'s TLS gate (reach/reach-proof.ts): does this public URL reach this hub? */
  reachProof?: ReachProof;
  /** Dictation forwarded to the owner's transcription endpoint; absent: the route answers 503. */
  transcription?: Transcription | null;
};

export function createHttpApp(options: HttpAppOptions) {
  const app = new Hono<HubHttpEnv>();
  const failures = options.authFailures ?? createAuthFailures();

  app.use('*', hubSecureHeaders({ inlineScripts: inlineScriptSources(options.webDist) }));

  // Checked once here: what GET /api/config answers is the shared shape the web parses.
  const features: HubFeatures = HubFeaturesSchema.parse(options.features ?? { shell: false });
  app.get('/healthz', async (c) => {
    const memory = options.terminalMemory?.();
    const hubs = options.clusterHubs ? await options.clusterHubs() : null;
    return c.json({
      ok: true as const,
      version: options.version,
      protocol: PROTOCOL_VERSION.major,
      shell: features.shell,
      // Only these two fields: the registry's report has more than an open endpoint may tell.
      ...(memory ? { terminals: { logBytes: memory.logBytes, budgetBytes: memory.budgetBytes } } : {}),
      ...(hubs !== null ? { cluster: { hubs } } : {}),
    });
  });

  // Open like /healthz: the answer is an HMAC of the caller's own challenge, useful to nobody else.
  if (options.reachProof) {
    const proof = options.reachProof;
    app.get(REACH_PROOF_PATH, (c) => {
      const answer = proof.answer(c.req.query('challenge') ?? '');
      if (answer === null) return httpError(c, { code: 'bad_request', error: 'challenge: 16-128 base64url characters' });
      return c.json({ proof: answer }, 200, { 'cache-control': 'no-store' });
    });
  }

  app.use('/api/*', bodyLimits());
  app.route('/api/auth', createAuthRoutes({ login: options.login, pairing: options.pairing, devices: options.devices, resolver: options.resolver, failures, idleDays: options.deviceIdleDays ?? DEVICE_IDLE_DAYS }));
  // Before the bearer check: a share link is its own credential.
  app.route('/api/share', createSharedViewRoutes({ sessions: options.sessions, shareLinks: options.shareLinks }));
  // A notification's Allow/Deny carries its own single-use token instead of a login.
  if (options.push) app.route('/api/push/action', createPushActionRoutes({ push: options.push }));
  app.use('/api/*', requireCaller({ resolver: options.resolver, failures }));
  app.get('/api/config', (c) => c.json(features));
  app.route('/api/devices', createDeviceRoutes({ devices: options.devices }));
  app.route('/api/pair-codes', createPairCodeRoutes({ pairing: options.pairing, publicUrl: options.publicUrl ?? null }));
  app.route('/api/sessions', createShareAdminRoutes({ sessions: options.sessions, shareLinks: options.shareLinks }));
  app.route('/api/sessions', createSessionRoutes({ sessions: options.sessions, ...(options.cacheKeys ? { cacheKeys: options.cacheKeys } : {}) }));
  if (options.workspace) app.route('/api/sessions', createWorkspaceRoutes({ workspace: options.workspace }));
  if (options.git) app.route('/api/sessions', createGitActionRoutes({ git: options.git }));
  if (options.edits) app.route('/api/sessions', createFileEditRoutes({ edits: options.edits }));
  if (options.find) app.route('/api/sessions', createFindRoutes({ find: options.find }));
  if (options.attachments) app.route('/api/sessions', createAttachmentRoutes({ attachments: options.attachments }));
  app.route('/api/machines', createMachineRoutes({ machines: options.machines, ...(options.outside ? { outside: options.outside } : {}) }));
  app.route('/api/pending', createApprovalRoutes({ approvals: options.approvals }));
  if (options.push) app.route('/api/push', createPushRoutes({ push: options.push }));
  app.route('/api/transcriptions', createTranscriptionRoutes({ transcription: options.transcription ?? null }));
  app.all('/api/*', (c) => httpError(c, { code: 'not_found', error: 'no such API route' }));

  app.route('/', createStaticRoutes(options.webDist ? { webDist: options.webDist } : {}));

  app.notFound((c) => httpError(c, { code: 'not_found', error: 'not found' }));
  app.onError((error, c) => {
    // Never echo internals (or anything secret-bearing) to the client.
    console.error(`tether hub: ${c.req.method} ${new URL(c.req.url).pathname} failed: ${error.message}`);
    return httpError(c, { code: 'internal', error: 'internal error' });
  });
  return app;
}

/** The headers every answer carries: a CSP that lets the web app load only from this hub (and run
 *  only the inline scripts its own index.html holds, by hash). */
function hubSecureHeaders(o: { inlineScripts: string[] }) {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      imgSrc: ["'self'", 'data:', 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      scriptSrc: ["'self'", ...o.inlineScripts],
      workerSrc: ["'self'", 'blob:'],
      manifestSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    // Plain-HTTP LAN use is allowed (with a warning); HSTS would lock a browser out of it.
    strictTransportSecurity: false,
  });
}

/** A POST body's cap by route: an attachment's bytes and a dictation's audio may pass MAX_PAYLOAD_BYTES. */
function bodyLimits(): MiddlewareHandler<HubHttpEnv> {
  const apiBodyLimit = bodyLimit({
    maxSize: MAX_PAYLOAD_BYTES,
    onError: (c) => httpError(c, { code: 'too_large', error: `body over ${MAX_PAYLOAD_BYTES} bytes` }),
  });
  const uploadBodyLimit = bodyLimit({
    maxSize: ATTACHMENT_MAX_BYTES,
    onError: (c) => httpError(c, { code: 'too_large', error: `the file is over ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MiB` }),
  });
  const audioBodyLimit = bodyLimit({
    maxSize: TRANSCRIPTION_MAX_BYTES,
    onError: (c) => httpError(c, { code: 'too_large', error: `the recording is over ${TRANSCRIPTION_MAX_BYTES / (1024 * 1024)} MiB` }),
  });
  return (c, next) => {
    if (c.req.method !== 'POST') return apiBodyLimit(c, next);
    if (ATTACHMENT_UPLOAD_PATH.test(c.req.path)) return uploadBodyLimit(c, next);
    return TRANSCRIPTION_PATH.test(c.req.path) ? audioBodyLimit(c, next) : apiBodyLimit(c, next);
  };
}
