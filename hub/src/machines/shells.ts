// shells.ts: web shells (shared/src/shell.ts) through the hub. The hub keeps no bytes: it checks,
// names the shell, and routes each shell's output to the one /web socket it is open on.
//
//   web ─shell:open─► enabled? machine of this namespace with a daemon online? ─► daemon:shell-open
//        └─ ack {shellId, reattached}; the daemon's held output (reset) and live output follow
//   daemon ─shell:output/exit─► shells[shellId] (same namespace, same machine) ─► that viewer socket
//   web disconnect / shell:leave ─► daemon:shell-detach (the daemon's idle clock starts)
//
// Several hubs: when the machine's daemon is on another hub, this hub first tells that hub where
// the viewer is (`shell-routed`, answered before the daemon is asked, so its held output finds the
// way), commands go to the daemon through the adapter, and that hub sends output and exit to the
// viewer's socket id through the adapter (a shell is typed by a person: NOTIFY's pace is plenty).
//
// Invariants: a shell id is sha256(namespace, machine, viewer id), built here from the socket's
// authenticated namespace, so no payload can name another namespace's shell; input, resize, close
// and leave are taken only from the socket the shell is open on (others answer not_found, as for a
// missing shell); a share-link socket never gets here (sockets/share.ts answers it `forbidden`).
import { createHash } from 'node:crypto';
import {
  ackError,
  shellIdInput,
  toBytes,
  type Ack,
  type Namespace,
  type ShellOpenAck,
  type ShellOutput,
} from '@tether/shared';
import type { z } from 'zod';
import type { ShellExitSchema, ShellInputSchema, ShellOpenSchema, ShellRefSchema, ShellResizeSchema } from '@tether/shared';
import type { Machines } from './machines.ts';
import type { Namespace as IoNamespace } from 'socket.io';
import type { DaemonDirectory, DaemonTarget } from './daemons.ts';
import type { HubSocket } from '../peers/peer.ts';
import type { ClusterBus } from '../cluster/bus.ts';

const NO_SHELL = 'no such shell';
export const SHELL_DISABLED = 'shells are disabled on this hub; its owner can enable them with `tether hub --enable-shell`';

/** The viewer's socket here, or its id on another hub of the cluster. */
type ShellViewer = HubSocket | { remoteId: string };
type OpenShell = { ns: Namespace; machineId: string; daemon: DaemonTarget; viewer: ShellViewer | null };

export function shellIdFor(ns: Namespace, machineId: string, viewerId: string): string {
  return createHash('sha256').update(shellIdInput(ns, machineId, viewerId)).digest('hex').slice(0, 32);
}

