// sw.ts: the service worker. It makes the app installable and opens its shell without a network
// round trip; it never answers for data.
//
//   navigation (any app URL) ─► this build's cached index.html at once ─(none cached)─► the network
//   /assets/* (content-hashed), icons, manifest ─► any cache first, filled at install and on use
//   /api/*, /socket.io/*, anything cross-origin or not GET ─► not touched: straight to the network
//   a page taken over after it loaded code ─{tether-keep, urls}─► those hashed files join the cache
//   a new build: the browser finds /sw.js changed (it carries the build's id, stamped by
//     web/scripts/stamp-service-worker.ts) ─► install: that build's index.html and first-route files
//     ─► activate at once and take the open pages; the first navigation after that opens the new
//     shell. One that starts while it still installs is the old worker's, so the old build's
//     (docs/decisions/web.md, "App shell")
//
//   push (from the hub via the browser's push service) ─► a notification; tapping it opens or
//   focuses the app at the session it is about
//   push {kind: close, tag} (the request was answered elsewhere) ─► that notification is closed
//   a button tapped (Allow, Deny, a question's or a dialog's option, Accept a plan)
//     ─POST /api/push/action {choice, token}─► answered without opening the app; refused (used,
//     expired, answered elsewhere) or offline ─► the app opens at the request instead
//   buttons that do not all fit on this browser's notifications ─► Open alone (a choice cut short
//     would hide the right answer)
//
// Invariants: nothing under /api or /socket.io is ever put in or served from a cache (a stale
// session list or chat page would show a lie; the app's own reconnect logic handles offline). The
// shell served is always the one this worker's build names: an index.html whose digest is not the
// stamp fails the install, so a shell never meets another build's chunks (a chunk is found by its
// content-hashed name, so an old page's lazy chunk is either its own or missing, never a newer one).
// Built by Vite as /sw.js (vite.config.ts) so that its scope is the whole app.

// The DOM lib has no service-worker types; these are the few parts used here.
type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & { request: Request; respondWith(response: Promise<Response> | Response): void };
type PushEvent = ExtendableEvent & { data: { json(): unknown } | null };
type NotificationEvent = ExtendableEvent & { action: string; notification: Notification & { data: unknown; close(): void } };
type NotificationAction = { action: string; title: string };
type WindowClient = { url: string; focus(): Promise<WindowClient>; navigate(url: string): Promise<WindowClient | null> };
type WorkerScope = {
  location: Location;
  registration: {
    scope: string;
    showNotification(title: string, options: NotificationOptions & { data?: unknown; actions?: NotificationAction[] }): Promise<void>;
    getNotifications(filter?: { tag?: string }): Promise<Notification[]>;
  };
  skipWaiting(): Promise<void>;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown; ports: readonly MessagePort[]; waitUntil(promise: Promise<unknown>): void }) => void): void;
  addEventListener(type: string, listener: (event: never) => void): void;
};
const sw = self as unknown as WorkerScope;

/** The build this worker belongs to: the start of its index.html's SHA-256, written into sw.js by
 *  the build (stamp-service-worker.ts). */
declare const __TETHER_BUILD__: string;
const BUILD: string = __TETHER_BUILD__;
/** One cache per build. The previous build's stays until the one after: a page still running it
 *  may yet ask for one of its chunks. */
const CACHE_PREFIX = 'tether-shell-';
const CACHE_NAME = CACHE_PREFIX + BUILD;
const SHELL_FILES = ['/', '/manifest.webmanifest', '/icon.svg', '/icons/icon-192.png'];

/** Paths that are data, never shell: always the network, never a cache. */
function isDataPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/socket.io') || pathname === '/healthz';
}

function isShellAsset(pathname: string): boolean {
  return pathname.startsWith('/assets/') || pathname.startsWith('/icons/') || SHELL_FILES.includes(pathname);
}

/** The same digest the build stamps: which build an index.html belongs to. */
async function buildOf(html: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(html));
  return [...new Uint8Array(digest)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, BUILD.length);
}

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch('/', { cache: 'no-cache' });
      const html = await response.clone().text();
      // The hub moved on (or back) between serving sw.js and index.html: caching this shell would
      // pair it with another build's worker. Fail; the browser tries again at a later navigation.
      if (!response.ok || (await buildOf(html)) !== BUILD) throw new Error(`index.html is not build ${BUILD}`);
      const cache = await caches.open(CACHE_NAME);
      // The first route's scripts and styles, as index.html names them.
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      await cache.addAll([...new Set([...assets, ...SHELL_FILES.filter((f) => f !== '/')])]);
      await cache.put('/', response);
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Oldest first (creation order); keep this build's and the one before it.
      const others = (await caches.keys()).filter((n) => n.startsWith(CACHE_PREFIX) && n !== CACHE_NAME);
      for (const name of others.slice(0, -1)) await caches.delete(name);
      await sw.clients.claim();
    })(),
  );
});

// Which build a page's controller is: a page cannot tell two workers of one script URL apart
// (tests/browser/app-shell.test.ts asks before it expects the new shell).
sw.addEventListener('message', (event) => {
  const message = event.data as { type?: unknown; urls?: unknown } | null;
  if (message?.type === 'tether-build') event.ports[0]?.postMessage(BUILD);
  if (message?.type === 'tether-keep' && Array.isArray(message.urls)) event.waitUntil(keepCode(message.urls));
});

/** At most this many files kept per message: a build has under a hundred. */
const KEEP_AT_MOST = 300;

