// register.ts: installs the service worker (sw.ts, served as /sw.js) once the app has loaded, in
// production builds only: in `vite dev` a worker would cache modules the dev server rewrites.
// A new build reaches an open app two ways (docs/decisions/web.md, "App shell"): the browser checks
// /sw.js at each navigation, and this page asks again whenever it comes back to the front (a phone
// keeps the app open for days); once the new worker has installed and taken over, the next navigation
// opens the new shell (the load that found it is still the old build's). A lazy chunk of this
// page's build that the hub no longer has (it took a new build) reloads the page into the new one;
// one that failed while the network was to blame (offline, or only just back) does not: the reload
// would trade a screen drawn from the phone's cache for a shell with nothing to fetch. The part or
// screen that needed it loads again once online (lib/ui/lazy-part.tsx, lib/route-code.ts).

import { networkToBlame } from '../lib/route-code.ts';

/** A reload for a missing chunk at most this often: a hub that lost its files must not loop the page. */
const RELOAD_AT_MOST_EVERY_MS = 30_000;
const RELOADED_AT = 'tether.chunk-reload';

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD) return;
  window.addEventListener('vite:preloadError', (event) => {
    if (networkToBlame()) return;
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < RELOAD_AT_MOST_EVERY_MS) return; // let the error show
    event.preventDefault();
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    location.reload();
  });
  if (!('serviceWorker' in navigator)) return;
  // Service workers need a secure context; a phone on plain http over the LAN has none: skip quietly.
  if (!window.isSecureContext) return;
  // A page the worker took over after it had loaded code (the first visit: the worker installs after
  // the page's load) hands it that code's addresses, so it is in the worker's cache and not only in
  // the HTTP cache, which a phone may empty: opened offline later, that screen still has its code.
  navigator.serviceWorker.addEventListener('controllerchange', keepCodeLoadedBefore);
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(
      (registration) => {
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'visible') registration.update().catch(() => {});
        });
      },
      () => {
        // Not installable is not broken: the app works the same without it.
      },
    );
  });
}

/** How long after the worker took over a file fetched without it may still arrive (one requested
 *  before, answered after). */
const KEEP_WATCH_MS = 60_000;

/** Hands the worker the app's files this page fetched without it (workerStart 0): those loaded, and
 *  those still on their way as it took over. */
function keepCodeLoadedBefore(): void {
  if (typeof PerformanceObserver === 'undefined') return;
  const observer = new PerformanceObserver((list) => {
    const urls = (list.getEntries() as PerformanceResourceTiming[])
      .filter((entry) => entry.workerStart === 0 && entry.name.startsWith(`${location.origin}/assets/`))
      .map((entry) => entry.name);
    if (urls.length > 0) navigator.serviceWorker.controller?.postMessage({ type: 'tether-keep', urls });
  });
  observer.observe({ type: 'resource', buffered: true });
  setTimeout(() => observer.disconnect(), KEEP_WATCH_MS);
}
