// relay-front-fuzz.test.ts: the relay front's two changed ways in (issue 38), each fed ≥ 1,000
// generated payloads (fast-check, fixed seeds) on real sockets, in front of a real hub (createHub,
// SQLite): request lines through the whole path (PROXY line, the relay's hop TLS, the phone's TLS),
// where an absolute-form target the hub does not serve must get the hub's 421 and nothing after it
// may reach the hub; and random prefaces (bytes, PROXY lines, TLS records) from someone without the
// relay's key, which must reach nothing. Throughout: the hub stays up and its database is unchanged.
// The front dials the hub from 127.77.x.y, so this file runs in a network namespace of its own
// (npm test's third pass, scripts/test.mjs).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHub, type Hub } from '@tether/hub';
import { startFront, type Front } from '../../cli/src/relay-link/front.ts';
import { createPeers } from '../../cli/src/relay-link/peers.ts';
import { makeHopIdentity, type HopIdentity } from '../../cli/src/relay/hop-identity.ts';
import { requireOwnNetwork } from '../harness/own-network.ts';
import { targetAllowed } from './target-oracle.ts';

const PER_RUN = 1000;
const BATCH = 40;
const NAME = 'alpha.relay.test';
const NAMES = [NAME, 'localhost'];

let home: string;
let hub: Hub;
let front: Front;
let relay: HopIdentity;
let site: HopIdentity;
const peers = createPeers();

function dumpDatabase(): string {
  const db = new Database(join(home, 'hub.sqlite'), { readonly: true });
  try {
    const hash = createHash('sha256');
    for (const { name } of db.query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]) {
      for (const row of db.query(`SELECT * FROM "${name}" ORDER BY 1`).all() as Record<string, unknown>[]) {
        if (name === 'tokens') delete row.last_used_at;
        hash.update(`${name}:${JSON.stringify(row)}\n`);
      }
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  requireOwnNetwork();
  home = mkdtempSync(join(tmpdir(), 'tether-front-fuzz-'));
  hub = await createHub({ config: { port: 0, home, publicUrl: `https://${NAME}`, peerAddress: peers.lookup } });
  relay = await makeHopIdentity({ commonName: 'tether relay hop', years: 1 });
  site = await makeHopIdentity({ commonName: NAME, years: 1 });
  front = await startFront({ hub: { host: '127.0.0.1', port: hub.port, checkTarget: hub.checkTarget }, peers, name: NAME, hop: relay.fingerprint, log: () => {} });
  front.setCertificate(site);
});

