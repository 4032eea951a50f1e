// _authed.sessions.$sessionId.terminal.tsx: `/sessions/:id/terminal`, the live terminal tab of a
// PTY session. xterm loads on demand: it is not in the first-load bundle.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as sessionRoute } from './_authed.sessions.$sessionId.tsx';

export const Route = createRoute({
  getParentRoute: () => sessionRoute,
  path: 'terminal',
  component: lazyRouteComponent(() => import('./-session-terminal.tsx'), 'SessionTerminal'),
});
