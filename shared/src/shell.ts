// shell.ts: a plain login shell on a machine, opened from the web, one PTY per viewer id.
//
//   web ─shell:open {machineId, viewerId}─► hub (shell on? machine of this namespace online?)
//        └─► daemon:shell-open {shellId} ─► the daemon (started with --allow-shell) spawns or reattaches
//   daemon ─shell:output/shell:exit─► hub ─► that one viewer socket (never a room)
//
// Invariants: shellId = shellIdFor(namespace, machineId, viewerId), computed by the hub from the
// socket's authenticated namespace, so a second device (another viewer id) gets its own shell and
// never the first one's; input, resize and close are taken only from the socket the shell is open on.
import { z } from 'zod';
import { MachineIdSchema } from './ids.ts';
import { MAX_PATH_CHARS } from './limits.ts';
import { BytesSchema, ColsSchema, OffsetSchema, RowsSchema } from './terminal.ts';

/** A browser tab's stable, unguessable id (crypto.randomUUID in sessionStorage). */
export const ShellViewerIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'viewer id: 16-64 letters, digits, "_" or "-"');
/** sha256 hex of (namespace, machine, viewer), cut to 32 characters. */
export const ShellIdSchema = z.string().regex(/^[0-9a-f]{32}$/, 'shell id: 32 hex characters');
export type ShellId = z.infer<typeof ShellIdSchema>;

/** A viewer gone this long (closed tab, lost phone) loses its shell. */
export const SHELL_IDLE_MS = 5 * 60_000;
/** Bytes of output a daemon keeps per shell to redraw a reattaching viewer. */
export const SHELL_LOG_BYTES = 256 * 1024;

/** Web → hub. `cwd` (absolute or `~`) only matters when a new shell starts (default: home). */
export const ShellOpenSchema = z.object({
  machineId: MachineIdSchema,
  viewerId: ShellViewerIdSchema,
  cwd: z.string().min(1).max(MAX_PATH_CHARS).optional(),
  cols: ColsSchema,
  rows: RowsSchema,
});
export type ShellOpen = z.input<typeof ShellOpenSchema>;
/** `reattached`: the viewer's shell was already running (its held output follows with `reset`). */
export type ShellOpenAck = { shellId: string; reattached: boolean };

export const ShellInputSchema = z.object({ shellId: ShellIdSchema, data: z.string().min(1).max(64 * 1024) });
export const ShellResizeSchema = z.object({ shellId: ShellIdSchema, cols: ColsSchema, rows: RowsSchema });
/** `shell:close` kills the shell; `shell:leave` only detaches (the idle clock starts). */
export const ShellRefSchema = z.object({ shellId: ShellIdSchema });

/** Daemon → hub → viewer: output at absolute byte `offset`. `reset`: clear the screen first (the
 *  held log of a reattached shell; it may start mid-history). */
export const ShellOutputSchema = z.object({
  shellId: ShellIdSchema,
  offset: OffsetSchema,
  data: BytesSchema,
  reset: z.boolean().optional(),
});
export type ShellOutput = z.infer<typeof ShellOutputSchema>;

/** Daemon → hub → viewer: the shell ended (exited, closed, or its viewer stayed away too long). */
export const ShellExitSchema = z.object({
  shellId: ShellIdSchema,
  exitCode: z.number().int().nullable(),
  signal: z.string().max(32).nullable().default(null),
  reason: z.string().max(500).default('exited'),
});
export type ShellExit = z.input<typeof ShellExitSchema>;

/** Hub → daemon commands (acked). */
export const DaemonShellOpenSchema = z.object({
  shellId: ShellIdSchema,
  cwd: z.string().min(1).max(MAX_PATH_CHARS).nullable().default(null),
  cols: ColsSchema,
  rows: RowsSchema,
});
export const DaemonShellCommandSchemas = {
  'daemon:shell-open': DaemonShellOpenSchema,
  'daemon:shell-input': ShellInputSchema,
  'daemon:shell-resize': ShellResizeSchema,
  'daemon:shell-close': ShellRefSchema,
  'daemon:shell-detach': ShellRefSchema,
} as const;
/** What each of them answers when ok (the ack's other fields; checked by the hub). */
export const DaemonShellCommandAckSchemas = {
  'daemon:shell-open': z.object({ reattached: z.boolean(), pid: z.number().int() }),
  'daemon:shell-input': z.object({}),
  'daemon:shell-resize': z.object({}),
  'daemon:shell-close': z.object({}),
  'daemon:shell-detach': z.object({}),
} as const;
export type DaemonShellCommandAcks = {
  'daemon:shell-open': z.infer<(typeof DaemonShellCommandAckSchemas)['daemon:shell-open']>;
  'daemon:shell-input': object;
  'daemon:shell-resize': object;
  'daemon:shell-close': object;
  'daemon:shell-detach': object;
};

/** What the hub hashes (sha256, first 32 hex) into a shell id; shared has no crypto of its own. */
export function shellIdInput(namespace: string, machineId: string, viewerId: string): string {
  return `shell\u0000${namespace}\u0000${machineId}\u0000${viewerId}`;
}
