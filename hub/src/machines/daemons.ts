// daemons.ts: which `/cli` socket speaks for which machine's `tether daemon`, and the hub → daemon
// commands (emitted to that one socket with an ack and a timeout, never broadcast).
// Invariant: a daemon is found by (namespace of its token, machine id); a machine of another
// namespace is simply not there. The newest socket of a machine wins (a restarted daemon may
// connect before the hub noticed the old one is gone). With several hubs the daemon may be
// connected to another hub: `locate` finds it there (its socket sits in the machine's room, which
// the cluster adapter spans) and commands reach it through the adapter with the same ack. Every ack
// is parsed with its shared schema (DaemonCommandAckSchemas): a bad one is an error ack, never a throw.
import {
  ackError,
  DaemonCommandAckSchemas,
  describeZodError,
  machineRoom,
  type Ack,
  type DaemonCommandAcks,
  type DaemonCommandSchemas,
  type Namespace,
} from '@tether/shared';
import type { Namespace as IoNamespace } from 'socket.io';
import type { z } from 'zod';
import type { HubSocket, HubSocketData } from '../peers/peer.ts';

/** A daemon answers a command after a few file-system calls and one process spawn; 15 s means it is gone. */
export const DAEMON_ACK_TIMEOUT_MS = 15_000;
/** How long asking the other hubs for a machine's daemon may take before it counts as offline. */
const LOCATE_TIMEOUT_MS = 2_000;

export type DaemonDirectory = ReturnType<typeof createDaemonDirectory>;
/** A daemon socket on this hub, or the id of one on another hub. */
export type DaemonTarget = HubSocket | { remoteId: string };

export function createDaemonDirectory(options: { cli: IoNamespace; clustered: boolean }) {
  const sockets = new Map<string, HubSocket[]>();
  const key = (ns: Namespace, machineId: string) => `${ns}\u0000${machineId}`;
  const find = (ns: Namespace, machineId: string): HubSocket | null => {
    const list = sockets.get(key(ns, machineId));
    return list?.[list.length - 1] ?? null;
  };
  return {
    add(ns: Namespace, machineId: string, socket: HubSocket): void {
      const list = (sockets.get(key(ns, machineId)) ?? []).filter((s) => s !== socket);
      list.push(socket);
      sockets.set(key(ns, machineId), list);
      void socket.join(machineRoom(ns, machineId));
    },
    remove(ns: Namespace, machineId: string, socket: HubSocket): void {
      const list = (sockets.get(key(ns, machineId)) ?? []).filter((s) => s !== socket);
      if (list.length) sockets.set(key(ns, machineId), list);
      else sockets.delete(key(ns, machineId));
    },
    /** The machine's daemon socket on this hub. */
    find,
    /** The machine's newest daemon socket on any hub of the cluster (this hub's first). */
    async locate(ns: Namespace, machineId: string): Promise<DaemonTarget | null> {
      const local = find(ns, machineId);
      if (local) return local;
      try {
        const remote = await options.cli.in(machineRoom(ns, machineId)).timeout(LOCATE_TIMEOUT_MS).fetchSockets();
        const newest = remote
          .filter((s) => (s.data as HubSocketData | undefined)?.client === 'daemon')
          .sort((a, b) => ((b.data as HubSocketData).connectedAt ?? 0) - ((a.data as HubSocketData).connectedAt ?? 0))[0];
        return newest ? { remoteId: newest.id } : null;
      } catch {
        // A hub that just died is still counted until its heartbeat times out: treat as offline.
        return null;
      }
    },
    /** Whether any hub still has a daemon socket of this machine (null if that cannot be told).
     *  Answered at once when this hub has one, or is alone. */
    anyOnline(ns: Namespace, machineId: string): boolean | Promise<boolean | null> {
      if (find(ns, machineId) || !options.clustered) return find(ns, machineId) !== null;
      return this.askOthers(ns, machineId);
    },
    async askOthers(ns: Namespace, machineId: string): Promise<boolean | null> {
      try {
        return (await options.cli.in(machineRoom(ns, machineId)).timeout(LOCATE_TIMEOUT_MS).fetchSockets()).length > 0;
      } catch {
        return null;
      }
    },
    async command<E extends keyof DaemonCommandAcks>(
      target: DaemonTarget,
      event: E,
      payload: z.input<(typeof DaemonCommandSchemas)[E]>,
      timeoutMs = DAEMON_ACK_TIMEOUT_MS,
    ): Promise<Ack<DaemonCommandAcks[E]>> {
      try {
        let raw: unknown;
        if ('remoteId' in target) {
          // Through the adapter: the answer is the list of acks of every socket reached (one).
          const untyped = options.cli.to(target.remoteId) as unknown as { timeout(ms: number): { emitWithAck(event: string, payload: unknown): Promise<unknown[]> } };
          raw = (await untyped.timeout(timeoutMs).emitWithAck(event, payload))[0];
        } else {
          const untyped = target as unknown as { timeout(ms: number): { emitWithAck(event: string, payload: unknown): Promise<unknown> } };
          raw = await untyped.timeout(timeoutMs).emitWithAck(event, payload);
        }
        // Parsed before anyone reads a field of it (a missing `cwd` once made the spawn throw).
        const ack = DaemonCommandAckSchemas[event].safeParse(raw);
        if (!ack.success) return ackError('internal', `the daemon sent a bad answer to ${event}: ${describeZodError(ack.error)}`);
        return ack.data as Ack<DaemonCommandAcks[E]>;
      } catch {
        return ackError('internal', `the daemon did not answer ${event} within ${Math.round(timeoutMs / 1000)} s`);
      }
    },
  };
}
