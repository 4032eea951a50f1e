// daemons.ts: which `/cli` socket speaks for which machine's `tether daemon`, and the hub → daemon
// commands (emitted to that one socket with an ack and a timeout, never broadcast).
// Invariant: a daemon is found by (namespace of its token, machine id); a machine of another
// namespace is simply not there. The newest socket of a machine wins (a restarted daemon may
// connect before the hub noticed the old one is gone).
import {
  ackError,
  type Ack,
  type DaemonCommandAcks,
  type DaemonCommandSchemas,
  type Namespace,
} from '@tether/shared';
import type { z } from 'zod';
import type { HubSocket } from './handle.ts';

/** A daemon answers a command after a few file-system calls and one process spawn; 15 s means it is gone. */
export const DAEMON_ACK_TIMEOUT_MS = 15_000;

export type DaemonDirectory = ReturnType<typeof createDaemonDirectory>;

export function createDaemonDirectory() {
  const sockets = new Map<string, HubSocket[]>();
  const key = (ns: Namespace, machineId: string) => `${ns}\u0000${machineId}`;
  return {
    add(ns: Namespace, machineId: string, socket: HubSocket): void {
      const list = (sockets.get(key(ns, machineId)) ?? []).filter((s) => s !== socket);
      list.push(socket);
      sockets.set(key(ns, machineId), list);
    },
    remove(ns: Namespace, machineId: string, socket: HubSocket): void {
      const list = (sockets.get(key(ns, machineId)) ?? []).filter((s) => s !== socket);
      if (list.length) sockets.set(key(ns, machineId), list);
      else sockets.delete(key(ns, machineId));
    },
    find(ns: Namespace, machineId: string): HubSocket | null {
      const list = sockets.get(key(ns, machineId));
      return list?.[list.length - 1] ?? null;
    },
    async command<E extends keyof DaemonCommandAcks>(
      socket: HubSocket,
      event: E,
      payload: z.input<(typeof DaemonCommandSchemas)[E]>,
      timeoutMs = DAEMON_ACK_TIMEOUT_MS,
    ): Promise<Ack<DaemonCommandAcks[E]>> {
      try {
        const untyped = socket as unknown as { timeout(ms: number): { emitWithAck(event: string, payload: unknown): Promise<unknown> } };
        const ack = (await untyped.timeout(timeoutMs).emitWithAck(event, payload)) as Ack<DaemonCommandAcks[E]> | undefined;
        if (!ack || typeof ack !== 'object' || typeof ack.ok !== 'boolean') return ackError('internal', `the daemon sent a bad answer to ${event}`);
        return ack;
      } catch {
        return ackError('internal', `the daemon did not answer ${event} within ${Math.round(timeoutMs / 1000)} s`);
      }
    },
  };
}