afterAll(async () => {
  await front?.close();
  await hub?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const allowed = (target: string) => targetAllowed(target, NAMES);

/** The statuses of every answer on one relayed connection that sends `request`. */
function relayed(request: string): Promise<number[]> {
  return new Promise((resolve) => {
    const raw = netConnect({ host: '127.0.0.1', port: front.port }, () => {
      raw.write('PROXY TCP4 203.0.113.9 10.0.0.1 40000 443\r\n');
      const hop = tlsConnect({ socket: raw, key: relay.key, cert: relay.cert, rejectUnauthorized: false }, () => {
        const tls = tlsConnect({ socket: hop, servername: NAME, ALPNProtocols: ['http/1.1'], rejectUnauthorized: false }, () => tls.write(Buffer.from(request, 'latin1')));
        let data = '';
        tls.on('data', (d: Buffer) => (data += d.toString('latin1')));
        tls.on('error', () => undefined);
        tls.on('close', () => resolve([...data.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))));
      });
      hop.on('error', () => undefined);
    });
    raw.on('error', () => resolve([]));
    setTimeout(() => raw.destroy(), 10_000);
  });
}

const authority = fc.oneof(
  fc.constantFrom(NAME, 'ALPHA.relay.test.', `${NAME}:8443`, 'localhost:1', '127.0.0.1', '[::1]:80', 'evil.example', `${NAME}.evil.example`, `user@${NAME}`, `${NAME}:99999`, '256.1.1.1', '', `${NAME}@evil.example`),
  fc.stringMatching(/^[a-z0-9.:@\[\]-]{1,24}$/),
);
const target = fc.oneof(
  { arbitrary: fc.stringMatching(/^\/healthz(\?[a-z0-9=&]{0,12})?$/), weight: 1 },
  { arbitrary: fc.tuple(fc.constantFrom('http', 'https', 'HTTPS', 'ftp'), authority, fc.constantFrom('/healthz', '/healthz?x=1')).map(([s, a, p]) => `${s}://${a}${p}`), weight: 4 },
);

describe('relay front fuzz', () => {
  it(`${PER_RUN} request lines through the whole path: a foreign absolute-form target gets the hub's 421 and nothing after it reaches the hub`, async () => {
    const before = dumpDatabase();
    let checked = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(target, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const statuses = await Promise.all(batch.map((t) => relayed(`GET ${t} HTTP/1.1\r\nHost: ${NAME}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: ${NAME}\r\nConnection: close\r\n\r\n`)));
        batch.forEach((t, i) => {
          expect(statuses[i], t).toEqual(allowed(t) ? [200, 200] : [421]);
          if (!allowed(t)) refused++;
        });
        checked += batch.length;
      }),
      { numRuns: PER_RUN / BATCH, seed: 0x4e1a, endOnFailure: true },
    );
    expect(checked).toBeGreaterThanOrEqual(1000);
    expect(refused).toBeGreaterThan(300);
    expect(checked - refused).toBeGreaterThan(100);
    expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
    expect(dumpDatabase()).toBe(before);
  }, 180_000);

  it(`${PER_RUN} prefaces from someone without the relay's key reach nothing`, async () => {
    const before = { db: dumpDatabase(), connections: front.stats().connections };
    const preface = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Buffer.from(b)),
      fc.tuple(fc.constantFrom('PROXY TCP4 198.51.100.7 10.0.0.1 1 443\r\n', 'PROXY TCP6 2001:db8::7 2001:db8::1 1 443\r\n', 'PROXY UNKNOWN\r\n', 'PROXY TCP4 x\r\n'), fc.uint8Array({ maxLength: 200 })).map(([line, rest]) => Buffer.concat([Buffer.from(line), Buffer.from([0x16, 0x03, 0x01]), Buffer.from(rest)])),
    );
    /** Sends the bytes and waits a moment for the front to close; true when it did. */
    const send = (bytes: Buffer) =>
      new Promise<void>((resolve) => {
        const socket = netConnect({ host: '127.0.0.1', port: front.port }, () => socket.end(bytes));
        const timer = setTimeout(() => socket.destroy(), 300);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    // And the PROXY line of a local user followed by a well-formed TLS handshake without the relay's certificate.
    const stranger = () =>
      new Promise<boolean>((resolve) => {
        const raw = netConnect({ host: '127.0.0.1', port: front.port }, () => {
          raw.write('PROXY TCP4 198.51.100.8 10.0.0.1 1 443\r\n');
          const hop = tlsConnect({ socket: raw, rejectUnauthorized: false }, () => hop.write(Buffer.from('x')));
          hop.on('error', () => undefined);
          hop.on('close', () => resolve(true));
        });
        raw.on('error', () => resolve(true));
      });
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(preface, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        await Promise.all([...batch.map(send), stranger()]);
        checked += batch.length + 1;
      }),
      { numRuns: PER_RUN / BATCH, seed: 0x4e1b, endOnFailure: true },
    );
    expect(checked).toBeGreaterThanOrEqual(1000);
    expect({ connections: front.stats().connections, peers: peers.size() }).toEqual({ connections: before.connections, peers: 0 });
    expect(await relayed(`GET /healthz HTTP/1.1\r\nHost: ${NAME}\r\nConnection: close\r\n\r\n`)).toEqual([200]);
    expect(dumpDatabase()).toBe(before.db);
  }, 180_000);
});
