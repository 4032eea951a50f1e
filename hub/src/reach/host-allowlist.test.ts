// host-allowlist.test.ts: the Host allowlist as a function (parsing, what is allowed) and in front of
// a real hub on 127.0.0.1: a foreign Host gets 421 before any route, static file or socket.io
// handshake; raw HTTP/1.1 requests carry Host values fetch() would never send.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHub, type Hub } from '../main.ts';
import { createHostAllowlist, hostName, targetHost } from './host-allowlist.ts';
import { REACH_PROOF_PATH } from './reach-proof.ts';

const req = (headers: Record<string, string>) => new Request('http://127.0.0.1/', { headers });

describe('hostName', () => {
  it.each([
    ['localhost:8787', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['127.9.8.7:1', '127.9.8.7'],
    ['[::1]:8787', '::1'],
    ['[::1]', '::1'],
    ['box.tail1234.ts.net.', 'box.tail1234.ts.net'],
    ['Tether.Example.com:443', 'tether.example.com'],
  ])('%s → %s', (value, name) => expect(hostName(value)).toBe(name));

  it.each(['', ' ', '::1', '[::1', '[nonsense]', 'a b', 'evil.example/x', 'user@evil.example', 'evil..example', 'evil.example:port', 'evil.example:123456', '-a.example', 'x'.repeat(64) + '.example', '[::1]x'])(
    'refuses %j',
    (value) => expect(hostName(value)).toBeNull(),
  );
});

describe('targetHost', () => {
  it.each([
    ['http://evil.example/', 'evil.example'],
    ['HTTPS://Tether.Example.com:443/api?x=1', 'tether.example.com'],
    ['http://tether.example.com?x=/y', 'tether.example.com'],
    ['http://tether.example.com#f', 'tether.example.com'],
    ['http://[::1]:8787/', '::1'],
    ['http://127.0.0.1', '127.0.0.1'],
  ])('%s → %s', (target, host) => expect(targetHost(target)).toBe(host));

  it.each(['/', '*', 'evil.example:443', 'ftp://tether.example.com/', 'http://user@tether.example.com/', 'http://tether.example.com@evil.example/', 'http:///x', 'http://a b/', 'http://[::1/', 'ws://tether.example.com/'])('refuses %j', (target) => expect(targetHost(target)).toBeNull());
});

describe('createHostAllowlist', () => {
  const allowlist = createHostAllowlist({
    config: { host: '0.0.0.0', publicUrl: 'https://tether.example.com', allowedHosts: ['Box.Local', 'http://named.example:9000'], clusterUrl: 'http://hub-a.internal:8787' },
  });

  it.each(['localhost', 'localhost:1', '127.0.0.1:8787', '127.1.2.3', '[::1]:8787', '192.168.1.20:8787', '100.64.1.2', '[fd7a:115c:a1e0::1]', 'tether.example.com', 'tether.example.com:443', 'box.local', 'named.example', 'hub-a.internal:8787'])(
    'lets %s through',
    (host) => expect(allowlist.check(req({ host }))).toBeNull(),
  );

  it.each(['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'tether.example.com.evil.example', 'sub.tether.example.com', '0x7f.1', 'garbage value'])('answers 421 to %s', async (host) => {
    const res = allowlist.check(req({ host }));
    expect(res?.status).toBe(421);
    expect(res?.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res?.text()).toMatch(/^421 Misdirected Request: /);
  });

  it('judges a raw request-target by its own authority (RFC 9112 3.2.2: the URI wins over Host)', async () => {
    for (const target of ['/healthz', '*', 'https://tether.example.com/api', 'http://box.local:8787/', 'http://192.168.1.20/']) expect(allowlist.checkTarget(target), target).toBeNull();
    for (const target of ['http://evil.example/', 'http://tether.example.com.evil.example/', 'http://user@box.local/', 'ftp://box.local/', 'box.local:443']) {
      const res = allowlist.checkTarget(target);
      expect(res?.status, target).toBe(421);
      expect(await res?.text()).toMatch(/^421 Misdirected Request: /);
    }
  });

  it('answers 421 without a Host header', () => {
    expect(allowlist.check(new Request('http://127.0.0.1/'))?.status).toBe(421);
  });

  it('reads X-Forwarded-Host only with --trust-proxy, and then every entry must be ours too', () => {
    const forwarded = { host: '127.0.0.1:8787', 'x-forwarded-host': 'evil.example' };
    expect(allowlist.check(req(forwarded))).toBeNull();
    const trusting = createHostAllowlist({ config: { publicUrl: 'https://tether.example.com', trustProxy: true } });
    expect(trusting.check(req(forwarded))?.status).toBe(421);
    expect(trusting.check(req({ host: '127.0.0.1', 'x-forwarded-host': 'tether.example.com' }))).toBeNull();
    expect(trusting.check(req({ host: '127.0.0.1', 'x-forwarded-host': 'tether.example.com, evil.example' }))?.status).toBe(421);
    // A forwarded name does not launder a foreign Host either.
    expect(trusting.check(req({ host: 'evil.example', 'x-forwarded-host': 'tether.example.com' }))?.status).toBe(421);
  });

  it('logs a refused name once, and only a bounded number of names', () => {
    const lines: string[] = [];
    const logging = createHostAllowlist({ config: {}, log: (line) => lines.push(line) });
    for (let i = 0; i < 3; i++) logging.check(req({ host: 'evil.example' }));
    for (let i = 0; i < 100; i++) logging.check(req({ host: `n${i}.example` }));
    expect(lines.filter((l) => l.includes('"evil.example"'))).toHaveLength(1);
    expect(lines[0]).toContain('--allowed-host evil.example');
    expect(lines.length).toBe(16);
  });
});

/** One raw HTTP/1.1 request; resolves with the status line and body. */
function rawRequest(port: number, head: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      // A WebSocket upgrade stays open: its status line is the whole answer.
      if (data.startsWith('HTTP/1.1 101')) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
    socket.write(`${head}\r\nConnection: close\r\n\r\n`);
    setTimeout(() => socket.destroy(), 5_000);
  });
}

