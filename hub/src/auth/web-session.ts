// web-session.ts: the short-lived signed session a browser buys with an access token at login.
// HS256 JWT (jose), 12 h (a renewable paired device's: DEVICE_SESSION_TTL_MS), sub = token id, ns = namespace, signed with <TETHER_HOME>/hub-secret.
// Invariant: the JWT alone is never enough; namespace.ts checks its token row on every use, so
// revoking the token kills every session bought with it.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { NamespaceSchema, type Namespace } from '@tether/shared';

/** Long enough for a day at the desk, short enough that a lost phone's session dies by tomorrow. */
export const WEB_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const ISSUER = 'tether-hub';
/** 32 bytes of key for HS256 (its full strength). */
const SECRET_BYTES = 32;

/** Reads the signing secret, creating it (mode 0600) on first start. */
export function loadHubSecret(options: { path: string }): Uint8Array {
  if (!existsSync(options.path)) {
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    try {
      writeFileSync(options.path, randomBytes(SECRET_BYTES).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(options.path, 0o600);
  const secret = Buffer.from(readFileSync(options.path, 'utf8').trim(), 'base64url');
  if (secret.length < 16) throw new Error(`hub secret at ${options.path} is too short; delete it to make a new one`);
  return new Uint8Array(secret);
}

/** `renewable`: a paired device's short session, renewed by its refresh cookie (devices.ts). */
export type WebSessionClaims = { tokenId: string; namespace: Namespace; expiresAt: number; renewable: boolean };

export type WebSessionSigner = {
  /** `ttlMs`: a paired device's short session (renewed by its refresh cookie); default 12 h. */
  sign(options: { tokenId: string; namespace: Namespace; now?: number; ttlMs?: number; renewable?: boolean }): Promise<{ session: string; expiresAt: number }>;
  /** The claims of a valid, unexpired session, or null for anything else. */
  verify(session: string): Promise<WebSessionClaims | null>;
};

export function createWebSessionSigner(options: { secret: Uint8Array }): WebSessionSigner {
  const key = options.secret;
  return {
    async sign({ tokenId, namespace, now = Date.now(), ttlMs = WEB_SESSION_TTL_MS, renewable = false }) {
      // A JWT's exp is whole seconds: the expiry told to the client is the one the hub enforces.
      const expiresAt = Math.floor((now + ttlMs) / 1000) * 1000;
      const session = await new SignJWT({ ns: namespace, ...(renewable ? { rn: true } : {}) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(tokenId)
        .setIssuer(ISSUER)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(expiresAt / 1000)
        .sign(key);
      return { session, expiresAt };
    },
    async verify(session) {
      if (session.length > 4096) return null;
      try {
        const { payload } = await jwtVerify(session, key, { algorithms: ['HS256'], issuer: ISSUER });
        const ns = NamespaceSchema.safeParse(payload.ns);
        if (!ns.success || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
        return { tokenId: payload.sub, namespace: ns.data, expiresAt: payload.exp * 1000, renewable: payload.rn === true };
      } catch {
        return null;
      }
    },
  };
}
