// sshd-nodelay.ts: TCP_NODELAY on the sockets of sshd's per-tunnel processes. sshd turns Nagle off
// only for sessions with a pty; a tunnel (ssh -N -R) has none, so a keystroke (a small write
// towards the hub) waited behind sshd's previous small segment until the hub's ssh sent its delayed
// ACK: 40-200 ms, the p99 of the relay's echo (bench/relay.bench.ts). No sshd option changes it, so
// the relay, which started sshd, duplicates each socket of its descendants (pidfd_getfd, Linux
// ≥ 5.6, glibc ≥ 2.36) and sets the option on it: an option belongs to the socket, not the fd.
// sshd's -R listeners get it too, and Linux passes it on to the connections they accept.
import { dlopen, FFIType, ptr } from 'bun:ffi';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const IPPROTO_TCP = 6;
const TCP_NODELAY = 1;

type Libc = {
  pidfd_open(pid: number, flags: number): number;
  pidfd_getfd(pidfd: number, fd: number, flags: number): number;
  setsockopt(fd: number, level: number, name: number, value: ReturnType<typeof ptr>, length: number): number;
  close(fd: number): number;
};

let libc: Libc | null | undefined;

function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    const lib = dlopen('libc.so.6', {
      pidfd_open: { args: [FFIType.i32, FFIType.u32], returns: FFIType.i32 },
      pidfd_getfd: { args: [FFIType.i32, FFIType.i32, FFIType.u32], returns: FFIType.i32 },
      setsockopt: { args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
      close: { args: [FFIType.i32], returns: FFIType.i32 },
    });
    libc = lib.symbols as unknown as Libc;
  } catch {
    libc = null;
  }
  return libc;
}

/** Inodes of this network namespace's TCP sockets (IPv4 and IPv6). */
function tcpInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
        const inode = line.trim().split(/\s+/)[9];
        if (inode && inode !== '0') inodes.add(inode);
      }
    } catch {
      // no IPv6
    }
  }
  return inodes;
}

/** `pid` and everything below it (Linux: /proc/<pid>/task/<thread>/children, every thread: a
 *  child belongs to the thread that forked it). */
export function descendants(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        children.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
      } catch {
        // the thread ended
      }
    }
  } catch {
    // gone
  }
  return [pid, ...children.flatMap(descendants)];
}

export type NoDelayResult = { set: number; failed: number };

/** Sets TCP_NODELAY on every TCP socket the processes hold, once per socket (`done` remembers). */
export function noDelayOn(pids: number[], done: Set<string>): NoDelayResult {
  const c = loadLibc();
  if (!c) return { set: 0, failed: pids.length };
  const tcp = tcpInodes();
  // Forget sockets that are gone (inodes are reused).
  for (const inode of done) if (!tcp.has(inode)) done.delete(inode);
  const one = new Int32Array([1]);
  const result = { set: 0, failed: 0 };
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    const wanted = fds.flatMap((fd) => {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        return inode && tcp.has(inode) && !done.has(inode) ? [{ fd: Number(fd), inode }] : [];
      } catch {
        return [];
      }
    });
    if (wanted.length === 0) continue;
    const pidfd = c.pidfd_open(pid, 0);
    if (pidfd < 0) {
      result.failed += wanted.length;
      continue;
    }
    for (const { fd, inode } of wanted) {
      const local = c.pidfd_getfd(pidfd, fd, 0);
      if (local < 0) {
        result.failed++;
        continue;
      }
      if (c.setsockopt(local, IPPROTO_TCP, TCP_NODELAY, ptr(one), 4) === 0) {
        done.add(inode);
        result.set++;
      } else result.failed++;
      c.close(local);
    }
    c.close(pidfd);
  }
  return result;
}

/** Sweeps sshd's descendants a few times after each thing sshd says (a tunnel authenticating, its
 *  forward opening), and reports once if the kernel will not let it. */
export function sshdNoDelay(options: { sshdPid: () => number | undefined; report: (line: string) => void }) {
  const done = new Set<string>();
  /** One pending sweep per delay: a burst of sshd lines costs three sweeps, not three per line. */
  const pending = new Map<number, ReturnType<typeof setTimeout>>();
  let warned = false;
  const sweep = () => {
    const pid = options.sshdPid();
    if (!pid) return;
    // The listener itself holds only its listening socket: leave it (its accepted ssh
    // connections are handshakes; the tunnels are its children's).
    const result = noDelayOn(descendants(pid).slice(1), done);
    if (result.failed > 0 && result.set === 0 && !warned) {
      warned = true;
      options.report('relay: could not turn Nagle off on sshd\'s tunnels (needs Linux ≥ 5.6 and ptrace rights over sshd): keystrokes may wait up to 40 ms more');
    }
  };
  return {
    /** sshd said something: a tunnel is starting or its forward opening. */
    poke() {
      for (const ms of [200, 1_000, 3_000]) {
        if (pending.has(ms)) continue;
        pending.set(
          ms,
          setTimeout(() => {
            pending.delete(ms);
            sweep();
          }, ms),
        );
      }
    },
    sweep,
    close() {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}
