// own-network.ts: a guard for the suites that dial from loopback addresses other than 127.0.0.1
// (nginx's per-client caps need several clients; the relay front dials the hub from 127.77.x.y).
// They run only in a network namespace of their own, whose loopback is nobody else's: npm test
// starts them under `unshare -n` (scripts/test.mjs, OWN_NETWORK_SUITES). Run by hand outside one,
// they refuse at once rather than bind the machine's addresses.
import { readFileSync } from 'node:fs';

/** The network interfaces of this process's namespace (/proc/net/dev is per namespace). */
function interfaces(): string[] {
  return readFileSync('/proc/net/dev', 'utf8')
    .split('\n')
    .slice(2)
    .map((line) => line.split(':')[0]!.trim())
    .filter(Boolean);
}

/** Throws unless this process's network namespace has no interface but its loopback. */
export function requireOwnNetwork(): void {
  const names = interfaces();
  if (names.length === 1 && names[0] === 'lo') return;
  throw new Error(
    `this suite dials from loopback addresses other than 127.0.0.1, so it runs only in a network namespace of its own; this one has ${names.join(', ')}. ` +
      `Run it through npm test (it starts it under unshare -n), or: unshare -rn sh -c 'ip link set lo up && exec "$@"' sh bun --bun vitest run <file>`,
  );
}
