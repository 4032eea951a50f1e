// port-holder.ts: which process listens on a TCP port, where the OS tells us (Linux /proc): the
// socket's inode from /proc/net/tcp{,6}, then the process whose fd points at that socket. Used to
// say who holds the port when `tether hub --port N` cannot bind. Elsewhere (or without permission to
// read other processes) it returns null and the error names the port alone.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const LISTEN = '0A';

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (!local || fields[3] !== LISTEN) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

export function portHolder(port: number): { pid: number; name: string } | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        let name = '?';
        try {
          name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        } catch {
          // gone meanwhile
        }
        return { pid: Number(pid), name };
      }
    }
  }
  return null;
}
