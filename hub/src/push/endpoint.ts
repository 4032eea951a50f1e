// endpoint.ts: which push endpoints the hub will POST to. One check, run when a browser subscribes
// (POST /api/push/subscribe answers 400) and again before every send (subscriptions from older
// files, and host names whose addresses changed).
//
//   endpoint ─► new URL() (the parser fetch uses) ─► https, no credentials ─► host not loopback,
//               link-local, private, CGNAT, multicast or reserved ─► (at send) every DNS address too
//
// Why: a subscription is a URL the hub will POST to on its own, repeatedly; without these rules any
// token holder could make the hub request its own loopback services or a cloud metadata address.
// A hub started with --dev-push-endpoints (the tests' local push service) skips the host rules and
// also takes http; the URL must still parse.
// Invariant: the hub never sends to an endpoint this check refused.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export type EndpointCheck = { ok: true; url: URL } | { ok: false; reason: string };
export type EndpointPolicy = { dev: boolean };

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 127], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) BLOCKED.addSubnet(net, bits, 'ipv6');
/** Names that are the local machine or network by definition (RFC 6761, mDNS, common internal zones). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

function blockedAddress(address: string): boolean {
  const family = isIP(address);
  return family === 0 || BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The syntactic check: what subscribing runs. */
export function checkPushEndpoint(endpoint: string, policy: EndpointPolicy): EndpointCheck {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, reason: 'push endpoint is not a valid URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'push endpoint must not carry credentials' };
  if (policy.dev) return url.protocol === 'https:' || url.protocol === 'http:' ? { ok: true, url } : { ok: false, reason: 'push endpoint must be http(s)' };
  if (url.protocol !== 'https:') return { ok: false, reason: 'push endpoint must be https' };
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) !== 0 ? blockedAddress(host) : LOCAL_NAME.test(host.replace(/\.$/, ''))) {
    return { ok: false, reason: 'push endpoint host is loopback, link-local or private' };
  }
  return { ok: true, url };
}

/** What sending runs: the same check, then every address the host name resolves to. */
export async function checkPushTarget(endpoint: string, policy: EndpointPolicy): Promise<EndpointCheck> {
  const checked = checkPushEndpoint(endpoint, policy);
  if (!checked.ok || policy.dev) return checked;
  const host = checked.url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return checked;
  try {
    const addresses = await lookup(host, { all: true });
    if (addresses.length === 0 || addresses.some((a) => blockedAddress(a.address))) return { ok: false, reason: 'push endpoint resolves to a loopback, link-local or private address' };
  } catch {
    return { ok: false, reason: 'push endpoint host does not resolve' };
  }
  return checked;
}
