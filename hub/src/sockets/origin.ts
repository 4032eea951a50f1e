// origin.ts: which WebSocket handshakes the engine accepts, before any socket.io packet.
//
//   upgrade request ─► WebSocket only (no long-polling: every client speaks WebSocket, and a
//                      polling POST body would be buffered before authentication)
//                   ─► Origin: absent (CLI, daemon, hub-to-hub links: not a browser), the hub's own
//                      (the Host it was reached at), or one configured with --allowed-origin
//
// Why: a page on another site could open a socket to a hub on the user's machine or LAN. Sockets
// authenticate with a token in the handshake, not a cookie, so such a page still needs a token;
// the Origin check keeps a browser from being used that way at all.
// Invariant: a request from a browser page of another origin never reaches socket.io.

export type OriginPolicy = { extraOrigins: ReadonlySet<string>; trustProxy: boolean };

/** Normalises `--allowed-origin` values (`https://Example.com/` → `https://example.com`); throws on
 *  anything that is not an http(s) origin. */
export function parseAllowedOrigin(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`not an http(s) origin: ${value}`);
  return url.origin;
}

function ownHosts(req: Request, trustProxy: boolean): string[] {
  const hosts = [req.headers.get('host')];
  // Behind a proxy that rewrites Host, the name the browser used is the forwarded one.
  if (trustProxy) hosts.push(req.headers.get('x-forwarded-host')?.split(',')[0]?.trim() ?? null);
  return hosts.filter((h): h is string => Boolean(h)).map((h) => h.toLowerCase());
}

export function originAllowed(req: Request, policy: OriginPolicy): boolean {
  const origin = req.headers.get('origin');
  if (origin === null) return true;
  if (policy.extraOrigins.has(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed frame, a file), or garbage
  }
  // A proxy that forwards `$host` (nginx) drops the port: then the host name alone must match.
  return ownHosts(req, policy.trustProxy).some((host) => host === url.host || (!host.includes(':') && host === url.hostname));
}

/** The engine's `allowRequest`: throws the reason (the engine answers 403 with it). */
export function handshakeGuard(policy: OriginPolicy) {
  return async (req: Request): Promise<void> => {
    if (!req.headers.has('upgrade')) throw 'WebSocket only';
    if (!originAllowed(req, policy)) throw 'origin not allowed';
  };
}
