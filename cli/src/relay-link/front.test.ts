// front.test.ts: the relay front on real sockets: a PROXY line, the relay's hop TLS (its certificate
// pinned by fingerprint) and inside it a ClientHello in, TLS ended with the hub's certificate,
// plaintext to a stand-in hub that sees the loopback source the front dialled from, which peers.ts
// maps back to the address in the PROXY line. acme-tls/1 gets the challenge certificate. Refused,
// with nothing reaching the hub: no PROXY line; a PROXY line from anyone without the relay's key (no
// certificate, another one: another local user, issue 38); another hub's SNI. The front dials from
// 127.77.x.y, so this file runs in a network namespace of its own (npm test: unshare -n).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHopIdentity, type HopIdentity } from '../relay/hop-identity.ts';
import { startFront, type Front } from './front.ts';
import { createPeers } from './peers.ts';
import { requireOwnNetwork } from '../../../tests/harness/own-network.ts';

function selfSigned(dir: string, name: string): { key: string; cert: string } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`, '-keyout', key, '-out', cert], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

type Hop = { key: string; cert: string } | null;

/** Connects to the front as nginx would: PROXY v1 first, then the hop's TLS showing `hop` (null:
 *  none), then the phone's TLS inside it, where it sends `request` (a GET of /who by default). */
function throughFront(o: { port: number; proxy: string; hop: Hop; alpn: string[]; ca: string; servername?: string; request?: string }): Promise<{ protocol: string | false | null; body: string; subject: string }> {
  return new Promise((resolve, reject) => {
    const raw: Socket = netConnect({ host: '127.0.0.1', port: o.port }, () => {
      raw.write(o.proxy);
      const hop = tlsConnect({ socket: raw, ...(o.hop ? { key: o.hop.key, cert: o.hop.cert } : {}), rejectUnauthorized: false }, () => {
        const tls = tlsConnect({ socket: hop, servername: o.servername ?? 'alpha.relay.test', ALPNProtocols: o.alpn, ca: o.ca, checkServerIdentity: () => undefined }, () => {
          const subject = String(tls.getPeerCertificate().subject?.CN ?? '');
          if (o.alpn.includes('acme-tls/1')) return resolve({ protocol: tls.alpnProtocol, body: '', subject });
          tls.write(o.request ?? 'GET /who HTTP/1.1\r\nhost: alpha.relay.test\r\nconnection: close\r\n\r\n');
          let body = '';
          tls.on('data', (d: Buffer) => (body += d.toString()));
          tls.on('end', () => resolve({ protocol: tls.alpnProtocol, body, subject }));
        });
        tls.on('error', reject);
        tls.on('close', () => reject(new Error('closed')));
      });
      hop.on('error', reject);
      hop.on('close', () => reject(new Error('closed')));
    });
    raw.on('error', reject);
    raw.on('close', () => reject(new Error('closed')));
  });
}

describe('relay front', () => {
  let dir: string;
  let front: Front;
  let hub: ReturnType<typeof Bun.serve>;
  const peers = createPeers();
  let pems: { hub: { key: string; cert: string }; challenge: { key: string; cert: string } };
  let relay: HopIdentity;
  let stranger: HopIdentity;
  /** What reached the stand-in hub. */
  let requests = 0;

  beforeAll(async () => {
    requireOwnNetwork();
    dir = mkdtempSync(join(tmpdir(), 'tether-front-'));
    pems = { hub: selfSigned(dir, 'alpha.relay.test'), challenge: selfSigned(dir, 'challenge.invalid') };
    relay = await makeHopIdentity({ commonName: 'tether relay hop', years: 1 });
    stranger = await makeHopIdentity({ commonName: 'tether relay hop', years: 1 });
    hub = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req, srv) {
        requests++;
        const seen = srv.requestIP(req)!.address;
        return Response.json({ seen, client: peers.lookup(seen) });
      },
    });
    // The hub's allowlist in small: it serves alpha.relay.test and nothing else.
    const checkTarget = (target: string) => (target.startsWith('/') || /^https?:\/\/alpha\.relay\.test[:/]/.test(target) ? null : new Response('421 Misdirected Request: not served\n', { status: 421 }));
    front = await startFront({ hub: { host: '127.0.0.1', port: hub.port!, checkTarget }, peers, name: 'alpha.relay.test', hop: relay.fingerprint, log: () => {} });
  });

  afterAll(async () => {
    await front?.close();
    await hub?.stop(true);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const proxy = 'PROXY TCP4 203.0.113.7 10.0.0.1 51234 443\r\n';

  it('has no certificate yet: refuses, then serves TLS with the hub certificate and maps the client back', async () => {
    await expect(throughFront({ port: front.port, proxy, hop: relay, alpn: ['http/1.1'], ca: pems.hub.cert })).rejects.toThrow();
    front.setCertificate(pems.hub);
    const answer = await throughFront({ port: front.port, proxy, hop: relay, alpn: ['http/1.1'], ca: pems.hub.cert });
    expect(answer.subject).toBe('alpha.relay.test');
    const json = JSON.parse(answer.body.slice(answer.body.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n/, '')) as { seen: string; client: string | null };
    expect(json.seen).toMatch(/^127\.77\.\d+\.\d+$/);
    expect(json.client).toBe('203.0.113.7');
    // Released when the connection ended.
    await Bun.sleep(50);
    expect(peers.size()).toBe(0);
  });

  it('answers acme-tls/1 with the challenge certificate only while a validation runs', async () => {
    const acme = 'PROXY TCP4 198.51.100.1 10.0.0.1 4000 443\r\n';
    await expect(throughFront({ port: front.port, proxy: acme, hop: relay, alpn: ['acme-tls/1'], ca: pems.challenge.cert })).rejects.toThrow();
    front.setChallenge(pems.challenge);
    expect(await throughFront({ port: front.port, proxy: acme, hop: relay, alpn: ['acme-tls/1'], ca: pems.challenge.cert })).toMatchObject({ protocol: 'acme-tls/1', subject: 'challenge.invalid' });
    front.setChallenge(null);
  });

  it.each([
    ['without a PROXY line', { proxy: '', hop: 'relay' }],
    ['whose PROXY line no hop TLS follows (a local user of either box)', { proxy, hop: 'none' }],
    ["whose hop shows a certificate that is not the relay's", { proxy, hop: 'stranger' }],
    ["whose phone asks for another hub's name", { proxy, hop: 'relay', servername: 'beta.relay.test' }],
  ] as const)('refuses a connection %s: nothing reaches the hub, no address is kept', async (_what, o) => {
    front.setCertificate(pems.hub);
    const before = { refused: front.stats().refused, requests };
    const hop = o.hop === 'relay' ? relay : o.hop === 'stranger' ? stranger : null;
    await expect(throughFront({ port: front.port, proxy: o.proxy, hop, alpn: ['http/1.1'], ca: pems.hub.cert, ...('servername' in o ? { servername: o.servername } : {}) })).rejects.toThrow();
    await Bun.sleep(50);
    expect({ refused: front.stats().refused - before.refused, requests: requests - before.requests, peers: peers.size() }).toEqual({ refused: 1, requests: 0, peers: 0 });
  });

  it('answers an absolute-form request for a name the hub does not serve with its 421, whatever Host says, and lets its own through', async () => {
    front.setCertificate(pems.hub);
    const before = requests;
    const send = (target: string) => throughFront({ port: front.port, proxy, hop: relay, alpn: ['http/1.1'], ca: pems.hub.cert, request: `GET ${target} HTTP/1.1\r\nhost: alpha.relay.test\r\nconnection: close\r\n\r\n` });
    const foreign = await send('http://evil.example/who');
    expect(foreign.body).toMatch(/^HTTP\/1\.1 421 Misdirected Request\r\n[\s\S]*\r\n\r\n421 Misdirected Request: not served\n$/);
    expect(requests).toBe(before);
    const own = await send('https://alpha.relay.test/who');
    expect(own.body).toMatch(/^HTTP\/1\.1 200 /);
    expect(requests).toBe(before + 1);
  });
});
