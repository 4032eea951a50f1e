// http-parts.ts: the domain rooms and auth an in-process HTTP app test gives createHttpApp, over the
// test's own store (one signer secret, no revocation to publish, a fixed version). A test spreads them
// and adds what it is about (a public URL, features, transcription). Only *.test.ts files import it.
import type { Store } from '../store/store.ts';
import { createShareLinks } from '../auth/share-links.ts';
import { createCallerResolver } from '../auth/namespace.ts';
import { createWebSessionSigner } from '../auth/web-session.ts';
import { createLogin } from '../auth/login.ts';
import { createDevices } from '../auth/devices.ts';
import { createPairing } from '../auth/pairing.ts';
import { createSessionQueries } from '../sessions/queries.ts';
import { createMachineQueries } from '../machines/machines.ts';
import { createApprovalQueries } from '../approvals/approvals.ts';

export function httpAppParts(store: Store) {
  const secret = new Uint8Array(32).fill(7);
  const signer = createWebSessionSigner({ secret });
  const devices = createDevices({ store, signer, revoked: () => {} });
  return {
    sessions: createSessionQueries({ store }),
    machines: createMachineQueries({ store }),
    approvals: createApprovalQueries({ store }),
    login: createLogin({ store, signer }),
    pairing: createPairing({ store, signer, devices }),
    devices,
    resolver: createCallerResolver({ store, signer }),
    shareLinks: createShareLinks({ store, secret }),
    version: '9.9.9',
  };
}
