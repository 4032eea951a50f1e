// share-links.ts: signed, expiring, revocable read-only links to one session.
//
//   POST /api/sessions/:id/share ─► create(): HS256 JWT {iss: tether-hub/share, ns, sid, jti, exp}
//                                   + a share_links row (jti) ─► the link holder
//   link holder ─► GET /api/share/:token, or /web handshake {client:'web', token} ─► verify()
//
// Invariants: a link is valid only while its signature, its expiry AND its row agree (revoked or
// missing row → refused), so revocation works before expiry. The issuer differs from web sessions',
// so a share token is never accepted as a login, nor a login as a share token.
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { NamespaceSchema, SessionIdSchema, ShareJtiSchema, type Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';

const ISSUER = 'tether-hub/share';
/** 16 random bytes (128 bits): unguessable, and short enough for a QR code with the rest. */
const JTI_BYTES = 16;

export type ShareClaims = { namespace: Namespace; sessionId: string; jti: string; expiresAt: number };

export type ShareLinks = ReturnType<typeof createShareLinks>;

export function createShareLinks(options: { store: Store; secret: Uint8Array }) {
  const { store } = options;
  const revokedListeners = new Set<(jti: string) => void>();

  const rowValid = async (jti: string, now: number) => {
    const row = await store.getShareLink({ jti });
    return row !== null && row.revokedAt === null && row.expiresAt > now;
  };

  return {
    async create(create: { namespace: Namespace; sessionId: string; expiresInSec: number; createdBy: string; now?: number }) {
      const now = create.now ?? Date.now();
      const jti = randomBytes(JTI_BYTES).toString('base64url');
      const expiresAt = now + create.expiresInSec * 1000;
      const token = await new SignJWT({ ns: create.namespace, sid: create.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setJti(jti)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(options.secret);
      await store.insertShareLink({
        link: { jti, namespace: create.namespace, sessionId: create.sessionId, createdBy: create.createdBy, createdAt: now, expiresAt, revokedAt: null },
      });
      return { token, jti, expiresAt };
    },

    /** The claims of a link that is signed, unexpired and not revoked; null for anything else. */
    async verify(token: string, now = Date.now()): Promise<ShareClaims | null> {
      if (token.length > 4096) return null;
      try {
        const { payload } = await jwtVerify(token, options.secret, { algorithms: ['HS256'], issuer: ISSUER, currentDate: new Date(now) });
        const ns = NamespaceSchema.safeParse(payload.ns);
        const sid = SessionIdSchema.safeParse(payload.sid);
        const jti = ShareJtiSchema.safeParse(payload.jti);
        if (!ns.success || !sid.success || !jti.success || typeof payload.exp !== 'number') return null;
        const row = await store.getShareLink({ jti: jti.data });
        if (!row || row.revokedAt !== null || row.expiresAt <= now) return null;
        // The row is the authority on scope: a forged claim with a real jti still gets nothing extra.
        if (row.namespace !== ns.data || row.sessionId !== sid.data) return null;
        return { namespace: ns.data, sessionId: sid.data, jti: jti.data, expiresAt: row.expiresAt };
      } catch {
        return null;
      }
    },

    stillValid(jti: string, now = Date.now()): Promise<boolean> {
      return rowValid(jti, now);
    },

    async revoke(revoke: { namespace: Namespace; sessionId: string; jti: string; now?: number }): Promise<boolean> {
      const done = await store.revokeShareLink({ namespace: revoke.namespace, sessionId: revoke.sessionId, jti: revoke.jti, at: revoke.now ?? Date.now() });
      if (done) for (const listener of [...revokedListeners]) listener(revoke.jti);
      return done;
    },

    /** Live connections of a revoked link are dropped at once (sockets/server.ts listens). */
    onRevoked(listener: (jti: string) => void): () => void {
      revokedListeners.add(listener);
      return () => revokedListeners.delete(listener);
    },
  };
}
