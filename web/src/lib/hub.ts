// hub.ts: the REST client (typed by @tether/shared) and the web login it rides on.
// Flow: a one-time pairing code (the QR link's `#pair=` fragment, or pasted) ─POST /api/auth/pair─►,
// or an access token (pasted, or an old link's `#token=`) ─POST /api/auth/login─► session JWT, kept
// in localStorage ─Authorization: Bearer─► every /api call and the socket handshake.
// A paired device over https or loopback also holds a refresh secret in an HttpOnly cookie the page
// never sees: a session about to end is renewed (POST /api/auth/refresh, one tab at a time), so a
// phone paired once stays signed in until it is revoked or left unused for a month.
// Invariant: neither the code nor the access token is stored or left in the address bar; only the
// short-lived session is remembered, and a 401 that a renewal cannot cure forgets it and sends the
// user back to login. Logging out revokes this device on the hub and clears what this app stored
// (the phone cache too: lib/phone-cache/).
import type {
  FindAnswer,
  FindRequest,
  AttachmentUploaded,
  HubFeatures,
  TranscriptionResult,
  SessionCommands,
  ChatMessage,
  DeviceList,
  ErrorBody,
  LoginResponse,
  Machine,
  MessagePage,
  OutsideListResponse,
  PendingRequest,
  Resolution,
  Session,
  SessionList,
  PushSubscriptionJson,
  ShareCreated,
  VapidPublicKey,
  WorkspaceChanges,
  GitActionBody,
  FileEditBody,
  FileStaleBody,
  FileWriteAnswer,
  GitDone,
  GitState,
  WorkspaceFile,
  WorkspaceListing,
} from '@tether/shared';
import { PAIR_CODE_PREFIX, TOKEN_PREFIX } from '@tether/shared/wire';
import { deletePhoneCache } from './phone-cache/backend.ts';

/** What `GET /api/share/:token` returns: one session and its latest messages, read-only. */
/** What the Changes view compares the working tree with: HEAD, or where the session's branch started. */
export type ChangesAgainst = 'head' | 'base';
export type SharedSession = { session: Session; messages: ChatMessage[]; more: boolean; expiresAt: number; readOnly: true };

const STORAGE_KEY = 'tether.login';
/** What every access token starts with (the login form checks a pasted one). */
export const ACCESS_TOKEN_PREFIX = TOKEN_PREFIX;
/** What every pairing code starts with (`tether pair`). */
export const PAIRING_CODE_PREFIX = PAIR_CODE_PREFIX;

export type HubLogin = LoginResponse;

/** Why a request failed, in words the login screen and toasts can show as they are. */
export class HubError extends Error {
  readonly status: number;
  readonly code: string;
  /** The whole error body, for a route whose refusal carries more than its reason (a stale save). */
  readonly body: unknown;
  constructor(options: { status: number; code: string; message: string; body?: unknown }) {
    super(options.message);
    this.status = options.status;
    this.code = options.code;
    this.body = options.body;
  }
}

// ---- login storage -------------------------------------------------------------------------------

/** `renewed`: the same login with a fresh session (the socket stays); else a new login or a logout. */
export type LoginChange = { renewed: boolean };
type Listener = (change: LoginChange) => void;
const loginListeners = new Set<Listener>();
/** A renewable session is renewed this long before it ends. */
const RENEW_BEFORE_MS = 60_000;
let cachedLogin: HubLogin | null | undefined;

function readStoredLogin(): HubLogin | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<HubLogin>;
    if (typeof value.session !== 'string' || typeof value.namespace !== 'string' || typeof value.expiresAt !== 'number') {
      return null;
    }
    return value as HubLogin;
  } catch {
    return null; // private mode or corrupted entry: behave as logged out
  }
}

/** The remembered login, or null when there is none or it has expired (a renewable one is kept:
 *  its cookie may renew it, which the next request finds out). */
export function getLogin(): HubLogin | null {
  if (cachedLogin === undefined) cachedLogin = readStoredLogin();
  if (cachedLogin && cachedLogin.expiresAt <= Date.now() && !cachedLogin.renewable) setLogin(null);
  return cachedLogin ?? null;
}

export function setLogin(login: HubLogin | null, change: LoginChange = { renewed: false }): void {
  cachedLogin = login;
  try {
    if (login) localStorage.setItem(STORAGE_KEY, JSON.stringify(login));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage unavailable: the login lasts for this tab only
  }
  for (const listener of loginListeners) listener(change);
}

