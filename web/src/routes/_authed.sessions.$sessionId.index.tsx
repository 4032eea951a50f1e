// _authed.sessions.$sessionId.index.tsx: `/sessions/:id`, the chat tab. The chat code (markdown,
// tool cards) loads on demand, so the session list opens without it.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as sessionRoute } from './_authed.sessions.$sessionId.tsx';

export const Route = createRoute({
  getParentRoute: () => sessionRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./-session-chat.tsx'), 'SessionChat'),
});
