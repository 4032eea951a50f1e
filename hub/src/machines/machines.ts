// machines.ts: the machines room's face to the edges: a `tether daemon` registers its machine, goes
// away, and is found again (on this hub or, with several hubs, on another). Each change is stored
// and published as `machine.updated`.
//
//   daemon ─machine:register─► registry (online count) ─► store ─► machine.updated
//   daemon socket gone ─► still online here or on another hub? ─no─► offline ─► machine.updated
//
// Invariant: a machine is offline only once no hub of the cluster has a daemon socket of it (when
// that cannot be told, it stays online: the next disconnect settles it).
import type { MachineInfo, Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { HubSocket } from '../peers/peer.ts';
import type { DaemonDirectory } from './daemons.ts';
import { createMachineRegistry } from './registry.ts';

export type Machines = ReturnType<typeof createMachines>;
export type MachineQueries = ReturnType<typeof createMachineQueries>;

/** The machines of a namespace, as REST and the domain read them. */
export function createMachineQueries(options: { store: Store }) {
  const { store } = options;
  return {
    list: (ns: Namespace) => store.listMachines({ namespace: ns }),
    async find(ns: Namespace, machineId: string) {
      return (await store.listMachines({ namespace: ns })).find((m) => m.id === machineId) ?? null;
    },
  };
}

export function createMachines(options: { store: Store; facts: FactBus; daemons: DaemonDirectory; onError: (what: string, error: unknown) => void }) {
  const { store, facts, daemons } = options;
  const registry = createMachineRegistry({ store });
  return {
    ...createMachineQueries({ store }),
    /** A socket registered its machine (`first`: its first registration; later ones update the
     *  record only). A daemon's socket is the machine's way in for commands. */
    async registered(ns: Namespace, socket: HubSocket, info: MachineInfo, first: boolean): Promise<void> {
      const machine = first ? await registry.connected({ namespace: ns, machine: info }) : await store.upsertMachine({ namespace: ns, machine: info, now: Date.now() });
      if (socket.data.client === 'daemon') daemons.add(ns, info.id, socket);
      facts.publish('machine.updated', { namespace: ns, machine });
    },
    /** A socket that registered `machineId` went away; the daemon may already be back through
     *  another hub (the balancer picks any). */
    left(ns: Namespace, machineId: string, socket: HubSocket): void {
      daemons.remove(ns, machineId, socket);
      const settle = (online: boolean | null) => {
        registry
          .disconnected({ namespace: ns, machineId, onlineElsewhere: online !== false })
          .then((machine) => {
            if (machine) facts.publish('machine.updated', { namespace: ns, machine });
          })
          .catch((error: unknown) => options.onError('disconnect', error));
      };
      const online = daemons.anyOnline(ns, machineId);
      if (typeof online === 'boolean') settle(online);
      else void online.then(settle);
    },
  };
}