let renewing: Promise<HubLogin | null> | null = null;

/** The session to send: renewed first when this device can and it ends within a minute (or now,
 *  with `force`, after the hub refused it). Null: signed out. */
export async function currentSession(options: { force?: boolean } = {}): Promise<string | null> {
  const login = getLogin();
  if (!login) return null;
  if (!login.renewable || (!options.force && login.expiresAt - Date.now() > RENEW_BEFORE_MS)) return login.session;
  renewing ??= renewSession(login).finally(() => {
    renewing = null;
  });
  return (await renewing)?.session ?? null;
}

async function renewSession(stale: HubLogin): Promise<HubLogin | null> {
  const run = async (): Promise<HubLogin | null> => {
    // Another tab may have renewed it while this one waited for the lock.
    const stored = readStoredLogin();
    if (stored && stored.session !== stale.session && stored.expiresAt - Date.now() > RENEW_BEFORE_MS) {
      cachedLogin = stored;
      return stored;
    }
    let response: Response;
    try {
      response = await fetch('/api/auth/refresh', { method: 'POST', headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    } catch {
      return stale; // offline: the request itself will say the hub is unreachable
    }
    if (response.status === 401) {
      setLogin(null); // revoked, replayed, idle or never renewable: pair again
      return null;
    }
    if (!response.ok) return stale;
    const next = (await response.json()) as HubLogin;
    setLogin(next, { renewed: true });
    return next;
  };
  // One tab renews at a time: two tabs presenting one secret at once would look like a replay
  // after the hub's grace. The others then find the new login in storage.
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('tether.login-renewal', run) : run();
}

export function onLoginChange(listener: Listener): () => void {
  loginListeners.add(listener);
  return () => loginListeners.delete(listener);
}

// Another tab logged in or out: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY) return;
    const next = readStoredLogin();
    // Another tab renewed the same login: a fresh session, not a new login.
    const renewed = Boolean(cachedLogin && next && cachedLogin.namespace === next.namespace && next.renewable);
    cachedLogin = next;
    for (const listener of loginListeners) listener({ renewed });
  });
}

// ---- the QR link -----------------------------------------------------------------------------------

/** What a link's fragment carried: a one-time pairing code (`#pair=`, what `tether pair` and
 *  `tether hub` print) or, from links made before pairing codes, an access token (`#token=`). */
export type FragmentCredential = { kind: 'pair' | 'token'; value: string };

let fragmentCredential: FragmentCredential | null = null;

/** Reads `#pair=…` (or `#token=…`) once at start-up and strips it from the address bar (and so from
 *  history), before anything else can log or share the URL. It waits in memory for the login screen. */
