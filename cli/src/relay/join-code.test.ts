// join-code.test.ts: a join code round-trips; damaged, forged or foreign ones are refused with one
// line that never echoes the key.
import { describe, expect, it } from 'vitest';
import { decodeJoin, encodeJoin, JOIN_PREFIX, type Join } from './join-code.ts';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n';
const JOIN: Join = { name: 'alpha.relay.test', origin: 'https://alpha.relay.test:8443', ssh: 'relay.test:2222', user: 'tether', hostKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHrdp3Pw4bkvy1vwihqVGAWhzAAVHW2JRa0iciFXhgDN', port: 20000, key: KEY };

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
    try {
      decodeJoin(forge({ key: 'not a key' }));
    } catch (error) {
      expect(String(error)).toMatch(/key/);
      expect(String(error)).not.toContain('b3BlbnNzaC1rZXk');
    }
  });
});
