// tunnel.ts: keeps `ssh -R` to the relay up. OpenSSH does the networking (encryption, keepalives,
// the relay's pinned host key); this file only starts it, reads what it says, and starts it again
// with back-off when it ends: network loss, a relay restart, a refused key or name.
//
//   ssh -N -R 127.0.0.1:<port>:127.0.0.1:<front> ─"remote forward success"─► up
//      └─ exits ─► down (why, from its stderr) ─► wait 1, 2, 4, 8, then every 10 s ─► again
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Join } from '../relay/join-code.ts';

export type TunnelState =
  | { kind: 'connecting'; attempt: number }
  | { kind: 'up'; since: number }
  | { kind: 'down'; reason: string; retryInMs: number; attempt: number };

const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 10_000];
/** Up this long and the next failure starts the back-off from the beginning again. */
const STABLE_MS = 60_000;
const HOST_ALIAS = 'tether-relay';

/** What ssh said, as the reason a user can act on. */
export function sshReason(stderr: string): string {
  if (/remote port forwarding failed|forwarding failed for listen/i.test(stderr)) return 'the relay refused the forward: this key may not serve that name (or the old tunnel is still closing)';
  if (/Permission denied \(publickey/i.test(stderr)) return 'the relay refused the key (not invited, or revoked): ask the operator for a new join code';
  if (/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/i.test(stderr)) return "the relay's host key is not the one in the join code: refusing it (someone in the middle, or the relay was reinstalled)";
  if (/Connection refused/i.test(stderr)) return 'connection refused (is the relay running?)';
  if (/timed out|Timeout|Network is unreachable|No route|Could not resolve|Name or service not known/i.test(stderr)) return 'the relay is unreachable (network down?)';
  if (/Connection (closed|reset)|Broken pipe|Timeout, server|not responding/i.test(stderr)) return 'the connection to the relay was lost';
  const last = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('debug')).at(-1);
  return last ? `ssh: ${last.slice(0, 200)}` : 'ssh ended';
}

/** The key and known_hosts files ssh reads (0600, under TETHER_HOME/relay). */
function writeFiles(join_: Join, dir: string): { keyPath: string; knownHosts: string } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keyPath = join(dir, 'tunnel-key');
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(keyPath, join_.key.endsWith('\n') ? join_.key : `${join_.key}\n`, { mode: 0o600 });
  writeFileSync(knownHosts, `${HOST_ALIAS} ${join_.hostKey}\n`, { mode: 0o600 });
  return { keyPath, knownHosts };
}

export function sshArgs(options: { join: Join; keyPath: string; knownHosts: string; frontPort: number }): string[] {
  const [host, port] = [options.join.ssh.slice(0, options.join.ssh.lastIndexOf(':')), options.join.ssh.slice(options.join.ssh.lastIndexOf(':') + 1)];
  return [
    '-F', '/dev/null', '-v', '-N', '-T',
    '-i', options.keyPath,
    '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes',
    '-o', `UserKnownHostsFile=${options.knownHosts}`, '-o', 'GlobalKnownHostsFile=/dev/null',
    '-o', 'StrictHostKeyChecking=yes', '-o', `HostKeyAlias=${HOST_ALIAS}`,
    // AES-GCM first: with AES-NI it moves bytes several times faster than ChaCha20 (bench relay).
    '-o', 'Ciphers=aes128-gcm@openssh.com,chacha20-poly1305@openssh.com',
    '-o', 'ExitOnForwardFailure=yes', '-o', 'ServerAliveInterval=5', '-o', 'ServerAliveCountMax=3', '-o', 'ConnectTimeout=10',
    '-p', port!, '-l', options.join.user,
    '-R', `127.0.0.1:${options.join.port}:127.0.0.1:${options.frontPort}`,
    // The join code's host is checked (join-code.ts); `--` also ends ssh's options should a
    // check ever let one through.
    '--', host!,
  ];
}

export type Tunnel = { state(): TunnelState; close(): Promise<void> };

export function keepTunnel(options: { join: Join; dir: string; frontPort: number; onState: (state: TunnelState) => void; ssh?: string }): Tunnel {
  const files = writeFiles(options.join, options.dir);
  let state: TunnelState = { kind: 'connecting', attempt: 1 };
  let child: ChildProcess | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  let failures = 0;
  const set = (next: TunnelState) => {
    state = next;
    options.onState(next);
  };
  const start = () => {
    if (closed) return;
    set({ kind: 'connecting', attempt: failures + 1 });
    let stderr = '';
    let upSince: number | null = null;
    const proc = spawn(options.ssh ?? 'ssh', sshArgs({ join: options.join, ...files, frontPort: options.frontPort }), { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    proc.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      // Only the last few KiB: ssh -v is chatty and this runs for weeks.
      stderr = (stderr + text).slice(-8192);
      // Read in what has come so far, not this chunk: a pipe may split the line anywhere (a run under
      // load never saw "up" again after a relay restart).
      if (upSince === null && /remote forward success/.test(stderr)) {
        upSince = Date.now();
        set({ kind: 'up', since: upSince });
      }
    });
    proc.once('error', (error) => (stderr += `\n${error.message}`));
    proc.once('close', () => {
      child = null;
      if (closed) return;
      if (upSince !== null && Date.now() - upSince >= STABLE_MS) failures = 0;
      const retryInMs = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!;
      failures++;
      set({ kind: 'down', reason: sshReason(stderr), retryInMs, attempt: failures });
      timer = setTimeout(start, retryInMs);
    });
  };
  start();
  return {
    state: () => state,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const proc = child;
      if (!proc) return;
      const gone = new Promise<void>((resolve) => proc.once('close', () => resolve()));
      proc.kill('SIGTERM');
      await Promise.race([gone, Bun.sleep(3_000)]);
    },
  };
}
