// shell-button.tsx: opens this tab's login shell on the session's machine (in the session's
// directory). Shown only when the hub enables web shells; for a session without a daemon, or whose
// machine's daemon is offline, it leads to a page that says why there is none and what to start.
import { Link } from '@tanstack/react-router';
import type { Session } from '@tether/shared';
import { useHubFeatures, useMachines } from '../../lib/queries.ts';
import { IconShell } from '../../lib/ui/icons.tsx';

export function ShellButton({ session }: { session: Session }) {
  const features = useHubFeatures();
  const machines = useMachines();
  if (!features?.shell) return null;
  const machine = session.machineId ? machines.data?.find((m) => m.id === session.machineId) : undefined;
  // Offline, it leads to the page that says to start the daemon there; online without shells, its
  // daemon said no, and there is nothing to do from here.
  if (session.machineId && (!machine || (machine.online && !machine.shell))) return null;
  return (
    <Link
      to="/machines/$machineId/shell"
      params={{ machineId: session.machineId ?? 'desk' }}
      search={{ cwd: session.cwd }}
      className="icon-button shell-button"
      aria-label="Shell on this machine"
      title="Shell on this machine"
    >
      <IconShell size={22} />
    </Link>
  );
}
