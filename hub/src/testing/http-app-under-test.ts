// http-app-under-test.ts: the whole Hono app over a test's own store, in process (app.request, no
// port), with every part a route needs wired as createHub wires it and fixed secrets. The REST tests
// keep only what differs (public URL, features, transcription, a web build). Test support: only
// *.test.ts files import it.
import { createShareLinks } from '../auth/share-links.ts';
import { createCallerResolver } from '../auth/namespace.ts';
import { createWebSessionSigner } from '../auth/web-session.ts';
import { createLogin } from '../auth/login.ts';
import { createDevices } from '../auth/devices.ts';
import { createPairing } from '../auth/pairing.ts';
import { createSessionQueries } from '../sessions/queries.ts';
import { createMachineQueries } from '../machines/machines.ts';
import { createApprovalQueries } from '../approvals/approvals.ts';
import type { Store } from '../store/store.ts';
import { createHttpApp } from '../http/app.ts';

type HttpAppOptions = Parameters<typeof createHttpApp>[0];
/** What a test may set on top of the wired parts. */
export type HttpAppExtras = Partial<Pick<HttpAppOptions, 'publicUrl' | 'webDist' | 'terminalMemory' | 'features' | 'transcription'>>;

/** Both the web-session signer and the share links sign with this (any fixed 32 bytes will do). */
const TEST_SECRET = new Uint8Array(32).fill(7);

export function httpAppUnderTest(options: { store: Store } & HttpAppExtras) {
  const { store, ...extras } = options;
  const signer = createWebSessionSigner({ secret: TEST_SECRET });
  const devices = createDevices({ store, signer, revoked: () => {} });
  return createHttpApp({
    sessions: createSessionQueries({ store }),
    machines: createMachineQueries({ store }),
    approvals: createApprovalQueries({ store }),
    login: createLogin({ store, signer }),
    pairing: createPairing({ store, signer, devices }),
    devices,
    resolver: createCallerResolver({ store, signer }),
    shareLinks: createShareLinks({ store, secret: TEST_SECRET }),
    version: '9.9.9',
    ...extras,
  });
}
