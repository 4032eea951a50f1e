// pair-code.test.ts: which URL a pairing code is shown in. Only an https, non-loopback phone URL (or
// the LAN URL a hub bound to every interface prints at start) makes a link and a QR; a loopback URL
// never does; the phone URL a hub records is what `tether pair --namespace` reads back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type Store } from '@tether/hub';
import { hubStartPairing, httpsPhoneUrl, isLoopbackUrl, pairingLines, pairLink, recordedPhoneUrl } from './pair-code.ts';

let home: string;
let env: NodeJS.ProcessEnv;
let store: Store;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tether-pair-code-'));
  env = { TETHER_HOME: home };
  store = createSqliteStore({ path: join(home, 'hub.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

describe('phone URLs', () => {
  it('knows loopback in every spelling', () => {
    for (const url of ['http://127.0.0.1:8787', 'https://127.4.5.6', 'http://localhost:1', 'https://app.localhost', 'http://[::1]:8787', 'http://0.0.0.0:1', 'http://LOCALHOST']) {
      expect(isLoopbackUrl(new URL(url)), url).toBe(true);
    }
    for (const url of ['http://192.168.1.20:8787', 'https://tether.example.test', 'https://box.tail1234.ts.net']) expect(isLoopbackUrl(new URL(url)), url).toBe(false);
  });

  it('takes only https and not loopback as a phone URL, without a trailing slash', () => {
    expect(httpsPhoneUrl('https://tether.example.test/')).toBe('https://tether.example.test');
    expect(httpsPhoneUrl('https://proxy.example.test/tether/')).toBe('https://proxy.example.test/tether');
    for (const url of ['http://tether.example.test', 'https://localhost', 'https://127.0.0.1:8443', 'https://[::1]', 'not a url', '', null, undefined]) expect(httpsPhoneUrl(url), String(url)).toBeNull();
    expect(pairLink('https://tether.example.test/', 'tpc_x')).toBe('https://tether.example.test/#pair=tpc_x');
  });

  it('reads back the https phone URL the hub recorded in TETHER_HOME, nothing when there is none, never a loopback one', () => {
    expect(recordedPhoneUrl(env)).toBeNull();
    writeFileSync(join(home, 'phone-url'), 'https://tether.example.test\n');
    expect(recordedPhoneUrl(env)).toBe('https://tether.example.test');
    writeFileSync(join(home, 'phone-url'), 'https://127.0.0.1:8787\n');
    expect(recordedPhoneUrl(env)).toBeNull();
  });
});

describe('what is printed', () => {
  it('without a base URL: the code and why there is no link, no URL at all', async () => {
    const text = (await pairingLines({ namespace: 'default', code: 'tpc_abc', expiresAt: Date.now() + 600_000, base: null })).join('\n');
    expect(text).toContain('  tpc_abc');
    expect(text).toContain('no URL a phone can open is configured');
    expect(text).not.toMatch(/https?:\/\/\w/);
  });

  it('tether hub at start: a fresh code in the phone URL with a QR; without one a link for this machine only, no QR; never a loopback QR', async () => {
    const withPublic = (await hubStartPairing({ store, namespace: 'default', phoneUrl: 'https://tether.example.test', localUrl: 'http://127.0.0.1:8787' })).join('\n');
    const code = /https:\/\/tether\.example\.test\/#pair=(tpc_[A-Za-z0-9_-]{32})\n/.exec(withPublic)?.[1];
    expect(code).toBeDefined();
    expect(withPublic).toContain('▄');
    expect(await store.countLivePairCodes({ namespace: 'default', at: Date.now() })).toBe(1);

    const lan = (await hubStartPairing({ store, namespace: 'default', phoneUrl: 'http://192.168.1.20:8787', localUrl: 'http://127.0.0.1:8787' })).join('\n');
    expect(lan).toMatch(/open on your phone \(or scan\): http:\/\/192\.168\.1\.20:8787\/#pair=tpc_/);

    for (const phoneUrl of [null, 'https://localhost:8443']) {
      const local = (await hubStartPairing({ store, namespace: 'default', phoneUrl, localUrl: 'http://127.0.0.1:8787' })).join('\n');
      expect(local).toMatch(/^open on this machine: http:\/\/127\.0\.0\.1:8787\/#pair=tpc_[A-Za-z0-9_-]{32}\n/);
      expect(local).not.toContain('▄');
      expect(local).not.toContain('tth_');
    }
    expect(await store.countLivePairCodes({ namespace: 'default', at: Date.now() })).toBe(4);
  });
});
