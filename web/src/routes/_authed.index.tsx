// _authed.index.tsx: `/`. On a phone the list is the whole screen (the shell shows it); on a wide
// screen this fills the detail side until a session is picked.
import { createRoute } from '@tanstack/react-router';
import { useSessions } from '../lib/queries.ts';
import { IconSpark } from '../lib/ui/icons.tsx';
import { Route as authedRoute } from './_authed.tsx';

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: '/',
  component: NoSessionSelected,
});

function NoSessionSelected() {
  const { data } = useSessions();
  const count = data?.length ?? 0;
  return (
    <div className="detail-placeholder">
      <div className="detail-placeholder-icon" aria-hidden="true">
        <IconSpark size={28} />
      </div>
      <p className="detail-placeholder-title">{count > 0 ? 'Pick a session' : 'Waiting for your first session'}</p>
      <p>
        {count > 0
          ? 'Its chat, approvals and terminal open here.'
          : 'Start one with tether claude in a terminal. It appears in the list as soon as it starts.'}
      </p>
    </div>
  );
}
