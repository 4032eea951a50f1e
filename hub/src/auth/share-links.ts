// share-links.ts: signed, expiring, revocable read-only links to one session.
//
//   POST /api/sessions/:id/share ─► create(): HS256 JWT {iss: tether-hub/share, ns, sid, jti, exp}
//                                   + a share_links row (jti) ─► the link holder
//   link holder ─► GET /api/share/:token, or /web handshake {client:'web', token} ─► verify()
//
// Invariants: a link is valid only while its signature, its expiry AND its row agree (revoked or
// missing row → refused), so revocation works before expiry; and only while the access token that
// made it (its `tid` claim) is live: a stolen token's links die with it. Links from before `tid`
// live while their namespace has a live token. The issuer differs from web sessions',
// so a share token is never accepted as a login, nor a login as a share token.
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { NamespaceSchema, SessionIdSchema, ShareJtiSchema, type Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';

const ISSUER = 'tether-hub/share';
/** 16 random bytes (128 bits): unguessable, and short enough for a QR code with the rest. */
const JTI_BYTES = 16;

/** `tokenId`: the access token that created the link (null for links made before it was recorded). */
export type ShareClaims = { namespace: Namespace; sessionId: string; jti: string; expiresAt: number; tokenId: string | null };

export type ShareLinks = ReturnType<typeof createShareLinks>;

export function createShareLinks(options: { store: Store; secret: Uint8Array }) {
  const { store } = options;
  const revokedListeners = new Set<(jti: string) => void>();

  const rowValid = async (jti: string, now: number) => {
    const row = await store.getShareLink({ jti });
    return row !== null && row.revokedAt === null && row.expiresAt > now;
  };
  const creatorLive = async (tokenId: string | null, namespace: Namespace) => {
    if (tokenId === null) return (await store.listTokens({ namespace })).some((t) => t.revokedAt === null);
    const token = await store.getToken({ id: tokenId });
    return token !== null && token.revokedAt === null && token.namespace === namespace;
  };

  return {
    /** `tokenId`: the access token behind the caller (a web session's too); the link dies with it. */
    async create(create: { namespace: Namespace; sessionId: string; expiresInSec: number; createdBy: string; tokenId: string; now?: number }) {
      const now = create.now ?? Date.now();
      const jti = randomBytes(JTI_BYTES).toString('base64url');
      const expiresAt = now + create.expiresInSec * 1000;
      const token = await new SignJWT({ ns: create.namespace, sid: create.sessionId, tid: create.tokenId })
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
        const tokenId = typeof payload.tid === 'string' ? payload.tid : null;
        if (!(await creatorLive(tokenId, ns.data))) return null;
        return { namespace: ns.data, sessionId: sid.data, jti: jti.data, expiresAt: row.expiresAt, tokenId };
      } catch {
        return null;
      }
    },

    /** For live share sockets (the revocation sweep): the row and the creating token. */
    async stillValid(link: { jti: string; namespace: Namespace; tokenId: string | null }, now = Date.now()): Promise<boolean> {
      return (await rowValid(link.jti, now)) && (await creatorLive(link.tokenId, link.namespace));
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
