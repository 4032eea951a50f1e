// join-code.test.ts: a join code round-trips; damaged, forged or foreign ones are refused with one
// line that never echoes the key; an ssh host ssh could misread (an option, a user, a path) is refused.
import { describe, expect, it } from 'vitest';
import { decodeJoin, encodeJoin, isSshAddress, JOIN_PREFIX, type Join } from './join-code.ts';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n';
const JOIN: Join = { name: 'alpha.relay.test', origin: 'https://alpha.relay.test:8443', ssh: 'relay.test:2222', user: 'tether', hostKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHrdp3Pw4bkvy1vwihqVGAWhzAAVHW2JRa0iciFXhgDN', port: 20000, hop: Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0').toUpperCase()).join(':'), key: KEY };

function forge(patch: Record<string, unknown>): string {
  return `${JOIN_PREFIX}${Buffer.from(JSON.stringify({ ...JOIN, ...patch })).toString('base64url')}`;
}

describe('join code', () => {
  it('round-trips, with surrounding whitespace from a paste', () => {
    expect(decodeJoin(`  ${encodeJoin(JOIN)}\n`)).toEqual(JOIN);
  });

  it('refuses what is not one, damaged or forged, naming the field and never the key', () => {
    expect(() => decodeJoin('https://alpha.relay.test')).toThrow(/not a join code/);
    expect(() => decodeJoin(`${JOIN_PREFIX}%%%`)).toThrow(/damaged/);
    expect(() => decodeJoin(forge({ origin: 'http://alpha.relay.test' }))).toThrow(/forged \(origin/);
    expect(() => decodeJoin(forge({ origin: 'https://beta.relay.test' }))).toThrow(/its URL https:\/\/beta\.relay\.test is not for its name alpha\.relay\.test/);
    expect(() => decodeJoin(forge({ hostKey: 'ssh-rsa AAAA' }))).toThrow(/hostKey/);
    expect(() => decodeJoin(forge({ port: 22 }))).toThrow(/port/);
    expect(() => decodeJoin(forge({ extra: 1 }))).toThrow(/forged/);
    expect(() => decodeJoin(forge({ hop: undefined }))).toThrow(/forged \(hop/);
    expect(() => decodeJoin(forge({ hop: 'ab:cd' }))).toThrow(/forged \(hop/);
    expect(() => decodeJoin(`tether-relay-1.${encodeJoin(JOIN).slice(JOIN_PREFIX.length)}`)).toThrow(/older tether relay .* tether relay invite NAME/);
    try {
      decodeJoin(forge({ key: 'not a key' }));
    } catch (error) {
      expect(String(error)).toMatch(/key/);
      expect(String(error)).not.toContain('b3BlbnNzaC1rZXk');
    }
  });

  it('refuses an ssh host that starts with a dash, names a user, a path or an ssh token (issue 38)', () => {
    for (const ssh of ['-Eattack.log:22', '-oProxyCommand:22', '-J.relay.test:22', 'a.-b:22', 'a-.b:22', 'user@relay.test:22', 'relay.test/x:22', '%h:22', 'relay test:22', 'relay.test:0', 'relay.test:65536', 'relay.test', ':22', 'relay..test:22', '[::1]:22', 'relay.test:22\n-v']) {
      expect(isSshAddress(ssh), ssh).toBe(false);
      expect(() => decodeJoin(forge({ ssh })), ssh).toThrow(/forged \(ssh: /);
    }
    for (const ssh of ['relay.test:2222', '127.0.0.1:22', 'a:1', 'RELAY-1.example.com:65535']) expect(isSshAddress(ssh), ssh).toBe(true);
    expect(() => decodeJoin(forge({ name: '-alpha.relay.test', origin: 'https://-alpha.relay.test' }))).toThrow(/forged \(name/);
  });
});
