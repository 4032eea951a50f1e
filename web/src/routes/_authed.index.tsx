// _authed.index.tsx: `/`. On a phone the list is the whole screen (the shell shows it); on a wide
// screen this fills the detail side until a session is picked.
import { createRoute } from '@tanstack/react-router';
import { useMachines, useSessions } from '../lib/queries.ts';
import { IconChat } from '../lib/ui/icons.tsx';
import { SessionsEmpty } from '../features/sessions/sessions-empty.tsx';
import { Route as authedRoute } from './_authed.tsx';

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: '/',
  component: NoSessionSelected,
});

function NoSessionSelected() {
  const { data } = useSessions();
  const { data: machines } = useMachines();
  if (data && data.length === 0) {
    return (
      <div className="detail-placeholder">
        <SessionsEmpty canStartRemotely={(machines ?? []).some((m) => m.online)} />
      </div>
    );
  }
  return (
    <div className="detail-placeholder">
      <div className="detail-placeholder-icon" aria-hidden="true">
        <IconChat size={28} />
      </div>
      <p className="detail-placeholder-title">Pick a session</p>
      <p>Its chat and approvals open here.</p>
    </div>
  );
}
