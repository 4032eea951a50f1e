// -machine-shell.tsx: the lazily loaded half of the shell route. A shell needs the hub to enable
// shells, the machine's daemon to be online and to allow them; otherwise say which is missing.
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useHubFeatures, useMachines } from '../lib/queries.ts';
import { ShellView } from '../features/terminal/shell-view.tsx';

const shellRoute = getRouteApi('/_authed/machines/$machineId/shell');

function NoShell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="detail-placeholder">
      <p className="detail-placeholder-title">{title}</p>
      <p>{children}</p>
      <Link to="/" className="button">
        Back to sessions
      </Link>
    </div>
  );
}

export function MachineShell() {
  const { machineId } = shellRoute.useParams();
  const { cwd } = shellRoute.useSearch();
  const router = useRouter();
  const features = useHubFeatures();
  const machines = useMachines();
  if (!features || !machines.data) return null;
  if (!features.shell) return <NoShell title="Shells are off">This hub does not allow web shells. Its owner can start it with <code>tether hub --enable-shell</code>.</NoShell>;
  if (machineId === 'desk') {
    return (
      <NoShell title="No shell for this session">
        It was started at the desk with <code>tether claude</code>, and no <code>tether daemon</code> runs for it. Run <code>tether daemon --allow-shell</code> on that machine to open shells there.
      </NoShell>
    );
  }
  const machine = machines.data.find((m) => m.id === machineId);
  if (!machine) return <NoShell title="No such machine">This machine is not registered with the hub.</NoShell>;
  if (!machine.online) {
    return (
      <NoShell title={`${machine.name} is offline`}>
        Start <code>tether daemon --allow-shell</code> on {machine.name} to open a shell.
      </NoShell>
    );
  }
  if (!machine.shell) return <NoShell title="Shells not allowed">The daemon on {machine.name} runs without <code>--allow-shell</code>; restart it with that flag to open shells there.</NoShell>;
  return <ShellView key={machine.id} machine={machine} {...(cwd ? { cwd } : {})} onBack={() => router.history.back()} />;
}
