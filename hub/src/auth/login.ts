// login.ts: an access token exchanged for a 12 h web session (`POST /api/auth/login`). Null for a
// token that is unknown or revoked; counting failures is the caller's (auth/failures.ts).
import type { LoginResponse } from '@tether/shared';
import type { Store } from '../store/store.ts';
import { verifyAccessToken } from './tokens.ts';
import type { WebSessionSigner } from './web-session.ts';

export type Login = (token: string) => Promise<LoginResponse | null>;

export function createLogin(options: { store: Store; signer: WebSessionSigner }): Login {
  return async (token) => {
    const record = await verifyAccessToken({ store: options.store, token });
    if (!record) return null;
    const { session, expiresAt } = await options.signer.sign({ tokenId: record.id, namespace: record.namespace });
    return { session, namespace: record.namespace, expiresAt };
  };
}
