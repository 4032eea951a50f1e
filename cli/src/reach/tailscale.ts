// tailscale.ts: `tether hub --tailscale[=funnel]` through Tailscale's documented CLI, and the hint a
// plain `tether hub` gives when Tailscale is up. It reads, it sets one thing, it undoes that thing.
//
//   tailscale status --json ─► Running? name (Self.DNSName)? HTTPS on (CertDomains)?
//   tailscale serve status --json ─► is https:443 free (or our own leftover)?
//   tailscale serve|funnel --bg --https=443 http://127.0.0.1:<port>   (start)
//   tailscale serve|funnel --https=443 off                            (stop: only if tether set it)
//
// Invariant: never replaces or removes a handler on 443 that tether did not set (the user's own
// serve config). What tether set is recorded in TETHER_HOME/tailscale-serve.json, so a hub that was
// killed can recognise its own leftover next time.
// Serve's identity headers (Tailscale-User-Login, …) are never read: any local process can send them.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TailscaleMode } from './flags.ts';

export type Run = (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

export type TailscaleStatus =
  | { kind: 'missing' }
  | { kind: 'daemon-down'; reason: string }
  | { kind: 'logged-out'; state: string }
  | { kind: 'stopped' }
  | { kind: 'https-off'; name: string }
  | { kind: 'running'; name: string; tailnet: string };

const INSTALL_URL = 'https://tailscale.com/download';
const ADMIN_DNS_URL = 'https://login.tailscale.com/admin/dns';
/** A CLI call that takes longer is stuck (tailscaled not answering). */
const CALL_TIMEOUT_MS = 15_000;

/** Runs the `tailscale` on PATH; a missing binary is code 127 (as a shell says). */
export const runTailscale: Run = async (args) => {
  const binary = Bun.which('tailscale');
  if (!binary) return { code: 127, stdout: '', stderr: 'tailscale: command not found' };
  const proc = Bun.spawn([binary, ...args], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore', timeout: CALL_TIMEOUT_MS });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
};

/** `tailscale status --json` → what tether can do with it. */
export function parseStatus(json: string): TailscaleStatus {
  let status: { BackendState?: unknown; Self?: { DNSName?: unknown }; CertDomains?: unknown; CurrentTailnet?: { MagicDNSSuffix?: unknown } | null };
  try {
    status = JSON.parse(json) as typeof status;
  } catch {
    return { kind: 'daemon-down', reason: 'tailscale status --json printed no JSON' };
  }
  const state = typeof status.BackendState === 'string' ? status.BackendState : 'unknown';
  if (state === 'Stopped') return { kind: 'stopped' };
  if (state !== 'Running') return { kind: 'logged-out', state };
  const name = typeof status.Self?.DNSName === 'string' ? status.Self.DNSName.replace(/\.$/, '').toLowerCase() : '';
  const tailnet = typeof status.CurrentTailnet?.MagicDNSSuffix === 'string' ? status.CurrentTailnet.MagicDNSSuffix : '';
  const certs = Array.isArray(status.CertDomains) ? status.CertDomains : [];
  if (!name || certs.length === 0) return { kind: 'https-off', name };
  return { kind: 'running', name, tailnet };
}

export async function readStatus(run: Run): Promise<TailscaleStatus> {
  const { code, stdout, stderr } = await run(['status', '--json']);
  if (code === 127) return { kind: 'missing' };
  if (stdout.trim().startsWith('{')) return parseStatus(stdout);
  return { kind: 'daemon-down', reason: (stderr.trim() || stdout.trim() || `exit ${code}`).split('\n')[0]!.slice(0, 200) };
}

/** The one-line problem and fix for a status tether cannot serve with. */
export function statusProblem(status: TailscaleStatus): string | null {
  switch (status.kind) {
    case 'missing':
      return `--tailscale: Tailscale is not installed (no tailscale command on PATH). Install it (${INSTALL_URL}), sign in with "tailscale up", then start tether hub --tailscale again`;
    case 'daemon-down':
      return `--tailscale: Tailscale's daemon does not answer (${status.reason}). Start tailscaled (e.g. sudo systemctl start tailscaled), then "tailscale up"`;
    case 'logged-out':
      return status.state === 'NeedsMachineAuth'
        ? '--tailscale: this machine waits for an admin of your tailnet to approve it (BackendState NeedsMachineAuth). Approve it in the admin console, then start again'
        : `--tailscale: Tailscale is logged out (BackendState ${status.state}). Run "tailscale up" to sign in, then start tether hub --tailscale again`;
    case 'stopped':
      return '--tailscale: Tailscale is stopped (BackendState Stopped). Run "tailscale up", then start tether hub --tailscale again';
    case 'https-off':
      return `--tailscale: HTTPS certificates are off on your tailnet, so ${status.name || 'this machine'} has no https name. Enable HTTPS in the admin console (${ADMIN_DNS_URL}, HTTPS Certificates), then start again`;
    case 'running':
      return null;
  }
}

type ServeConfig = { TCP?: Record<string, unknown>; Web?: Record<string, { Handlers?: Record<string, { Proxy?: string }> }>; AllowFunnel?: Record<string, boolean> };

/** What `tailscale serve status --json` says about https:443: free, or which proxy (if any) holds it. */
export function port443(json: string): { taken: false } | { taken: true; proxy: string | null } {
  const text = json.trim();
  if (text === '' || text === 'null' || text === '{}') return { taken: false };
  let config: ServeConfig;
  try {
    config = JSON.parse(text) as ServeConfig;
  } catch {
    return { taken: true, proxy: null }; // unreadable: assume someone's, never clobber
  }
  const web = Object.entries(config.Web ?? {}).find(([hostPort]) => hostPort.endsWith(':443'))?.[1];
  if (config.TCP?.['443'] === undefined && web === undefined) return { taken: false };
  const handlers = web?.Handlers ?? {};
  const proxy = Object.keys(handlers).length === 1 ? (handlers['/']?.Proxy ?? null) : null;
  return { taken: true, proxy };
}

export type Published =
  | { kind: 'published'; url: string; undo(): Promise<string | null> }
  | { kind: 'taken'; problem: string }
  | { kind: 'refused'; problem: string };

const recordPath = (home: string) => join(home, 'tailscale-serve.json');

function recorded(home: string): string | null {
  try {
    return (JSON.parse(readFileSync(recordPath(home), 'utf8')) as { target?: string }).target ?? null;
  } catch {
    return null;
  }
}

/** Serves (or funnels) https://<name> → the hub, unless 443 holds something tether did not set. */
export async function publish(options: { run: Run; home: string; name: string; port: number; mode: TailscaleMode }): Promise<Published> {
  const { run, mode } = options;
  const target = `http://127.0.0.1:${options.port}`;
  const before = await run(['serve', 'status', '--json']);
  if (before.code !== 0) return { kind: 'refused', problem: refusal(before.stderr || before.stdout) };
  const held = port443(before.stdout);
  const leftover = recorded(options.home);
  if (held.taken && !(held.proxy !== null && held.proxy === leftover)) {
    return {
      kind: 'taken',
      problem: `--tailscale: Tailscale already serves https on port 443 of this machine (${held.proxy ? `proxy to ${held.proxy}` : 'not a simple proxy'}), and tether did not set it, so it stays. Free it with "tailscale serve --https=443 off", or keep it and put tether behind it with --public-url https://${options.name}`,
    };
  }
  const set = await run([mode, '--bg', '--https=443', target]);
  if (set.code !== 0) return { kind: 'refused', problem: refusal(set.stderr || set.stdout) };
  writeFileSync(recordPath(options.home), `${JSON.stringify({ target, mode })}\n`, { mode: 0o600 });
  return {
    kind: 'published',
    url: `https://${options.name}`,
    async undo() {
      // Only while 443 still proxies to this hub: if the user changed it meanwhile, it is theirs.
      const now = await run(['serve', 'status', '--json']);
      const current = now.code === 0 ? port443(now.stdout) : { taken: true as const, proxy: null };
      rmSync(recordPath(options.home), { force: true });
      if (!current.taken) return null;
      if (current.proxy !== target) return `tailscale: https:443 no longer points at this hub (${current.proxy ?? 'changed'}); left as it is`;
      const off = await run([mode, '--https=443', 'off']);
      return off.code === 0 ? null : `tailscale: could not remove what tether set (${(off.stderr || off.stdout).trim().split('\n')[0]}); remove it with "tailscale ${mode} --https=443 off"`;
    },
  };
}

/** Tailscale's refusal, with the fix when it is the Linux operator permission. */
function refusal(output: string): string {
  const said = output.trim().split('\n')[0]?.slice(0, 200) ?? '';
  if (/access denied|serve config denied|permission/i.test(output)) {
    return `--tailscale: Tailscale refused to change its serve config for this user (${said}). On Linux allow your user once with "sudo tailscale set --operator=$USER", then start again`;
  }
  return `--tailscale: tailscale refused (${said || 'no reason given'})`;
}