export function createShellBridge(options: { enabled: boolean; machines: Machines; daemons: DaemonDirectory; web: IoNamespace; bus: ClusterBus }) {
  const { daemons } = options;
  const shells = new Map<string, OpenShell>();
  const toViewer = (viewer: ShellViewer | null, event: 'shell:output' | 'shell:exit', payload: object) => {
    if (!viewer) return;
    if ('remoteId' in viewer) options.web.to(viewer.remoteId).emit(event, payload);
    else viewer.emit(event, payload as never);
  };
  // A viewer on another hub opens a shell on a machine whose daemon is here: route its output there.
  options.bus.on('shell-routed', ({ namespace, machineId, shellId, viewerId, socketId }) => {
    const daemon = daemons.find(namespace, machineId);
    // The id is a hash of (namespace, machine, viewer id): the same inputs must give it.
    if (!daemon || shellIdFor(namespace, machineId, viewerId) !== shellId) return { routed: false };
    shells.set(shellId, { ns: namespace, machineId, daemon, viewer: { remoteId: socketId } });
    return { routed: true };
  });

  /** The shell if `socket` is its viewer (same namespace by construction of the id). */
  const mine = (socket: HubSocket, shellId: string): OpenShell | null => {
    const shell = shells.get(shellId);
    return shell && shell.viewer === socket && shell.ns === socket.data.caller.namespace ? shell : null;
  };
  /** The shell if this socket is the daemon it runs under. */
  const ours = (socket: HubSocket, shellId: string) => {
    const shell = shells.get(shellId);
    return shell && shell.daemon === socket && shell.ns === socket.data.caller.namespace && shell.machineId === socket.data.machineId ? shell : null;
  };
  const detach = (shellId: string, shell: OpenShell) => {
    shell.viewer = null;
    void daemons.command(shell.daemon, 'daemon:shell-detach', { shellId });
  };

  return {
    async open(socket: HubSocket, open: z.output<typeof ShellOpenSchema>): Promise<Ack<ShellOpenAck>> {
      if (!options.enabled) return ackError('forbidden', SHELL_DISABLED);
      const ns = socket.data.caller.namespace;
      const machine = await options.machines.find(ns, open.machineId);
      if (!machine) return ackError('not_found', 'no such machine');
      const daemon = await daemons.locate(ns, open.machineId);
      if (!daemon) return ackError('conflict', `machine "${machine.name}" is offline: start tether daemon there`);
      if (!machine.shell) return ackError('forbidden', `machine "${machine.name}" does not allow shells; start its daemon with \`tether daemon --allow-shell\``);
      const shellId = shellIdFor(ns, open.machineId, open.viewerId);
      if ('remoteId' in daemon) {
        // The daemon's hub must know where this viewer is before the daemon sends anything.
        const answers = await options.bus.ask('shell-routed', { namespace: ns, machineId: open.machineId, shellId, viewerId: open.viewerId, socketId: socket.id });
        if (!answers.some((a) => (a as { routed?: unknown } | null)?.routed === true)) {
          return ackError('conflict', `machine "${machine.name}" is offline: start tether daemon there`);
        }
      }
      // Routed before the daemon is asked: its held output (sent before its ack) must find us.
      // The same viewer id from a new socket (a reloaded tab) takes its own shell back.
      const previous = shells.get(shellId);
      shells.set(shellId, { ns, machineId: open.machineId, daemon, viewer: socket });
      const ack = await daemons.command(daemon, 'daemon:shell-open', { shellId, cwd: open.cwd ?? null, cols: open.cols, rows: open.rows });
      if (!ack.ok) {
        if (shells.get(shellId)?.viewer === socket) {
          if (previous) shells.set(shellId, { ...previous, viewer: null });
          else shells.delete(shellId);
        }
        return ack;
      }
      return { ok: true, shellId, reattached: ack.reattached };
    },
    async input(socket: HubSocket, { shellId, data }: z.output<typeof ShellInputSchema>): Promise<Ack<object>> {
      const shell = mine(socket, shellId);
      if (!shell) return ackError('not_found', NO_SHELL);
      return daemons.command(shell.daemon, 'daemon:shell-input', { shellId, data });
    },
    async resize(socket: HubSocket, { shellId, cols, rows }: z.output<typeof ShellResizeSchema>): Promise<Ack<object>> {
      const shell = mine(socket, shellId);
      if (!shell) return ackError('not_found', NO_SHELL);
      return daemons.command(shell.daemon, 'daemon:shell-resize', { shellId, cols, rows });
    },
    async close(socket: HubSocket, { shellId }: z.output<typeof ShellRefSchema>): Promise<Ack<object>> {
      const shell = mine(socket, shellId);
      if (!shell) return ackError('not_found', NO_SHELL);
      return daemons.command(shell.daemon, 'daemon:shell-close', { shellId });
    },
    leave(socket: HubSocket, { shellId }: z.output<typeof ShellRefSchema>): Ack<object> {
      const shell = mine(socket, shellId);
      if (!shell) return ackError('not_found', NO_SHELL);
      detach(shellId, shell);
      return { ok: true };
    },

    /** Output of a shell, from the daemon it runs under. */
    output(socket: HubSocket, output: ShellOutput): Ack<object> {
      const shell = ours(socket, output.shellId);
      if (!shell) return ackError('not_found', NO_SHELL);
      toViewer(shell.viewer, 'shell:output', { shellId: output.shellId, offset: output.offset, data: toBytes(output.data), ...(output.reset ? { reset: true } : {}) });
      return { ok: true };
    },
    exit(socket: HubSocket, exit: z.output<typeof ShellExitSchema>): Ack<object> {
      const shell = ours(socket, exit.shellId);
      if (!shell) return ackError('not_found', NO_SHELL);
      shells.delete(exit.shellId);
      toViewer(shell.viewer, 'shell:exit', exit);
      return { ok: true };
    },

    /** A /web socket went away: its shells keep running on their machines until the idle clock runs out. */
    viewerGone(socket: HubSocket): void {
      for (const [shellId, shell] of shells) if (shell.viewer === socket) detach(shellId, shell);
    },

    /** A daemon socket went away: its shells are out of reach (the daemon keeps them for a while;
     *  the viewer may open again once the machine is back). */
    daemonGone(socket: HubSocket): void {
      for (const [shellId, shell] of shells) {
      if (shell.daemon !== socket) continue;
      shells.delete(shellId);
      const exit: z.output<typeof ShellExitSchema> = { shellId, exitCode: null, signal: null, reason: 'the machine went offline' };
      toViewer(shell.viewer, 'shell:exit', exit);
      }
    },
  };
}

export type ShellBridge = ReturnType<typeof createShellBridge>;
