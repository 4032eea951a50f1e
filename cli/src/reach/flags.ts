// flags.ts: the reach flags of `tether hub`, checked before the hub starts: `--public-url`,
// `--allowed-host` (TETHER_ALLOWED_HOSTS) and `--tailscale[=funnel]`. Each bad value is one line
// saying what is wrong and what is expected.
import { isIP } from 'node:net';
import { isLoopbackHost } from '@tether/shared';

export type TailscaleMode = 'serve' | 'funnel';


/** `https://name[:port]` → its origin (`https://name[:port]`, lowercased, no trailing slash). http only
 *  for a loopback name (development). Throws a one-line reason. */
export function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--public-url: not a URL: ${value} (expected https://name[:port])`);
  }
  // A development `--public-url http://…` on this machine needs no TLS (nothing crosses a network).
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new Error(`--public-url must be https:// (a phone needs https for notifications and install; http only for localhost in development): ${value}`);
  }
  if (url.username || url.password) throw new Error(`--public-url: no user or password in it: ${value}`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || /[?#]/.test(value)) {
    throw new Error(`--public-url: no path, query or fragment (the hub is served at the root): ${value}`);
  }
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 && !url.hostname.includes('.') && url.hostname !== 'localhost') {
    throw new Error(`--public-url: "${url.hostname}" is not a full name (a certificate needs one, e.g. tether.example.com)`);
  }
  return url.origin;
}

/** Host names for `--allowed-host NAME[,NAME…]`: bare names or IP literals, no scheme, port or path. */
export function parseAllowedHosts(list: string): string[] {
  const names = list.split(',').map((n) => n.trim().toLowerCase()).filter(Boolean);
  for (const name of names) {
    const bare = name.replace(/^\[|\]$/g, '');
    const valid = isIP(bare) !== 0 || (bare.length <= 253 && bare.replace(/\.$/, '').split('.').every((l) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(l)));
    if (!valid) throw new Error(`--allowed-host: not a host name: "${name}" (a name like box.local or an address, no scheme or port)`);
  }
  return names;
}

/** Takes `--tailscale` / `--tailscale=funnel` out of `args` (the generic flag reader has no optional
 *  values); everything after `--` is left alone. */
export function takeTailscaleFlag(args: string[]): { mode: TailscaleMode | null; rest: string[] } {
  let mode: TailscaleMode | null = null;
  const rest: string[] = [];
  let ended = false;
  for (const arg of args) {
    if (ended || !arg.startsWith('--tailscale')) {
      if (arg === '--') ended = true;
      rest.push(arg);
      continue;
    }
    if (arg === '--tailscale' || arg === '--tailscale=serve') mode = 'serve';
    else if (arg === '--tailscale=funnel') mode = 'funnel';
    else if (arg.startsWith('--tailscale=')) throw new Error(`--tailscale takes no value or "funnel", got "${arg.slice('--tailscale='.length)}"`);
    else rest.push(arg); // another flag that starts alike: the flag reader names it
  }
  return { mode, rest };
}
