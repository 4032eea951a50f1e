// host-allowlist.ts: which Host names this hub answers (DNS rebinding). Bun.serve asks it first, for
// every request, before socket.io, Hono or a static file sees it.
//
//   request ─► Host (and, with --trust-proxy, every X-Forwarded-Host entry) ─► allowed? ─► routes
//                                                                          └─ no ─► 421 + short reason
//
// Why: a page on evil.example can re-resolve its own name to 127.0.0.1 (or a LAN address); the
// browser then talks to the hub with `Host: evil.example` and `Origin: http://evil.example`, which a
// same-origin check accepts. Only the Host name says which site the browser thinks it is on.
// Allowed: `localhost`, every IP literal (a rebinding needs a name; docs/decisions/hub.md), the
// names of publicUrl, clusterUrl and a named --host, and config.allowedHosts. Ports never matter:
// the attacker's lever is the name.
// Invariant: a Host that is absent, unparsable or not on the list never reaches a route.
//
// An absolute-form request-target (`GET http://evil.example/ HTTP/1.1`) names its own authority, and
// RFC 9112 3.2.2 makes that the request's, whatever Host says. Bun.serve drops it before any handler
// (it rebuilds req.url from Host), so `check` cannot see it; `checkTarget` judges the raw target
// wherever tether reads request lines itself (the relay front, cli/src/relay-link/http-gate.ts).
import { isIP } from 'node:net';
import type { HubConfig } from '../config.ts';

export type HostAllowlist = {
  /** null when the request may go on; else the 421 answer. */
  check(req: Request): Response | null;
  /** A raw request-target: null when it is origin-form (`/…`), `*`, or absolute-form (http or
   *  https) with an authority this hub serves; else the 421 answer (RFC 9112 3.2.2: the URI wins). */
  checkTarget(target: string): Response | null;
  /** The names (not literals) this hub answers, for logs and tests. */
  names: ReadonlySet<string>;
};

/** The longest Host value looked at: a DNS name is at most 253 characters, plus `[`, `]` and a port. */
const MAX_HOST_CHARS = 300;
/** Refused names logged once each, up to this many (a rebinding attempt must not flood the log). */
const MAX_LOGGED_REFUSALS = 16;

/** The host part of a Host header value, lowercased, without port, brackets or a trailing dot;
 *  null when it is not a syntactically valid host (garbage, a path, a userinfo, an empty name). */
export function hostName(value: string | null): string | null {
  if (value === null) return null;
  const raw = value.trim();
  if (raw.length === 0 || raw.length > MAX_HOST_CHARS) return null;
  let host: string;
  let port: string | undefined;
  if (raw.startsWith('[')) {
    const end = raw.indexOf(']');
    if (end < 0) return null;
    host = raw.slice(1, end);
    const rest = raw.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return null;
    port = rest === '' ? undefined : rest.slice(1);
    if (isIP(host) !== 6) return null;
  } else {
    const colon = raw.lastIndexOf(':');
    host = colon < 0 ? raw : raw.slice(0, colon);
    port = colon < 0 ? undefined : raw.slice(colon + 1);
    if (host.includes(':')) return null; // an unbracketed IPv6 literal is not a valid Host
  }
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535)) return null;
  host = host.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (isIP(host) !== 0) return host;
  // A DNS name: letters, digits, hyphens and underscores in dot-separated labels of 1-63 characters.
  if (host.length === 0 || host.length > 253) return null;
  return host.split('.').every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label)) ? host : null;
}

/** The authority's host of an absolute-form target (`scheme://authority[/?#…]`), as hostName reads
 *  a Host value; null when the target is no http(s) URI, or names a user (`user@`, RFC 9110 4.2.4). */
export function targetHost(target: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target);
  if (!scheme || !/^https?$/i.test(scheme[1]!)) return null;
  const rest = target.slice(scheme[0].length);
  const authority = rest.slice(0, rest.search(/[/?#]|$/));
  if (authority.includes('@')) return null;
  return hostName(authority);
}

/** The host name of a URL or of a bare name (`--allowed-host`), normalised like hostName. */
function nameOf(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      return hostName(new URL(trimmed).host);
    } catch {
      return null;
    }
  }
  return hostName(trimmed);
}

const LOOPBACK_NAMES = ['localhost'];

export function createHostAllowlist(options: {
  config: Pick<HubConfig, 'host' | 'publicUrl' | 'allowedHosts' | 'clusterUrl' | 'trustProxy'>;
  /** Where refused names are told (once each): the operator may need --allowed-host. */
  log?: (line: string) => void;
}): HostAllowlist {
  const { config } = options;
  const names = new Set<string>(LOOPBACK_NAMES);
  const sources = [config.host, config.publicUrl, config.clusterUrl, ...(config.allowedHosts ?? [])];
  for (const source of sources) {
    const name = source ? nameOf(source) : null;
    // Literals are allowed anyway; 0.0.0.0 / :: as --host are not names.
    if (name && isIP(name) === 0) names.add(name);
  }
  const allowed = (host: string | null): boolean => host !== null && (isIP(host) !== 0 || names.has(host));
  const logged = new Set<string>();
  const refuse = (host: string | null): Response => {
    if (host !== null && !logged.has(host) && logged.size < MAX_LOGGED_REFUSALS) {
      logged.add(host);
      options.log?.(`tether hub: refused a request for the host name "${host}" (not one this hub serves; if it is yours: tether hub --allowed-host ${host})`);
    }
    const reason = host === null ? 'no valid Host header' : 'this hub does not serve that host name (tether hub --allowed-host NAME adds one)';
    return new Response(`421 Misdirected Request: ${reason}\n`, {
      status: 421,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' },
    });
  };
  return {
    names,
    checkTarget(target) {
      if (target.startsWith('/') || target === '*') return null;
      // Absolute-form (anything else, as authority-form CONNECT, is no request for this hub).
      const host = targetHost(target);
      return allowed(host) ? null : refuse(host);
    },
    check(req) {
      const host = hostName(req.headers.get('host'));
      if (!allowed(host)) return refuse(host);
      // Bun builds req.url from Host; a literal its URL parser rejects (some IPv6 spellings) would
      // make every route's `new URL(req.url)` throw.
      if (!URL.canParse(req.url)) return refuse(null);
      // Behind a proxy the browser's name may travel here instead: each entry must be ours too, so a
      // page cannot launder a rebinding through a header a proxy passed along. Without
      // --trust-proxy nothing reads this header, so it decides nothing.
      if (config.trustProxy) {
        const forwarded = req.headers.get('x-forwarded-host');
        if (forwarded !== null) {
          for (const entry of forwarded.split(',')) {
            const name = hostName(entry);
            if (!allowed(name)) return refuse(name);
          }
        }
      }
      return null;
    },
  };
}
