// reach.test.ts: which URL the QR shows (--public-url, then the Tailscale name; never loopback), the
// phone-url file, and close() undoing what start set; gate and tailscale are fakes here (the real
// ones: tls-gate.test.ts, tests/e2e/hub-reach.test.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../../tests/harness/cleanups.ts';
import { PHONE_URL_FILE } from '../config/paths.ts';
import { openReach, prepareReach, type PreparedReach } from './reach.ts';
import type { Run } from './tailscale.ts';
import type { GateResult } from './tls-gate.ts';

const defer = useCleanups();
const NAME = 'box.tail1234.ts.net';
const RUNNING = JSON.stringify({ BackendState: 'Running', Self: { DNSName: `${NAME}.` }, CertDomains: [NAME], CurrentTailnet: { MagicDNSSuffix: 'tail1234.ts.net' } });

function fakeRun(): { run: Run; calls: string[] } {
  const calls: string[] = [];
  let serve: object | null = null;
  return {
    calls,
    run: async (args) => {
      calls.push(args.join(' '));
      if (args[0] === 'status') return { code: 0, stdout: RUNNING, stderr: '' };
      if (args.join(' ') === 'serve status --json') return { code: 0, stdout: JSON.stringify(serve), stderr: '' };
      serve = args.at(-1) === 'off' ? null : { TCP: { '443': { HTTPS: true } }, Web: { [`${NAME}:443`]: { Handlers: { '/': { Proxy: args.at(-1) } } } } };
      return { code: 0, stdout: '', stderr: '' };
    },
  };
}

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-reach-unit-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function open(prepared: PreparedReach, verdicts: Record<string, GateResult>, run = fakeRun().run, dir = home()) {
  const gated: string[] = [];
  const reach = await openReach({
    prepared,
    home: dir,
    hubUrl: 'http://127.0.0.1:8787',
    host: '127.0.0.1',
    port: 8787,
    run,
    gate: async (url) => {
      gated.push(url);
      return verdicts[url] ?? { kind: 'refused', reason: 'x' };
    },
  });
  return { reach, gated, dir };
}

describe('prepareReach', () => {
  it('--tailscale with Tailscale up: its name joins the allowlist and the origins', async () => {
    const prepared = await prepareReach({ publicUrl: null, tailscale: 'serve', allowedHosts: ['box.lan'], run: fakeRun().run, tailscaleInstalled: true });
    expect(prepared).toMatchObject({ tailscale: { mode: 'serve', name: NAME }, allowedHosts: ['box.lan', NAME], allowedOrigins: [`https://${NAME}`], tailscaleHint: null });
  });
  it('without the flag: only a hint, nothing allowed for it', async () => {
    const prepared = await prepareReach({ publicUrl: null, tailscale: null, allowedHosts: [], run: fakeRun().run, tailscaleInstalled: true });
    expect(prepared).toMatchObject({ tailscale: null, tailscaleHint: NAME, allowedHosts: [], allowedOrigins: [] });
  });
});

describe('openReach', () => {
  const both = { publicUrl: 'https://tether.example.com', tailscale: { mode: 'serve' as const, name: NAME }, tailscaleHint: null, allowedHosts: [NAME], allowedOrigins: [] };

  it('--public-url first: checked ok, it is the phone URL and the phone-url file; close removes the file and undoes serve', async () => {
    const ts = fakeRun();
    const { reach, gated, dir } = await open(both, { 'https://tether.example.com': { kind: 'ok' } }, ts.run);
    expect(reach.phoneUrl).toBe('https://tether.example.com');
    expect(gated).toEqual(['https://tether.example.com']);
    expect(readFileSync(join(dir, PHONE_URL_FILE), 'utf8')).toBe('https://tether.example.com\n');
    expect(await reach.close()).toEqual([]);
    expect(existsSync(join(dir, PHONE_URL_FILE))).toBe(false);
    expect(ts.calls.at(-1)).toBe('serve --https=443 off');
  });

  it('--public-url fails the gate: the Tailscale name is next', async () => {
    const { reach, gated } = await open(both, { [`https://${NAME}`]: { kind: 'ok' }, 'https://tether.example.com': { kind: 'untrusted', reason: 'self signed' } });
    expect(gated).toEqual(['https://tether.example.com', `https://${NAME}`]);
    expect(reach.phoneUrl).toBe(`https://${NAME}`);
    expect(reach.lines.some((l) => l.includes('certificate not trusted (self signed)'))).toBe(true);
    await reach.close();
  });

  it('every candidate fails: no phone URL (not even a LAN one), no file', async () => {
    const { reach, dir } = await open({ ...both, tailscale: null }, {});
    expect(reach.phoneUrl).toBeNull();
    expect(reach.lines.at(-1)).toContain('phone: no QR');
    expect(existsSync(join(dir, PHONE_URL_FILE))).toBe(false);
  });

  it('an http --public-url (loopback, development): served, never gated, never the phone URL', async () => {
    const { reach, gated } = await open({ publicUrl: 'http://localhost:5173', tailscale: null, tailscaleHint: null, allowedHosts: [], allowedOrigins: [] }, {});
    expect(gated).toEqual([]);
    expect(reach.phoneUrl).toBeNull();
    expect(reach.lines[0]).toBe('public URL http://localhost:5173: development only (this machine\'s loopback), not shown to a phone');
  });

  it('an https --public-url on loopback: never gated, never the phone URL (a phone would reach itself)', async () => {
    for (const publicUrl of ['https://localhost:8443', 'https://127.0.0.1:8443', 'https://[::1]:8443']) {
      const { reach, gated } = await open({ publicUrl, tailscale: null, tailscaleHint: null, allowedHosts: [], allowedOrigins: [] }, {});
      expect(gated).toEqual([]);
      expect(reach.phoneUrl).toBeNull();
      expect(reach.lines[0]).toBe(`public URL ${publicUrl}: development only (this machine's loopback), not shown to a phone`);
    }
  });

  it('nothing asked on loopback: no phone URL, never a loopback one', async () => {
    const { reach, gated } = await open({ publicUrl: null, tailscale: null, tailscaleHint: null, allowedHosts: [], allowedOrigins: [] }, {});
    expect(gated).toEqual([]);
    expect(reach.phoneUrl).toBeNull();
    expect(reach.lines).toEqual(['phone: none: this hub answers on this machine only (127.0.0.1), so no phone reaches it. Fix: --public-url https://NAME (an HTTPS proxy in front, docs/deploy.md)']);
  });
});
