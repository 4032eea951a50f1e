// front.test.ts: the relay front on real sockets: a PROXY line and a TLS ClientHello in, TLS ended
// with the hub's certificate, plaintext to a stand-in hub that sees the loopback source the front
// dialled from, which peers.ts maps back to the address in the PROXY line. acme-tls/1 gets the
// challenge certificate; a connection without a PROXY line, or silent, is dropped. The front dials
// from 127.77.x.y, so this file runs in a network namespace of its own (npm test: unshare -n).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Connects to the front as nginx would: PROXY v1 first, then TLS. */
function throughFront(o: { port: number; proxy: string; alpn: string[]; ca: string }): Promise<{ protocol: string | false | null; body: string; subject: string }> {
  return new Promise((resolve, reject) => {
    const raw: Socket = netConnect({ host: '127.0.0.1', port: o.port }, () => {
      raw.write(o.proxy);
      const tls = tlsConnect({ socket: raw, servername: 'alpha.relay.test', ALPNProtocols: o.alpn, ca: o.ca, checkServerIdentity: () => undefined }, () => {
        const subject = String(tls.getPeerCertificate().subject?.CN ?? '');
        if (o.alpn.includes('acme-tls/1')) return resolve({ protocol: tls.alpnProtocol, body: '', subject });
        tls.write('GET /who HTTP/1.1\r\nhost: alpha.relay.test\r\nconnection: close\r\n\r\n');
        let body = '';
        tls.on('data', (d: Buffer) => (body += d.toString()));
        tls.on('end', () => resolve({ protocol: tls.alpnProtocol, body, subject }));
      });
      tls.on('error', reject);
    });
    raw.on('error', reject);
  });
}

describe('relay front', () => {
  let dir: string;
  let front: Front;
  let hub: ReturnType<typeof Bun.serve>;
  const peers = createPeers();
  let pems: { hub: { key: string; cert: string }; challenge: { key: string; cert: string } };

  beforeAll(async () => {
    requireOwnNetwork();
    dir = mkdtempSync(join(tmpdir(), 'tether-front-'));
    pems = { hub: selfSigned(dir, 'alpha.relay.test'), challenge: selfSigned(dir, 'challenge.invalid') };
    hub = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req, srv) {
        const seen = srv.requestIP(req)!.address;
        return Response.json({ seen, client: peers.lookup(seen) });
      },
    });
    front = await startFront({ hub: { host: '127.0.0.1', port: hub.port! }, peers, log: () => {} });
  });

  afterAll(async () => {
    await front?.close();
    await hub?.stop(true);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has no certificate yet: refuses, then serves TLS with the hub certificate and maps the client back', async () => {
    await expect(throughFront({ port: front.port, proxy: 'PROXY TCP4 203.0.113.7 10.0.0.1 51234 443\r\n', alpn: ['http/1.1'], ca: pems.hub.cert })).rejects.toThrow();
    front.setCertificate(pems.hub);
    const answer = await throughFront({ port: front.port, proxy: 'PROXY TCP4 203.0.113.7 10.0.0.1 51234 443\r\n', alpn: ['http/1.1'], ca: pems.hub.cert });
    expect(answer.subject).toBe('alpha.relay.test');
    const json = JSON.parse(answer.body.slice(answer.body.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n/, '')) as { seen: string; client: string | null };
    expect(json.seen).toMatch(/^127\.77\.\d+\.\d+$/);
    expect(json.client).toBe('203.0.113.7');
    // Released when the connection ended.
    await Bun.sleep(50);
    expect(peers.size()).toBe(0);
  });

  it('answers acme-tls/1 with the challenge certificate only while a validation runs', async () => {
    const proxy = 'PROXY TCP4 198.51.100.1 10.0.0.1 4000 443\r\n';
    await expect(throughFront({ port: front.port, proxy, alpn: ['acme-tls/1'], ca: pems.challenge.cert })).rejects.toThrow();
    front.setChallenge(pems.challenge);
    expect(await throughFront({ port: front.port, proxy, alpn: ['acme-tls/1'], ca: pems.challenge.cert })).toMatchObject({ protocol: 'acme-tls/1', subject: 'challenge.invalid' });
    front.setChallenge(null);
  });

  it('drops a connection without a PROXY line, and counts it', async () => {
    const before = front.stats().refused;
    await expect(throughFront({ port: front.port, proxy: '', alpn: ['http/1.1'], ca: pems.hub.cert })).rejects.toThrow();
    expect(front.stats().refused).toBe(before + 1);
  });
});
