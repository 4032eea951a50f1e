// register.ts: installs the service worker (sw.ts, served as /sw.js) once the app has loaded, in
// production builds only: in `vite dev` a worker would cache modules the dev server rewrites.
// A new build reaches an open app two ways (docs/decisions/web.md, "App shell"): the browser checks
// /sw.js at each navigation, and this page asks again whenever it comes back to the front (a phone
// keeps the app open for days); once the new worker has installed and taken over, the next navigation
// opens the new shell (the load that found it is still the old build's). A lazy chunk of this
// page's build that the hub no longer has (it took a new build) reloads the page into the new one;
// one that failed because the browser is offline does not (the reload would trade a screen drawn from
// the phone's cache for a shell with nothing to fetch): the part that needed it waits for 'online'
// (lib/ui/lazy-part.tsx).

/** A reload for a missing chunk at most this often: a hub that lost its files must not loop the page. */
const RELOAD_AT_MOST_EVERY_MS = 30_000;
const RELOADED_AT = 'tether.chunk-reload';

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD) return;
  window.addEventListener('vite:preloadError', (event) => {
    if (!navigator.onLine) return;
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < RELOAD_AT_MOST_EVERY_MS) return; // let the error show
    event.preventDefault();
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    location.reload();
  });
  if (!('serviceWorker' in navigator)) return;
  // Service workers need a secure context; a phone on plain http over the LAN has none: skip quietly.
  if (!window.isSecureContext) return;
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