describe('a hub behind its allowlist', () => {
  let home: string;
  let hub: Hub;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'tether-hosts-'));
    hub = await createHub({ config: { port: 0, home, publicUrl: 'https://tether.example.com', allowedHosts: ['box.local'] } });
  });
  afterAll(async () => {
    await hub.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('answers its own names on every route', async () => {
    for (const host of [new URL(hub.url).host, `localhost:${hub.port}`, 'tether.example.com', 'box.local:80']) {
      expect((await rawRequest(hub.port, `GET /healthz HTTP/1.1\r\nHost: ${host}`)).status).toBe(200);
    }
  });

  it('refuses a rebinding name on /, /healthz, /api, the reach proof and the socket.io handshake', async () => {
    for (const path of ['/', '/healthz', '/api/sessions', `${REACH_PROOF_PATH}?challenge=${'a'.repeat(32)}`, '/socket.io/?EIO=4&transport=websocket', '/assets/x.js']) {
      const res = await rawRequest(hub.port, `GET ${path} HTTP/1.1\r\nHost: evil.example:${hub.port}\r\nOrigin: http://evil.example:${hub.port}\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13`);
      expect(res.status, path).toBe(421);
      expect(res.text).toContain('Misdirected Request');
    }
  });

  it('refuses a request without Host, and one with garbage', async () => {
    expect((await rawRequest(hub.port, 'GET /healthz HTTP/1.0')).status).toBe(421);
    expect((await rawRequest(hub.port, 'GET /healthz HTTP/1.1\r\nHost: a b')).status).toBeGreaterThanOrEqual(400);
  });

  it('refuses what the Host fuzz found made a route throw (500): a port over 65535, an IPv6 literal Bun\'s URL refuses', async () => {
    for (const host of ['[::1]:99983', '127.0.0.1:70000', '[123d:c::8e:7e:0.10.195.7]']) {
      expect((await rawRequest(hub.port, `GET /healthz HTTP/1.1\r\nHost: ${host}`)).status, host).toBe(421);
    }
  });

  it('cannot see an absolute-form target itself: Bun.serve rebuilds the URL from Host (why checkTarget exists, and the relay front asks it)', async () => {
    // If this ever answers 421, Bun kept the target's authority and check() can judge it directly.
    expect((await rawRequest(hub.port, `GET http://evil.example/healthz HTTP/1.1\r\nHost: tether.example.com`)).status).toBe(200);
    expect(hub.checkTarget('http://evil.example/healthz')?.status).toBe(421);
  });

  it('proves itself to the TLS gate: the answer is the hub\'s own, a bad challenge is 400', async () => {
    const challenge = 'c'.repeat(43);
    const res = await fetch(`${hub.url}${REACH_PROOF_PATH}?challenge=${challenge}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { proof: string }).proof).toBe(hub.reachAnswer(challenge));
    expect(hub.reachAnswer('d'.repeat(43))).not.toBe(hub.reachAnswer(challenge));
    expect((await fetch(`${hub.url}${REACH_PROOF_PATH}?challenge=short`)).status).toBe(400);
  });

  it('lets a browser on the public URL open a socket (its origin is the hub\'s own)', async () => {
    const handshake = (origin: string) =>
      rawRequest(hub.port, `GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nOrigin: ${origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13`);
    expect((await handshake('https://tether.example.com')).status).toBe(101);
    expect((await handshake('https://other.example')).status).toBe(403);
  });
});
