// join-code.ts: the join code `tether relay invite` prints and `tether hub --relay` reads. It carries
// everything a hub needs to dial out to one relay and serve one name: the relay's ssh address and
// pinned host key, the name's public origin, the port the relay's key lets it listen on, and the
// hub's private key. A secret: whoever holds it can serve that name (until `tether relay revoke`).
//
//   tether-relay-1.<base64url(JSON)>   (JSON checked by JoinSchema; anything else is refused)
import { z } from 'zod';

export const JOIN_PREFIX = 'tether-relay-1.';

/** One DNS label: what `tether relay invite NAME` accepts. */
export const HUB_NAME = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** Names a hub may not take: they would look like the relay's own. */
export const RESERVED_NAMES = new Set(['www', 'relay', 'mail', 'admin', 'api', 'ssh', 'ns1', 'ns2']);

const HostPort = z.string().regex(/^[a-z0-9.-]+:\d{1,5}$/i, 'host:port');

export const JoinSchema = z.strictObject({
  /** `<name>.<relay domain>`: the SNI the relay routes to this hub. */
  name: z.string().min(3).max(253).regex(/^[a-z0-9.-]+$/),
  /** https://name[:port]: what the phone opens. */
  origin: z.url({ protocol: /^https$/ }),
  /** Where the relay's sshd listens, and the account it runs as (a non-root sshd lets in only its own). */
  ssh: HostPort,
  user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/),
  /** The relay's sshd host key (`ssh-ed25519 AAAA…`), pinned: no trust on first use. */
  hostKey: z.string().regex(/^ssh-ed25519 [A-Za-z0-9+/=]+$/),
  /** The port on the relay's loopback this hub's key may listen on (permitlisten). */
  port: z.number().int().min(1024).max(65535),
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
