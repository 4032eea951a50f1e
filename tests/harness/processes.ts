// processes.ts (harness): the helper programs a harness starts (pebble, caddy, nginx): ending one
// with its own graceful signal and SIGKILL if it lingers, and whether a port of theirs answers yet.
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** How long a helper program gets to exit on its graceful signal before SIGKILL. */
const GRACE_MS = 3_000;

/** Sends `signal` to a child still running, SIGKILL after the grace, and resolves once it exited. */
export async function endChild(child: ChildProcess, exited: Promise<void>, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** Whether something accepts a TCP connection on 127.0.0.1:`port` now. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
