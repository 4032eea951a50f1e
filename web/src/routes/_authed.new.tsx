// _authed.new.tsx: `/new`, start a session on an online machine. The spawn request arrives with
// the daemon; until then this screen says so instead of offering a form that cannot work.
import { createRoute, Link } from '@tanstack/react-router';
import { useMachines } from '../lib/queries.ts';
import { Route as authedRoute } from './_authed.tsx';

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: 'new',
  component: NewSession,
});

function NewSession() {
  const { data: machines = [] } = useMachines();
  const online = machines.filter((m) => m.online);
  return (
    <div className="detail-placeholder">
      <p className="detail-placeholder-title">New session</p>
      <p>
        {online.length > 0
          ? `Online: ${online.map((m) => m.name).join(', ')}. Starting sessions from the web arrives with tether daemon.`
          : 'No machine is online. Run tether daemon on a computer to start sessions from here.'}
      </p>
      <Link to="/" className="button">
        Back to sessions
      </Link>
    </div>
  );
}
