// join-code.ts: the join code `tether relay invite` prints and `tether hub --relay` reads. It carries
// everything a hub needs to dial out to one relay and serve one name: the relay's ssh address and
// pinned host key, the name's public origin, the port the relay's key lets it listen on, the
// fingerprint of the certificate the relay's nginx shows the hub's front (hop-identity.ts), and the
// hub's private key. A secret: whoever holds it can serve that name (until `tether relay revoke`).
//
//   tether-relay-2.<base64url(JSON)>   (JSON checked by JoinSchema; anything else is refused)
//
// Invariant: every string that reaches ssh's command line (tunnel.ts) is a DNS name, an IPv4
// literal, a port or an account name: nothing ssh could read as an option (a leading `-`), a user
// (`@`), a path or a token (`%`).
import { z } from 'zod';

/** Version 2 added `hop` (issue 38): a version 1 code is refused with a line saying to ask again. */
export const JOIN_PREFIX = 'tether-relay-2.';
const OLD_PREFIX = 'tether-relay-1.';

/** One DNS label: what `tether relay invite NAME` accepts. */
export const HUB_NAME = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** Names a hub may not take: they would look like the relay's own. */
export const RESERVED_NAMES = new Set(['www', 'relay', 'mail', 'admin', 'api', 'ssh', 'ns1', 'ns2']);

/** A DNS name (labels of letters, digits and inner dashes) or an IPv4 literal: never a leading `-`. */
export const DNS_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** `host:port` for ssh: host a DNS_NAME, port 1–65535. */
export function isSshAddress(value: string): boolean {
  const colon = value.lastIndexOf(':');
  if (colon < 0) return false;
  const port = value.slice(colon + 1);
  return DNS_NAME.test(value.slice(0, colon)) && /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
}

const SshAddress = z.string().max(260).refine(isSshAddress, 'host:port, the host a DNS name or an IPv4 address');
/** SHA-256 of a certificate, as node:crypto's X509Certificate.fingerprint256 writes it. */
export const FINGERPRINT = /^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$/;

export const JoinSchema = z.strictObject({
  /** `<name>.<relay domain>`: the SNI the relay routes to this hub. */
  name: z.string().min(3).max(253).regex(DNS_NAME).regex(/^[a-z0-9.-]+$/, 'lowercase'),
  /** https://name[:port]: what the phone opens. */
  origin: z.url({ protocol: /^https$/ }),
  /** Where the relay's sshd listens, and the account it runs as (a non-root sshd lets in only its own). */
  ssh: SshAddress,
  user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/),
  /** The relay's sshd host key (`ssh-ed25519 AAAA…`), pinned: no trust on first use. */
  hostKey: z.string().regex(/^ssh-ed25519 [A-Za-z0-9+/=]+$/),
  /** The port on the relay's loopback this hub's key may listen on (permitlisten). */
  port: z.number().int().min(1024).max(65535),
  /** The relay's hop certificate (SHA-256): the only client the hub's front takes a PROXY line from. */
  hop: z.string().regex(FINGERPRINT),
  /** The hub's ed25519 private key, OpenSSH format. */
  key: z.string().startsWith('-----BEGIN OPENSSH PRIVATE KEY-----').max(4096),
});

export type Join = z.infer<typeof JoinSchema>;

export function encodeJoin(join: Join): string {
  return `${JOIN_PREFIX}${Buffer.from(JSON.stringify(JoinSchema.parse(join))).toString('base64url')}`;
}

/** The join code, checked; throws one line saying what is wrong (never echoing the secret). */
export function decodeJoin(code: string): Join {
  const trimmed = code.trim();
  if (trimmed.startsWith(OLD_PREFIX)) throw new Error('--relay: this join code is from an older tether relay (before the hop certificate); ask the operator for a new one: tether relay revoke NAME, then tether relay invite NAME');
  if (!trimmed.startsWith(JOIN_PREFIX)) throw new Error(`--relay: not a join code (it starts with "${JOIN_PREFIX}"; get one from the relay's operator: tether relay invite NAME)`);
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(trimmed.slice(JOIN_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    throw new Error('--relay: the join code is damaged (not base64url JSON); copy it again whole');
  }
  const parsed = JoinSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`--relay: the join code is damaged or forged (${issue.path.join('.') || 'code'}: ${issue.message})`);
  }
  const join = parsed.data;
  if (new URL(join.origin).hostname !== join.name) throw new Error(`--relay: the join code is forged (its URL ${join.origin} is not for its name ${join.name})`);
  return join;
}
