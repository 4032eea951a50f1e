// machine-chip.tsx: in the session header, the machine the session belongs to and whether its
// `tether daemon` is online: Resume, Review and the machine's shell go through that daemon, so when
// it is offline the chip says what to start, and where. A session that names no machine (a desk
// without a daemon) shows none: its Resume says why. A tap opens the machine's page.
import { Link } from '@tanstack/react-router';
import type { Session } from '@tether/shared';
import { useMachines } from '../../lib/queries.ts';
import { machineOf, startDaemonOn } from '../../lib/daemon-hint.ts';
import { Badge } from '../../lib/ui/badge.tsx';
// The machine dot is the session list's (its machine groups).
import './session-list.css';

export function MachineChip({ session }: { session: Pick<Session, 'machineId'> }) {
  const machines = useMachines();
  const machine = machineOf(session.machineId, machines.data);
  if (!machine) return null;
  const title = machine.online
    ? `tether daemon on ${machine.name} is online: resume, review and its shell go through it`
    : `${machine.name} is offline: ${startDaemonOn(machine.name)} to resume, review or open its shell`;
  // A tap opens the machine's page (its daemon, what was found there); the link's name is the badge's.
  return (
    <Link to="/machines/$machineId" params={{ machineId: machine.id }} className="machine-chip-link">
      <Badge title={title} label={machine.online ? `${machine.name}: daemon online` : `${machine.name}: daemon offline, ${startDaemonOn(machine.name)}`}>
        <span className={`machine-dot ${machine.online ? 'is-online' : ''}`} aria-hidden="true" />
        {machine.online ? machine.name : `${machine.name} offline`}
      </Badge>
    </Link>
  );
}
