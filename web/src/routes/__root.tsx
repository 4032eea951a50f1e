// __root.tsx: the root of the URL map. Every route gets the query client through router context.
import { Link, Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';

export type RouterContext = { queryClient: QueryClient };

function NotFound() {
  return (
    <main className="not-found">
      <h1>Nothing here</h1>
      <p>This address doesn't match any screen.</p>
      <Link to="/" className="button button-primary">
        Go to sessions
      </Link>
    </main>
  );
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});
