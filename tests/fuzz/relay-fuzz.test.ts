// relay-fuzz.test.ts: the parsing issue 38 changed, each fed ≥ 1,000 generated inputs (fast-check,
// fixed seeds), with oracles written apart from the code under test:
//   - join codes (cli/src/relay/join-code.ts): forged fields, above all the ssh host; only a host an
//     ssh command line cannot misread is accepted, every refusal is one `--relay:` line without the key;
//   - the relay front's HTTP gate (cli/src/relay-link/http-gate.ts) with the hub's real Host
//     allowlist: generated conversations (bodies by length or chunks that carry request lines,
//     Upgrades the hub takes or refuses) cut at random places; exactly the messages before the first
//     foreign absolute-form target reach the hub, byte for byte;
//   - the front's preface readers (client-hello.ts): random bytes never throw, and a verdict never
//     changes when more bytes arrive.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHostAllowlist } from '../../hub/src/reach/host-allowlist.ts';
import { sshArgs } from '../../cli/src/relay-link/tunnel.ts';
import { createHttpGate } from '../../cli/src/relay-link/http-gate.ts';
import { readClientHello, readProxyLine } from '../../cli/src/relay-link/client-hello.ts';
import { decodeJoin, JOIN_PREFIX, type Join } from '../../cli/src/relay/join-code.ts';
import { targetAllowed } from './target-oracle.ts';

const RUNS = 1200;
const KEY_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ';
const BASE: Join = {
  name: 'alpha.relay.test',
  origin: 'https://alpha.relay.test:8443',
  ssh: 'relay.test:2222',
  user: 'tether',
  hostKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHrdp3Pw4bkvy1vwihqVGAWhzAAVHW2JRa0iciFXhgDN',
  port: 20000,
  hop: Array.from({ length: 32 }, () => 'C4').join(':'),
  key: `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}==\n-----END OPENSSH PRIVATE KEY-----\n`,
};

/** Written apart from join-code.ts: an ssh destination nothing can misread. */
function sshOracle(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const colon = value.lastIndexOf(':');
  if (colon < 0) return false;
  const [host, port] = [value.slice(0, colon), value.slice(colon + 1)];
  if (!/^[0-9]+$/.test(port) || port.length > 5 || Number(port) < 1 || Number(port) > 65535) return false;
  if (host.length === 0 || host.length > 253) return false;
  return host.split('.').every((label) => label.length >= 1 && label.length <= 63 && /^[A-Za-z0-9-]+$/.test(label) && !label.startsWith('-') && !label.endsWith('-'));
}

const sshValue = fc.oneof(
  fc.tuple(fc.stringMatching(/^[a-z0-9.-]{0,30}$/), fc.integer({ min: -5, max: 70_000 })).map(([h, p]) => `${h}:${p}`),
  fc.tuple(fc.constantFrom('-', '-o', '-E', '-J', '--', '-F', '@', '%h', 'u@', '/', ' ', '\n', '.', '..'), fc.stringMatching(/^[a-z0-9.=/-]{0,20}$/), fc.nat(65535)).map(([a, b, p]) => `${a}${b}:${p}`),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(65535)).map(([a, b, c, d, p]) => `${a}.${b}.${c}.${d}:${p}`),
  fc.string({ maxLength: 40 }),
  fc.anything({ maxDepth: 1 }),
);