export function captureFragmentCredential(): void {
  const hash = window.location.hash.replace(/^#/, '');
  if (!hash) return;
  const params = new URLSearchParams(hash);
  const pair = params.get('pair');
  const token = params.get('token');
  if (!pair && !token) return;
  fragmentCredential = pair ? { kind: 'pair', value: pair.trim() } : { kind: 'token', value: token!.trim() };
  params.delete('pair');
  params.delete('token');
  const rest = params.toString();
  const url = window.location.pathname + window.location.search + (rest ? `#${rest}` : '');
  window.history.replaceState(window.history.state, '', url);
}

/** The code or token from the link, if one is waiting; reading it takes it. */
export function takeFragmentCredential(): FragmentCredential | null {
  const credential = fragmentCredential;
  fragmentCredential = null;
  return credential;
}

export function hasFragmentCredential(): boolean {
  return fragmentCredential !== null;
}

// ---- requests ----------------------------------------------------------------------------------------

async function parseError(response: Response): Promise<HubError> {
  let body: Partial<ErrorBody> = {};
  try {
    body = (await response.json()) as Partial<ErrorBody>;
  } catch {
    // not JSON (a proxy's HTML error page): fall back to the status text
  }
  return new HubError({
    status: response.status,
    code: body.code ?? (response.status === 429 ? 'rate_limited' : `http_${response.status}`),
    message: body.error ?? (response.statusText || `request failed (${response.status})`),
    body,
  });
}

/** The hub's response, or the error that says it could not be reached. */
async function reached(pending: Promise<Response>): Promise<Response> {
  try {
    return await pending;
  } catch {
    throw new HubError({ status: 0, code: 'unreachable', message: `can't reach the hub at ${window.location.host}` });
  }
}

/** A read index.html's inline script started at load with this same session (the list, the
 *  machines), taken once; any other session's is dropped. */
/** How long after the page's load an early read may stand in for the app's own: it is the answer of
 *  that moment, and a screen first asking much later (a list refetched after a phone slept with the
 *  page open) must not be handed it. */
const EARLY_READ_FRESH_MS = 15_000;

function takeEarlyRead(path: string, session: string): Promise<Response> | null {
  const early = (window as { __tetherEarlyReads?: { session: string; at?: number; reads: Record<string, Promise<Response> | undefined> } }).__tetherEarlyReads;
  if (!early) return null;
  const read = early.reads[path];
  delete early.reads[path];
  const fresh = typeof early.at === 'number' && Date.now() - early.at <= EARLY_READ_FRESH_MS;
  return early.session === session && fresh ? (read ?? null) : null;
}

async function send<T>(path: string, init: RequestInit & { auth?: boolean; retried?: boolean } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (init.body) headers.set('Content-Type', typeof init.body === 'string' ? 'application/json' : 'application/octet-stream');
  let early: Promise<Response> | null = null;
  if (init.auth !== false) {
    const session = await currentSession();
    if (!session) throw new HubError({ status: 401, code: 'unauthorized', message: 'not logged in' });
    headers.set('Authorization', `Bearer ${session}`);
    if ((init.method ?? 'GET') === 'GET' && !init.retried) early = takeEarlyRead(path, session);
  }
  const response = await reached(early ?? fetch(path, { ...init, headers }));
  if (!response.ok) {
    const error = await parseError(response);
    if (response.status === 401 && init.auth !== false) {
      // A renewable session the hub refused (ended early, another tab's renewal): renew once and retry.
      if (!init.retried && getLogin()?.renewable && (await currentSession({ force: true }))) return send<T>(path, { ...init, retried: true });
      // The session expired or its token was revoked: forget it; the guard shows the login screen.
      setLogin(null);
    }
    throw error;
  }
  return (await response.json()) as T;
}

/** Exchanges an access token for a web session and remembers it. */
export function loginWithToken(token: string): Promise<HubLogin> {
  return takeEarlyExchange(token) ?? logIn('/api/auth/login', { token: token.trim() });
}

/** Redeems a one-time pairing code for a web session (of a device token of its own) and remembers it. */
export function loginWithPairCode(code: string): Promise<HubLogin> {
  return takeEarlyExchange(code) ?? logIn('/api/auth/pair', { code: code.trim() });
}

/** The link's exchange, started at boot beside the login screen's code rather than after it (a round
 *  trip fewer in series on a first visit); the screen's submit of the same value takes it, so a
 *  one-time code is still spent once and its refusal is still shown there. */
let earlyExchange: { value: string; login: Promise<HubLogin> } | null = null;

/** Starts the exchange of a link's code or token now, if one waits and looks like one. */
export function exchangeFragmentCredentialEarly(): void {
  const link = fragmentCredential;
  if (!link || (link.kind === 'token' && !link.value.startsWith(ACCESS_TOKEN_PREFIX))) return;
  const login = takeInlineExchange(link.value) ?? (link.kind === 'pair' ? logIn('/api/auth/pair', { code: link.value }) : logIn('/api/auth/login', { token: link.value }));
  login.catch(() => {}); // the login screen takes the same promise and says why
  earlyExchange = { value: link.value, login };
}

/** Waits for the link's early exchange, if one is under way: true once it signed this browser in
 *  (the link is then spent: no login screen needed), false when there was none or it failed (the
 *  link and the failure stay for the login screen to show). */
export async function awaitLinkLogin(): Promise<boolean> {
  const early = earlyExchange;
  if (!early) return false;
  try {
    await early.login;
  } catch {
    return false;
  }
  if (earlyExchange === early) earlyExchange = null;
  if (fragmentCredential?.value === early.value) fragmentCredential = null;
  return true;
}

/** The exchange index.html's inline script started before this code had even loaded, if it was for
 *  this value: its answer read as `logIn` reads one, and the login kept. */
function takeInlineExchange(value: string): Promise<HubLogin> | null {
  const holder = window as { __tetherLinkExchange?: { value: string; response: Promise<Response> } };
  const started = holder.__tetherLinkExchange;
  delete holder.__tetherLinkExchange;
  if (!started || started.value !== value) return null;
  return reached(started.response).then(async (response) => {
    if (!response.ok) throw await parseError(response);
    const login = (await response.json()) as HubLogin;
    setLogin(login);
    return login;
  });
}

function takeEarlyExchange(value: string): Promise<HubLogin> | null {
  const early = earlyExchange;
  earlyExchange = null;
  return early && early.value === value.trim() ? early.login : null;
}

/** Trades a proof (a token, a pairing code) for a web session, without one of its own, and keeps it. */
async function logIn(path: string, proof: Record<string, string>): Promise<HubLogin> {
  const login = await send<HubLogin>(path, { method: 'POST', body: JSON.stringify(proof), auth: false });
  // Nothing another login cached on this phone survives a sign-in (it may be another namespace).
  await deletePhoneCache();
  setLogin(login);
  return login;
}

/** Signs this browser out: the hub revokes this device (by its cookie and its session: its sockets
 *  and push subscription go at once), the browser's push subscription and everything this app kept
 *  in storage are removed, and the page starts over at the login screen with nothing in memory. */
export async function logout(): Promise<void> {
  const login = cachedLogin ?? readStoredLogin();
  try {
    await fetch('/api/auth/refresh', {
      method: 'DELETE',
      headers: { Accept: 'application/json', ...(login ? { Authorization: `Bearer ${login.session}` } : {}) },
      credentials: 'same-origin',
    });
  } catch {
    // Offline: this browser forgets everything all the same; the device stays listed until revoked.
  }
  try {
    const registration = await navigator.serviceWorker?.getRegistration('/');
    await (await registration?.pushManager.getSubscription())?.unsubscribe();
  } catch {
    // No service worker (plain http): nothing was subscribed.
  }
  for (const storage of [localStorage, sessionStorage]) {
    try {
      for (const key of Object.keys(storage)) if (key.startsWith('tether.')) storage.removeItem(key);
    } catch {
      // storage unavailable: nothing kept
    }
  }
  await deletePhoneCache();
  setLogin(null);
  window.location.replace('/login');
}

/** The namespace's paired devices (a device's settings list them); `canRevokeOthers`: this login is
 *  the namespace's owner, who may sign any of them out. */
export const devicesApi = {
  list: () => send<DeviceList>('/api/devices'),
  revoke: (id: string) => send<{ ok: true; revoked: number }>(`/api/devices/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};

export const hubApi = {
  listSessions: () => send<SessionList>('/api/sessions'),
  getSession: (sessionId: string) =>
    send<{ session: Session; pending: PendingRequest[]; audit: Resolution[] }>(`/api/sessions/${encodeURIComponent(sessionId)}`),
  listMessages: (options: { sessionId: string; after?: number; before?: number; limit?: number }) => {
    const query = new URLSearchParams();
    if (options.after !== undefined) query.set('after', String(options.after));
    if (options.before !== undefined) query.set('before', String(options.before));
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    return send<MessagePage>(`/api/sessions/${encodeURIComponent(options.sessionId)}/messages?${query}`);
  },
  /** The session's working tree against HEAD, read by its runner: one page of diffs from `cursor`. */
  /** `against: 'base'`: the whole branch since the session's worktree started (its commits too). */
  getChanges: (options: { sessionId: string; cursor: number; against: ChangesAgainst }) =>
    send<WorkspaceChanges>(`/api/sessions/${encodeURIComponent(options.sessionId)}/changes?cursor=${options.cursor}&against=${options.against}`),
  /** The index's state in the session's folder (staged or not, branch, upstream, gh), by its runner. */
  gitState: (sessionId: string) => send<GitState>(`/api/sessions/${encodeURIComponent(sessionId)}/git`),
  /** A git write in the session's folder (stage, unstage, commit, push, pull request), by its runner. */
  gitAction: (options: { sessionId: string; body: GitActionBody }) =>
    send<GitDone>(`/api/sessions/${encodeURIComponent(options.sessionId)}/git`, { method: 'POST', body: JSON.stringify(options.body) }),
  listFiles: (options: { sessionId: string; path: string }) =>
    send<WorkspaceListing>(`/api/sessions/${encodeURIComponent(options.sessionId)}/files?path=${encodeURIComponent(options.path)}`),
  readFile: (options: { sessionId: string; path: string }) =>
    send<WorkspaceFile>(`/api/sessions/${encodeURIComponent(options.sessionId)}/file?path=${encodeURIComponent(options.path)}`),
  /** A person's save of one file: written, or stale (the file changed since it was opened: the
   *  hub's 409 carries what it holds now). Any other refusal throws. */
  saveFile: async (options: { sessionId: string; body: FileEditBody }): Promise<FileWriteAnswer> => {
    try {
      return await send<FileWriteAnswer>(`/api/sessions/${encodeURIComponent(options.sessionId)}/file`, { method: 'PUT', body: JSON.stringify(options.body) });
    } catch (error) {
      const stale = error instanceof HubError && error.status === 409 ? (error.body as Partial<FileStaleBody> | undefined)?.stale : undefined;
      if (stale?.kind === 'stale') return stale;
      throw error;
    }
  },
  /** Find in one session: its chat, terminal and files, each part answered or refused on its own. */
  find: (options: { sessionId: string; body: FindRequest }) =>
    send<FindAnswer>(`/api/sessions/${encodeURIComponent(options.sessionId)}/find`, { method: 'POST', body: JSON.stringify(options.body) }),
  listMachines: () => send<{ machines: Machine[] }>('/api/machines'),
  /** A page of the conversations found on a machine (newest first; `q` matches title and folder). */
  listOutside: (options: { machineId: string; q: string; offset: number; limit: number }) =>
    send<OutsideListResponse>(`/api/machines/${encodeURIComponent(options.machineId)}/outside?q=${encodeURIComponent(options.q)}&offset=${options.offset}&limit=${options.limit}`),
  /** A file for the session's next prompt; the hub checks its type by its bytes and its size. */
  uploadAttachment: (options: { sessionId: string; name: string; data: Blob }) =>
    send<AttachmentUploaded>(`/api/sessions/${encodeURIComponent(options.sessionId)}/attachments?name=${encodeURIComponent(options.name)}`, {
      method: 'POST',
      body: options.data,
    }),
  deleteAttachment: (options: { sessionId: string; attachmentId: string }) =>
    send<{ ok: true }>(`/api/sessions/${encodeURIComponent(options.sessionId)}/attachments/${encodeURIComponent(options.attachmentId)}`, { method: 'DELETE' }),
  /** The slash commands the session's claude takes, as its runner reported them. */
  sessionCommands: (sessionId: string) => send<SessionCommands>(`/api/sessions/${encodeURIComponent(sessionId)}/commands`),
  /** A dictation's audio to the hub's transcription endpoint (503 when it has none); nothing is kept. */
  transcribe: (options: { audio: Blob; durationMs: number }) =>
    send<TranscriptionResult>(`/api/transcriptions?durationMs=${Math.max(1, Math.round(options.durationMs))}`, { method: 'POST', body: options.audio }),
  /** Features the hub owner switched on (web shells, transcription). */
  getConfig: () => send<HubFeatures>('/api/config'),
  createShareLink: (options: { sessionId: string; expiresInSec: number }) =>
    send<ShareCreated>(`/api/sessions/${encodeURIComponent(options.sessionId)}/share`, {
      method: 'POST',
      body: JSON.stringify({ expiresInSec: options.expiresInSec }),
    }),
  revokeShareLink: (options: { sessionId: string; jti: string }) =>
    send<{ ok: true }>(`/api/sessions/${encodeURIComponent(options.sessionId)}/share/${encodeURIComponent(options.jti)}`, { method: 'DELETE' }),
  pushPublicKey: () => send<VapidPublicKey>('/api/push/vapid'),
  pushSubscribe: (subscription: PushSubscriptionJson, device: string) =>
    send<{ ok: true }>('/api/push/subscribe', { method: 'POST', body: JSON.stringify({ subscription, device }) }),
  pushUnsubscribe: (endpoint: string) => send<{ ok: true }>('/api/push/subscribe', { method: 'DELETE', body: JSON.stringify({ endpoint }) }),
  /** Open to anyone holding the link: no login is sent (the link is the credential). */
  getSharedSession: (token: string) => send<SharedSession>(`/api/share/${encodeURIComponent(token)}`, { auth: false }),
};

