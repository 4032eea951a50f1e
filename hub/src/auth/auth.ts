// auth.ts: the auth room's composition: everything that turns a credential into a caller, made once
// per hub from its signing secret. createHub wires what this returns into the edges.
//
//   signer (web sessions) ─► devices (paired devices: refresh, idle, sign-out; revoked → a fact)
//                          └► resolver (token or session → caller; idle devices refused)
//   login (token → session) · pairing (code → device) · share links · one count of failed credentials
//   cache keys (a web login's key for its phone's encrypted chat cache)
import type { Store } from '../store/store.ts';
import type { HubConfig } from '../config.ts';
import type { FactBus } from '../facts/facts.ts';
import { createAuthFailures } from './failures.ts';
import { createCacheKeys } from './cache-keys.ts';
import { createDevices } from './devices.ts';
import { createLogin } from './login.ts';
import { createCallerResolver } from './namespace.ts';
import { createPairing } from './pairing.ts';
import { createShareLinks } from './share-links.ts';
import { createWebSessionSigner } from './web-session.ts';

export function createAuth(options: {
  store: Store;
  secret: Uint8Array;
  config: Pick<HubConfig, 'deviceSessionMs' | 'deviceIdleDays' | 'deviceRefreshGraceMs'>;
  facts: FactBus;
}) {
  const { store, secret, config } = options;
  const signer = createWebSessionSigner({ secret });
  // What a device revokes (a replay, its sign-out, idleness) is a fact: sockets and push drop it.
  const devices = createDevices({
    store,
    signer,
    revoked: (event) => options.facts.publish('tokens.revoked', event),
    ...(config.deviceSessionMs !== undefined ? { sessionTtlMs: config.deviceSessionMs } : {}),
    ...(config.deviceIdleDays !== undefined ? { idleDays: config.deviceIdleDays } : {}),
    ...(config.deviceRefreshGraceMs !== undefined ? { concurrentMs: config.deviceRefreshGraceMs } : {}),
  });
  return {
    signer,
    devices,
    resolver: createCallerResolver({ store, signer, idle: devices.checkIdle }),
    login: createLogin({ store, signer }),
    pairing: createPairing({ store, signer, devices }),
    shareLinks: createShareLinks({ store, secret }),
    // The phone's chat cache key, per login (web/src/lib/phone-cache).
    cacheKeys: createCacheKeys({ secret }),
    // One count of failed credentials for logins, refreshes, REST bearers and socket handshakes.
    failures: createAuthFailures({ onBlocked: (address) => console.error(`tether hub: too many failed authentications from ${address}; answering 429 for a minute`) }),
  };
}