describe('relay fuzz', () => {
  it(`${RUNS} join codes: only an ssh host nothing can misread is taken; refusals are one line without the key`, () => {
    let accepted = 0;
    fc.assert(
      fc.property(sshValue, fc.oneof(fc.constant(undefined), fc.string({ maxLength: 70 })), fc.boolean(), (ssh, hop, raw) => {
        const join = { ...BASE, ssh, ...(hop !== undefined ? { hop } : {}) };
        const code = raw ? `${JOIN_PREFIX}${Buffer.from(JSON.stringify(join)).toString('base64url')}` : `${JOIN_PREFIX}${Buffer.from(String(ssh)).toString('base64url')}`;
        const valid = raw && sshOracle(ssh) && (hop === undefined || /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/.test(hop));
        try {
          const decoded = decodeJoin(code);
          expect(valid, JSON.stringify(ssh)).toBe(true);
          const args = sshArgs({ join: decoded, keyPath: '/k', knownHosts: '/kh', frontPort: 4000 });
          expect(args.slice(-2)).toEqual(['--', decoded.ssh.slice(0, decoded.ssh.lastIndexOf(':'))]);
          accepted++;
        } catch (error) {
          expect(valid, JSON.stringify(ssh)).toBe(false);
          const message = (error as Error).message;
          expect(message).toMatch(/^--relay: /);
          expect(message).not.toContain('\n');
          expect(message).not.toContain(KEY_BODY);
        }
      }),
      { numRuns: RUNS, seed: 0x5e1a7 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it(`${RUNS} conversations through the HTTP gate: exactly the messages before the first foreign target reach the hub`, () => {
    const NAMES = ['alpha.relay.test', 'localhost'];
    const allowlist = createHostAllowlist({ config: { publicUrl: 'https://alpha.relay.test' } });
    const allowedTarget = (target: string) => targetAllowed(target, NAMES);
    const smuggled = 'GET http://evil.example/ HTTP/1.1\r\nHost: alpha.relay.test\r\n\r\n';
    const authority = fc.oneof(
      fc.constantFrom('alpha.relay.test', 'ALPHA.relay.test.', 'alpha.relay.test:8443', 'localhost:1', '127.0.0.1', '[::1]:80', 'evil.example', 'alpha.relay.test.evil.example', 'user@alpha.relay.test', 'alpha.relay.test:99999', '256.1.1.1', ''),
      fc.stringMatching(/^[a-z0-9.:@\[\]-]{1,24}$/),
    );
    const target = fc.oneof(fc.stringMatching(/^\/[a-z0-9/?=&.-]{0,20}$/), fc.tuple(fc.constantFrom('http', 'https', 'HTTP', 'ftp', 'ws'), authority, fc.constantFrom('/', '/healthz?x=1', '?q', '', '#f')).map(([s, a, p]) => `${s}://${a}${p}`));
    const chunks = (body: string, sizes: number[]) => {
      let out = '';
      let at = 0;
      for (const size of sizes) {
        if (at >= body.length) break;
        const piece = body.slice(at, at + Math.max(1, size));
        out += `${piece.length.toString(16)}\r\n${piece}\r\n`;
        at += piece.length;
      }
      if (at < body.length) out += `${(body.length - at).toString(16)}\r\n${body.slice(at)}\r\n`;
      return `${out}0\r\n\r\n`;
    };
    const message = fc.record({
      method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT'),
      target,
      body: fc.oneof(fc.constant({ kind: 'none' as const }), fc.record({ kind: fc.constant('length' as const), text: fc.oneof(fc.constant(smuggled), fc.string({ maxLength: 80 })) }), fc.record({ kind: fc.constant('chunked' as const), text: fc.oneof(fc.constant(smuggled), fc.string({ maxLength: 80 })), sizes: fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 6 }) })),
      upgrade: fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: fc.constantFrom('101', '400'), weight: 1 }),
    });
    let refusedRuns = 0;
    let upgradedRuns = 0;
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 12 }), (messages, cuts) => {
        const texts = messages.map((m) => {
          const latin = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
          const body = m.body.kind === 'none' || m.upgrade ? '' : latin(m.body.text);
          const framing = m.body.kind === 'none' || m.upgrade ? '' : m.body.kind === 'length' ? `Content-Length: ${body.length}\r\n` : 'Transfer-Encoding: chunked\r\n';
          const upgrade = m.upgrade ? 'Upgrade: websocket\r\nConnection: Upgrade\r\n' : '';
          const head = `${m.upgrade ? 'GET' : m.method} ${m.target} HTTP/1.1\r\nHost: alpha.relay.test\r\n${upgrade}${framing}\r\n`;
          return { head, whole: head + (m.body.kind === 'chunked' && !m.upgrade ? chunks(body, m.body.sizes) : body) };
        });
        // What must reach the hub: every message before the first foreign target; after a taken
        // Upgrade (101) everything, framing or not.
        let expected = '';
        let refuse = false;
        for (const [i, m] of messages.entries()) {
          if (!allowedTarget(m.target)) {
            refuse = true;
            break;
          }
          expected += texts[i]!.whole;
          if (m.upgrade === '101') {
            expected += texts.slice(i + 1).map((t) => t.whole).join('');
            upgradedRuns++;
            break;
          }
          if (m.upgrade === '400') continue;
        }
        const stream = Buffer.from(texts.map((t) => t.whole).join(''), 'latin1');
        const gate = createHttpGate({ checkTarget: allowlist.checkTarget });
        let forwarded = '';
        let refused = false;
        let answered = 0;
        const answer = () => {
          // The stand-in hub answers each request once its head has reached it, in order.
          while (answered < messages.length && forwarded.length >= texts.slice(0, answered).reduce((n, t) => n + t.whole.length, 0) + texts[answered]!.head.length) {
            const m = messages[answered++]!;
            const reply = m.upgrade === '101' ? 'HTTP/1.1 101 Switching Protocols\r\n\r\n' : m.upgrade === '400' ? 'HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\nno' : m.method === 'HEAD' ? 'HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\n' : 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n';
            const step = gate.fromHub(Buffer.from(reply, 'latin1'));
            forwarded += step.forward.toString('latin1');
            // A refused Upgrade releases what was held, which may be refused in turn.
            if (step.refuse) {
              expect(step.refuse.status).toBe(421);
              refused = true;
              return;
            }
            if (m.upgrade === '101') return;
          }
        };
        let at = 0;
        for (let i = 0; at < stream.length && !refused; i++) {
          const size = cuts[i % cuts.length]!;
          const step = gate.fromClient(stream.subarray(at, at + size));
          at += size;
          forwarded += step.forward.toString('latin1');
          if (step.refuse) refused = true;
          else answer();
        }
        expect({ forwarded, refused }).toEqual({ forwarded: expected, refused: refuse });
        if (refuse) refusedRuns++;
      }),
      { numRuns: RUNS, seed: 0x6a7e },
    );
    expect(refusedRuns).toBeGreaterThan(200);
    expect(upgradedRuns).toBeGreaterThan(20);
  });

  it(`${RUNS} random prefaces: the front's readers never throw and never change a verdict when more bytes come`, () => {
    const proxyish = fc.oneof(
      fc.uint8Array({ maxLength: 160 }).map((b) => Buffer.from(b)),
      fc.tuple(fc.constantFrom('PROXY TCP4 ', 'PROXY TCP6 ', 'PROXY UNKNOWN', 'PROXY ', 'proxy tcp4 '), fc.string({ maxLength: 120 }), fc.constantFrom('\r\n', '\n', ''), fc.uint8Array({ maxLength: 40 })).map(([a, b, c, d]) => Buffer.concat([Buffer.from(`${a}${b}${c}`, 'latin1'), Buffer.from(d)])),
      fc.tuple(fc.constantFrom(0x16), fc.constantFrom(0x03), fc.nat(255), fc.nat(0xffff), fc.uint8Array({ maxLength: 300 })).map(([t, v, minor, len, rest]) => Buffer.concat([Buffer.from([t, v, minor, len >> 8, len & 255]), Buffer.from(rest)])),
    );
    fc.assert(
      fc.property(proxyish, fc.uint8Array({ maxLength: 64 }), (bytes, more) => {
        const longer = Buffer.concat([bytes, Buffer.from(more)]);
        for (const read of [readProxyLine, readClientHello] as const) {
          const first = read(bytes);
          const second = read(longer);
          if (first.kind === 'bad') expect(second).toEqual(first);
          if (first.kind === 'done') {
            expect(second.kind).toBe('done');
            if (first.kind === 'done' && second.kind === 'done' && 'client' in first && 'client' in second) expect(second.client).toBe(first.client);
          }
        }
        const line = readProxyLine(bytes);
        if (line.kind === 'done') expect(bytes.subarray(0, 6).toString('latin1')).toBe('PROXY ');
      }),
      { numRuns: RUNS, seed: 0x9f0 },
    );
  });
});
