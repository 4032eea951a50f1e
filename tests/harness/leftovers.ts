// leftovers.ts (harness): processes a test left running, found by where they run (their cwd under a
// test's temp dir, Linux /proc), so a sandbox's stop() can tell a leak from a clean end and make
// sure nothing outlives the test either way.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** `parent`: its parent's pid. A child between fork and exec still shows its parent's command line,
 *  so a count of one program's processes leaves out those whose parent is that program too. */
export type Leftover = { pid: number; parent: number; command: string };

/** Live processes whose working directory is `dir` or under it. */
export function processesUnder(dir: string): Leftover[] {
  if (process.platform !== 'linux') return [];
  const found: Leftover[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // A deleted cwd reads as "<path> (deleted)": still under dir.
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd !== dir && !cwd.startsWith(`${dir}/`)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      // stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      found.push({ pid: Number(entry), parent, command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Waits up to `graceMs` for the processes under `dir` to end on their own, then SIGKILLs what is
 *  left; returns what had to be killed (empty after a clean end). */
export async function reapLeftovers(dir: string, options: { graceMs: number }): Promise<Leftover[]> {
  const deadline = Date.now() + options.graceMs;
  let left = processesUnder(dir);
  while (left.length > 0 && Date.now() < deadline) {
    await Bun.sleep(100);
    left = processesUnder(dir);
  }
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended in between
    }
  }
  return left;
}
