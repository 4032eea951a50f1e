// machines.ts: the registry of machines running `tether daemon`. A machine is online while at least
// one of its daemon sockets is connected; the count lives in memory because a restart of the hub
// disconnects every socket anyway (and marks nothing online until they come back). With several
// hubs the caller says whether another hub still has a daemon socket of the machine.
import type { Machine, MachineInfo, Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';
import { createInOrder } from '../sessions/in-order.ts';

export type MachineRegistry = {
  connected(options: { namespace: Namespace; machine: MachineInfo }): Promise<Machine>;
  /** Returns the machine when it just went offline. */
  disconnected(options: { namespace: Namespace; machineId: string; onlineElsewhere?: boolean }): Promise<Machine | null>;
};

export function createMachineRegistry(options: { store: Store }): MachineRegistry {
  const sockets = new Map<string, number>();
  const key = (ns: string, id: string) => `${ns}\u0000${id}`;
  // A daemon that reconnects at once: its "offline" write must not land after its "online" one.
  const inOrder = createInOrder();
  return {
    connected({ namespace, machine }) {
      const k = key(namespace, machine.id);
      sockets.set(k, (sockets.get(k) ?? 0) + 1);
      return inOrder(k, () => options.store.upsertMachine({ namespace, machine, now: Date.now() }));
    },
    disconnected({ namespace, machineId, onlineElsewhere }) {
      const k = key(namespace, machineId);
      const left = (sockets.get(k) ?? 1) - 1;
      if (left > 0) {
        sockets.set(k, left);
        return Promise.resolve(null);
      }
      sockets.delete(k);
      if (onlineElsewhere) return Promise.resolve(null);
      return inOrder(k, () => options.store.setMachineOnline({ namespace, machineId, online: false, now: Date.now() }));
    },
  };
}
