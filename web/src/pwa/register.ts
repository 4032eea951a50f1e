// register.ts: installs the service worker (sw.ts, served as /sw.js) once the app has loaded, in
// production builds only: in `vite dev` a worker would cache modules the dev server rewrites.
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // Service workers need a secure context; a phone on plain http over the LAN has none: skip quietly.
  if (!window.isSecureContext) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // Not installable is not broken: the app works the same without it.
    });
  });
}
