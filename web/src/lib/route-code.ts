// route-code.ts: a screen's code loaded on demand, told apart from a broken build when the network is
// to blame. TanStack's lazyRouteComponent reloads the page once for any failed import (right for a
// hub that moved to a new build: vite:preloadError does the same, pwa/register.ts); offline, that
// reload traded the list and the session's header for a shell with nothing to fetch and a spinner
// that never ended, and back online the session route said "That isn't a session address". While
// the network is to blame (offline, or back for less than RECONNECTED_MS: a request refused offline
// may fail after the 'online' event), the failure is CodeNotHereError instead, which the router hands
// to its error screen (lib/ui/route-error.tsx), and that screen loads the code again once online.
// A stylesheet that failed meanwhile is asked for again at 'online': Vite preloads each file once
// per page, so a retried chunk would otherwise draw without its styles.
//
//   import() ok ─► the screen
//            fails, network fine ─► the error as is (lazyRouteComponent reloads into the new build)
//            fails, network to blame ─► CodeNotHereError ─► route-error.tsx ─'online'─► preload, reset
import type { AnyRouter } from '@tanstack/react-router';

/** How long after coming back online a failed load is still put down to the network. */
const RECONNECTED_MS = 10_000;
/** How soon a stylesheet that failed again just after 'online' is asked for once more. */
const RESTYLE_AFTER_MS = 1_000;
/** How soon code that failed while already back online is tried again. */
const RETRY_ONLINE_MS = 2_000;

let onlineSince = 0;
/** The app's stylesheets that failed to load (a failed link still has a sheet, an unreadable one). */
const failedStyles = new Set<HTMLLinkElement>();
if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    onlineSince = Date.now();
    restoreFailedStyles();
  });
  // A link's error does not bubble: heard on its way down.
  document.addEventListener(
    'error',
    (event) => {
      const link = event.target;
      if (!(link instanceof HTMLLinkElement) || link.rel !== 'stylesheet' || !new URL(link.href).pathname.startsWith('/assets/')) return;
      failedStyles.add(link);
      // Failed again just after 'online' (the network not quite back): once more, a moment later.
      if (navigator.onLine && networkToBlame()) setTimeout(restoreFailedStyles, RESTYLE_AFTER_MS);
    },
    true,
  );
}

/** Offline, or back online only just now. */
export function networkToBlame(): boolean {
  return (typeof navigator !== 'undefined' && navigator.onLine === false) || Date.now() - onlineSince < RECONNECTED_MS;
}

/** Calls `retry` once, at the next 'online'; with `soon` (it failed after the 'online' that would
 *  have retried it) RETRY_ONLINE_MS from now if that comes first. Returns the cancel. */
export function retryAtOnline(retry: () => void, o: { soon: boolean }): () => void {
  const once = () => {
    cancel();
    retry();
  };
  const timer = o.soon ? setTimeout(once, RETRY_ONLINE_MS) : undefined;
  const cancel = () => {
    clearTimeout(timer);
    window.removeEventListener('online', once);
  };
  window.addEventListener('online', once);
  return cancel;
}

export class CodeNotHereError extends Error {
  override name = 'CodeNotHereError';
}

/** Wraps a route's `import()` for lazyRouteComponent. */
export function routeCode<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      if (networkToBlame()) throw new CodeNotHereError("This screen's code is not on this device yet", { cause: error });
      throw error;
    });
}

/** Loads again the code of every screen now shown (a route component's preload clears its failure). */
export async function reloadShownCode(router: AnyRouter): Promise<void> {
  const routes = router.state.matches.map((match) => (router.routesById as Record<string, { options: { component?: unknown } } | undefined>)[match.routeId]);
  await Promise.all(routes.map((route) => (route?.options.component as { preload?: () => Promise<void> } | undefined)?.preload?.()));
}

/** The app's stylesheets that failed (offline) are put in again, to load now. */
function restoreFailedStyles(): void {
  for (const link of failedStyles) {
    failedStyles.delete(link);
    if (!link.isConnected) continue;
    const fresh = link.cloneNode() as HTMLLinkElement;
    link.after(fresh);
    link.remove();
  }
}
