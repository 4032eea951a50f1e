// flags.test.ts: the reach flags of `tether hub` and where a phone reaches a hub without https.
import { describe, expect, it } from 'vitest';
import { parseAllowedHosts, parsePublicUrl, takeTailscaleFlag } from './flags.ts';
import { lanUrl } from './reach.ts';

describe('parsePublicUrl', () => {
  it.each([
    ['https://tether.example.com', 'https://tether.example.com'],
    ['https://Tether.Example.com/', 'https://tether.example.com'],
    ['https://tether.example.com:8443', 'https://tether.example.com:8443'],
    ['https://tether.example.com:443', 'https://tether.example.com'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
  ])('%s → %s', (value, origin) => expect(parsePublicUrl(value)).toBe(origin));

  it.each([
    ['http://tether.example.com', /must be https/],
    ['ftp://tether.example.com', /must be https/],
    ['https://tether.example.com/hub', /no path/],
    ['https://tether.example.com/?x=1', /no path/],
    ['https://tether.example.com/#x', /no path/],
    ['https://tether.example.com?', /no path/],
    ['https://u:p@tether.example.com', /no user/],
    ['https://tether', /not a full name/],
    ['tether.example.com', /not a URL/],
  ])('refuses %s', (value, reason) => expect(() => parsePublicUrl(value)).toThrow(reason));
});

describe('parseAllowedHosts', () => {
  it('takes names and addresses, comma-separated', () => {
    expect(parseAllowedHosts(' Box.Local, 192.168.1.20 ,,[fd00::1]')).toEqual(['box.local', '192.168.1.20', '[fd00::1]']);
    expect(parseAllowedHosts('')).toEqual([]);
  });
  it.each(['https://box.local', 'box.local:80', 'a b', 'box/x'])('refuses %s', (value) => expect(() => parseAllowedHosts(value)).toThrow(/not a host name/));
});

describe('takeTailscaleFlag', () => {
  it('reads --tailscale and --tailscale=funnel, leaves the rest', () => {
    expect(takeTailscaleFlag(['--port', '0', '--tailscale'])).toEqual({ mode: 'serve', rest: ['--port', '0'] });
    expect(takeTailscaleFlag(['--tailscale=funnel'])).toEqual({ mode: 'funnel', rest: [] });
    expect(takeTailscaleFlag(['--', '--tailscale'])).toEqual({ mode: null, rest: ['--', '--tailscale'] });
    expect(takeTailscaleFlag(['--tailscaled'])).toEqual({ mode: null, rest: ['--tailscaled'] });
  });
  it('refuses another value', () => expect(() => takeTailscaleFlag(['--tailscale=yes'])).toThrow(/no value or "funnel"/));
});

describe('lanUrl', () => {
  it('never a loopback address; the LAN address when bound to every interface', () => {
    expect(lanUrl({ host: '127.0.0.1', port: 8787 })).toBeNull();
    expect(lanUrl({ host: 'localhost', port: 8787 })).toBeNull();
    expect(lanUrl({ host: '0.0.0.0', port: 8787, lan: () => '192.168.1.20' })).toBe('http://192.168.1.20:8787');
    expect(lanUrl({ host: '::', port: 8787, lan: () => null })).toBeNull();
    expect(lanUrl({ host: '192.168.1.20', port: 9 })).toBe('http://192.168.1.20:9');
  });
});