/** Code a page loaded before this worker took it over (register.ts): each hashed file of this
 *  origin not yet in a cache joins this build's (from the HTTP cache, as a rule: no download). */
async function keepCode(urls: unknown[]): Promise<void> {
  const cache = await caches.open(CACHE_NAME);
  for (const url of urls.slice(0, KEEP_AT_MOST)) {
    if (typeof url !== 'string') continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    if (parsed.origin !== sw.location.origin || !parsed.pathname.startsWith('/assets/') || parsed.search !== '') continue;
    if (await caches.match(parsed.href)) continue;
    await cache.add(parsed.href).catch(() => {}); // gone from the hub (another build): nothing to keep
  }
}

/** This build's shell, else the network (a worker whose install was cleared), else any cached shell. */
async function shell(request: Request): Promise<Response> {
  const cached = await (await caches.open(CACHE_NAME)).match('/');
  if (cached) return cached;
  try {
    return await fetch(request);
  } catch {
    return (await caches.match('/')) ?? Response.error();
  }
}

/** A hashed file from whichever build's cache holds it (its name is its content), else the network;
 *  a chunk loaded on demand (chat, terminal) joins this build's cache the first time it is used. */
async function asset(request: Request, pathname: string): Promise<Response> {
  // Only a hashed name may come from another build's cache; an icon or the manifest is this build's.
  const hit = pathname.startsWith('/assets/') ? await caches.match(request) : await (await caches.open(CACHE_NAME)).match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && pathname.startsWith('/assets/')) await (await caches.open(CACHE_NAME)).put(request, response.clone());
  return response;
}

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin || isDataPath(url.pathname)) return; // network, untouched
  if (request.mode === 'navigate') event.respondWith(shell(request));
  else if (isShellAsset(url.pathname)) event.respondWith(asset(request, url.pathname));
});

// ---- web push ---------------------------------------------------------------------------------

/** The hub's push (shared PushPayload); anything unexpected still shows something sensible. */
type PushMessage = {
  kind?: string;
  title?: string;
  body?: string;
  url?: string;
  tag?: string;
  request?: { namespace?: string; id?: string; actions?: NotificationAction[]; tokens?: Record<string, string> };
};
/** What a notification keeps for its click. */
type NotificationData = { url: string; request?: { namespace: string; id: string; tokens: Record<string, string> } };

/** How many buttons this browser shows on a notification; 0 (iOS) or unknown means none. */
function maxActions(): number {
  const value = (self as unknown as { Notification?: { maxActions?: number } }).Notification?.maxActions;
  return typeof value === 'number' ? value : 0;
}

async function closeTagged(tag: string): Promise<void> {
  for (const notification of await sw.registration.getNotifications({ tag })) notification.close();
}

sw.addEventListener('push', (event) => {
  let message: PushMessage = {};
  try {
    message = (event.data?.json() ?? {}) as PushMessage;
  } catch {
    message = {};
  }
  // Answered elsewhere or withdrawn: the notification would offer a choice that is gone.
  if (message.kind === 'close') {
    if (typeof message.tag === 'string') event.waitUntil(closeTagged(message.tag));
    return;
  }
  const url = typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/';
  const request = message.request;
  // Without buttons (iOS) a tap opens the request in the app, so the choices need no fallback here.
  const offered = Array.isArray(request?.actions) ? request.actions : [];
  const fits = offered.length <= maxActions();
  const actions = maxActions() === 0 ? [] : fits ? offered : [{ action: 'open', title: 'Open' }];
  const data: NotificationData = { url };
  if (request && typeof request.namespace === 'string' && typeof request.id === 'string') {
    data.request = { namespace: request.namespace, id: request.id, tokens: request.tokens ?? {} };
  }
  event.waitUntil(
    sw.registration.showNotification(message.title || 'tether', {
      body: message.body ?? '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // One notification per request / per session turn: a newer one replaces it.
      ...(message.tag ? { tag: message.tag } : {}),
      ...(actions.length > 0 ? { actions } : {}),
      data,
    }),
  );
});

async function openApp(target: string): Promise<void> {
  // An open tab of the app takes the user there; otherwise a new one opens.
  const tabs = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const tab = tabs.find((t) => new URL(t.url).origin === sw.location.origin);
  if (tab) {
    await tab.focus();
    await tab.navigate(target).catch(() => null);
    return;
  }
  await sw.clients.openWindow(target);
}

/** A choice with the notification's own token for it; true when the hub took the answer. */
async function answerFromNotification(request: NonNullable<NotificationData['request']>, choice: string): Promise<boolean> {
  const token = Object.hasOwn(request.tokens, choice) ? request.tokens[choice] : undefined;
  if (!token) return false;
  try {
    const response = await fetch('/api/push/action', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ namespace: request.namespace, requestId: request.id, choice, token }),
      credentials: 'omit',
    });
    return response.ok;
  } catch {
    return false;
  }
}

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = (event.notification.data ?? {}) as Partial<NotificationData>;
  const target = typeof data.url === 'string' ? data.url : '/';
  // A button's action names its choice; "open" and a tap on the notification itself name none.
  const choice = event.action && event.action !== 'open' ? event.action : null;
  event.waitUntil(
    (async () => {
      if (choice && data.request && (await answerFromNotification(data.request, choice))) return;
      // "Open", a tap on the notification itself, or an answer the hub refused (already answered
      // elsewhere, expired): the app shows the request as it now stands.
      await openApp(target);
    })(),
  );
});
