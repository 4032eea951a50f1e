// host-fuzz.test.ts: the Host allowlist (hub/src/reach/host-allowlist.ts) fed ≥ 1,000 Host header
// values over raw HTTP/1.1 (fast-check, fixed seed; fetch would normalise or refuse many of them):
// the hub's own names in any case, port and trailing dot, IP literals, near misses (a suffix, a
// prefix, a lookalike), and random text. Only what an independent oracle allows may get a 200 from
// /healthz; everything else gets 421 (or Bun's own 400 for a header it cannot parse), the hub stays
// up, and nothing answers with a 5xx.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHub, type Hub } from '@tether/hub';

const PER_RUN = 1200;
const BATCH = 40;
const SEED = 0x4057;
const NAMES = ['localhost', 'tether.example.com', 'box.local', 'hub-a.internal'];

let home: string;
let hub: Hub;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'tether-host-fuzz-'));
  hub = await createHub({ config: { port: 0, home, publicUrl: 'https://tether.example.com', allowedHosts: ['box.local'], clusterUrl: 'http://hub-a.internal:8787' } });
});
afterAll(async () => {
  await hub.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Written apart from the hub's parser: what may pass. */
function oracle(value: string): boolean {
  const v = value.trim().toLowerCase();
  let host: string;
  let port = '';
  const bracket = /^\[([^\]]*)\](?::(.*))?$/.exec(v);
  if (bracket) {
    host = bracket[1]!;
    port = bracket[2] ?? '';
    if (isIP(host) !== 6) return false;
  } else {
    const parts = v.split(':');
    if (parts.length > 2) return false;
    host = parts[0]!;
    port = parts[1] ?? '';
    if (v.includes(':') && port === '') return false;
  }
  if (port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535)) return false;
  if (bracket && v.endsWith(':')) return false;
  // An IP literal passes if a URL can carry it (Bun's URL parser refuses some IPv6 spellings isIP takes).
  if (isIP(host) !== 0) return URL.canParse(`http://${bracket ? `[${host}]` : host}/`);
  return NAMES.includes(host.replace(/\.$/, ''));
}

function rawStatus(port: number, host: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0));
    });
    socket.write(Buffer.from(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1'));
  });
}

const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const randomCase = (s: string) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((ups) => [...s].map((c, i) => (ups[i] ? c.toUpperCase() : c)).join(''));
const portPart = fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 99999 }).map((p) => `:${p}`), fc.constantFrom(':', ':x', '::', ':80:80'));
const ownName = fc.constantFrom(...NAMES).chain((n) => fc.tuple(randomCase(n), fc.constantFrom('', '.'), portPart).map(([a, dot, p]) => `${a}${dot}${p}`));
const nearMiss = fc.tuple(fc.constantFrom(...NAMES), label, fc.constantFrom('prefix', 'suffix', 'glue', 'dash')).map(([n, l, how]) =>
  how === 'prefix' ? `${l}.${n}` : how === 'suffix' ? `${n}.${l}` : how === 'glue' ? `${n}${l}` : `${l}-${n}`,
);
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.'));
const literal = fc.oneof(ipv4, fc.ipV6().map((a) => `[${a}]`), ipv4.map((a) => `${a}.nip.io`), fc.constantFrom('0x7f.1', '2130706433', '127.1', '[::ffff:127.0.0.1]', '[fe80::1%25lo]')).chain((h) => portPart.map((p) => `${h}${p}`));
// Header-safe text: no CR, LF or NUL (those would be a different request, not a Host value).
const junk = fc.string({ unit: fc.oneof(fc.constantFrom(...'abcxyz.:[]-_@/ %\t'), fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c))), maxLength: 40 });
const hostValue = fc.oneof({ arbitrary: ownName, weight: 3 }, { arbitrary: nearMiss, weight: 3 }, { arbitrary: literal, weight: 2 }, { arbitrary: junk, weight: 2 });

describe('Host header fuzz', () => {
  it(`${PER_RUN} values: only allowed names pass, every other gets 421 (or 400), the hub stays up`, async () => {
    let checked = 0;
    let passed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(hostValue, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const statuses = await Promise.all(batch.map((value) => rawStatus(hub.port, value)));
        batch.forEach((value, i) => {
          const status = statuses[i]!;
          if (oracle(value)) {
            expect(status, JSON.stringify(value)).toBe(200);
            passed++;
          } else {
            expect([400, 421], JSON.stringify(value)).toContain(status);
          }
        });
        checked += batch.length;
      }),
      { numRuns: PER_RUN / BATCH, seed: SEED, endOnFailure: true },
    );
    expect(checked).toBeGreaterThanOrEqual(1000);
    // Both sides were exercised.
    expect(passed).toBeGreaterThan(100);
    expect(checked - passed).toBeGreaterThan(300);
    expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
