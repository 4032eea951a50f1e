// proc.ts: what Linux says about one process, read from /proc so a measurement is that process's
// alone (the load generator runs in other processes). Linux only; the benches that use it say so.
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc/<pid>/stat counts CPU time in these (100 on every Linux this runs on). */
const CLOCK_TICKS_PER_S = 100;

/** User + system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, so split after its closing paren).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the name and state.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) : Number.NaN;
}

/** Resident set size now, in MB (10^6 bytes). */
export function rssMb(pid: number): number {
  return (statusKb(pid, 'VmRSS') * 1024) / 1e6;
}

/** Peak resident set size so far, in MB. */
export function peakRssMb(pid: number): number {
  return (statusKb(pid, 'VmHWM') * 1024) / 1e6;
}

/** Open file descriptors (sockets, files, pipes). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The 1-minute load average of the machine. */
export function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

/** CPU cores a set of processes used between two readings. */
export function cpuMeter(pids: number[]) {
  const read = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const cpu0 = read();
  const t0 = performance.now();
  return {
    /** Cores used since the meter started (CPU seconds ÷ wall seconds). */
    cores(): number {
      return (read() - cpu0) / ((performance.now() - t0) / 1000);
    },
  };
}
