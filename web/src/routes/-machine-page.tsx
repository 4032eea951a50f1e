// -machine-page.tsx: the lazily loaded half of the machine route: the machine as the hub lists it
// (kept live by machine:updated facts), or why there is none.
import { getRouteApi } from '@tanstack/react-router';
import { useMachines } from '../lib/queries.ts';
import { MachinePage, NoSuchMachine } from '../features/machines/machine-page.tsx';

const machineRoute = getRouteApi('/_authed/machines/$machineId');

export function MachineRoute() {
  const { machineId } = machineRoute.useParams();
  const machines = useMachines();
  if (!machines.data) return null;
  const machine = machines.data.find((m) => m.id === machineId);
  return machine ? <MachinePage key={machine.id} machine={machine} /> : <NoSuchMachine />;
}
