// daemon-hint.ts: what the phone says wherever an action needs a machine's `tether daemon` and it is
// not online (Resume, Review, Shell, the session's machine chip): one wording, naming the machine.
import type { Machine } from '@tether/shared';

/** "start tether daemon on <machine>", for a sentence's end. */
export function startDaemonOn(machineName: string): string {
  return `start tether daemon on ${machineName}`;
}

/** The session's machine as the phone knows it: unknown (a desk without a daemon, or not listed), or
 *  listed and online or not. */
export function machineOf<M extends Pick<Machine, 'id'>>(machineId: string | null, machines: readonly M[] | undefined): M | null {
  if (!machineId) return null;
  return machines?.find((m) => m.id === machineId) ?? null;
}
