// main.tsx: boots the app: takes a QR-link token out of the address bar first, then builds the
// query client and the router from the route files, and renders.
// The app's tokens, resets, shell and shared controls come first: every feature's stylesheet follows
// them, so a feature's rule wins a tie with these (docs/decisions/web.md, "Styles").
import './lib/ui/app.css';
import './lib/ui/controls.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { captureFragmentCredential, exchangeFragmentCredentialEarly, getLogin } from './lib/hub.ts';
import { shouldRetryQuery } from './lib/queries.ts';
import { getSocket } from './lib/socket.ts';
import { Route as rootRoute } from './routes/__root.tsx';
import { Route as loginRoute } from './routes/login.tsx';
import { Route as shareRoute } from './routes/share.$token.tsx';
import { Route as authedRoute } from './routes/_authed.tsx';
import { Route as authedIndexRoute } from './routes/_authed.index.tsx';
import { Route as newSessionRoute } from './routes/_authed.new.tsx';
import { Route as schedulesRoute } from './routes/_authed.schedules.tsx';
import { preloadSessionScreen, Route as sessionRoute } from './routes/_authed.sessions.$sessionId.tsx';
import { Route as sessionChatRoute } from './routes/_authed.sessions.$sessionId.index.tsx';
import { Route as sessionTerminalRoute } from './routes/_authed.sessions.$sessionId.terminal.tsx';
import { Route as sessionChangesRoute } from './routes/_authed.sessions.$sessionId.changes.tsx';
import { Route as sessionFilesRoute } from './routes/_authed.sessions.$sessionId.files.tsx';
import { Route as machineShellRoute } from './routes/_authed.machines.$machineId.shell.tsx';
import { Route as machineRoute } from './routes/_authed.machines.$machineId.tsx';
import { registerServiceWorker } from './pwa/register.ts';
import { RouteError } from './lib/ui/route-error.tsx';
import { firstScreenPainted } from './lib/first-screen.ts';

// Before anything renders or logs a URL: a pairing code or token must not stay in the address bar.
captureFragmentCredential();
// A link's code is traded for a session now, while the router and the login screen's code load.
exchangeFragmentCredentialEarly();
// A session's chat comes over the socket, so its handshake is on the way to the first screen: start
// it now, beside the route's code, not after the first render. (A share page signs in with its link.)
if (!location.pathname.startsWith('/share/')) getSocket();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetryQuery,
      // Lists are kept live by socket facts; a refetch on focus catches what a sleeping phone missed.
      staleTime: 30_000,
      refetchOnWindowFocus: true,
    },
  },
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  shareRoute,
  authedRoute.addChildren([authedIndexRoute, newSessionRoute, machineRoute, schedulesRoute, machineShellRoute, sessionRoute.addChildren([sessionChatRoute, sessionTerminalRoute, sessionChangesRoute, sessionFilesRoute])]),
]);

const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultErrorComponent: RouteError,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

registerServiceWorker();

// A session's screen is what the list is for: its code is loaded while the person reads the list,
// not after their tap (a failure here is retried by the tap's own import).
void firstScreenPainted().then(() => {
  if (getLogin() && !location.pathname.startsWith('/share/')) preloadSessionScreen(router.loadRouteChunk(sessionChatRoute)).catch(() => {});
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
