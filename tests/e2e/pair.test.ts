// pair.test.ts: `tether pair` end to end: a real `tether hub` process and the real `tether` CLI. The
// code it prints signs a phone in once and never twice; `--json` has its one shape; `--namespace` on
// the hub's machine writes the store directly and uses the phone URL the hub recorded; no loopback
// URL is ever printed for a phone.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoginResponseSchema } from '@tether/shared';
import { useCleanups } from '../harness/cleanups.ts';
import { makeTempHome, startHubProcess, type HubProcessHandle } from '../harness/hub.ts';
import { runTether } from '../harness/tether-cli.ts';

const defer = useCleanups();
const LOOPBACK = /127\.\d+\.\d+\.\d+|localhost|\[::1\]/;

async function hubProcess(): Promise<HubProcessHandle & { token: string }> {
  const home = makeTempHome('tether-pair-');
  const hub = await startHubProcess({ home });
  defer(async () => {
    await hub.stop();
    rmSync(home, { recursive: true, force: true });
  });
  if (!hub.token) throw new Error(`the first start printed no token:\n${hub.output()}`);
  return { ...hub, token: hub.token };
}

/** A phone redeeming a code, as the web app does. */
const redeem = (hub: HubProcessHandle, code: string) =>
  fetch(`${hub.url}/api/auth/pair`, { method: 'POST', body: JSON.stringify({ code }), headers: { 'user-agent': 'Mozilla/5.0 (iPhone) Safari/604.1' } });

describe('tether pair', () => {
  it('logged in: --json gives {namespace, code, expiresAt, url}; the code signs a phone in once, not twice', async () => {
    const hub = await hubProcess();
    // The hub bound to loopback: its start offered no link (and never the token in one).
    expect(hub.output()).not.toContain('#token=');
    const elsewhere = makeTempHome('tether-pair-user-');
    defer(() => rmSync(elsewhere, { recursive: true, force: true }));
    const env = { TETHER_HOME: elsewhere, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };

    const json = await runTether({ args: ['pair', '--json'], env });
    expect(json.code, json.stderr).toBe(0);
    const made = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(made).sort()).toEqual(['code', 'expiresAt', 'namespace', 'url']);
    expect(made).toMatchObject({ namespace: 'default', url: null, code: expect.stringMatching(/^tpc_[A-Za-z0-9_-]{32}$/) });
    expect(made.expiresAt as number).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(made.expiresAt as number).toBeLessThanOrEqual(Date.now() + 10 * 60_000);

    const first = await redeem(hub, made.code as string);
    expect(first.status).toBe(200);
    expect(LoginResponseSchema.parse(await first.json()).namespace).toBe('default');
    const second = await redeem(hub, made.code as string);
    expect(second.status).toBe(410);
    expect(await second.json()).toMatchObject({ code: 'gone' });

    // Plain output without a phone URL: the code, why there is no link, and no loopback URL.
    const text = await runTether({ args: ['pair'], env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^pairing code for namespace "default" \(one use, until \d\d:\d\d \(10 minutes from now\)\):\n\n {2}tpc_[A-Za-z0-9_-]{32}\n/);
    expect(text.stdout).toContain('no URL a phone can open is configured');
    expect(text.stdout).not.toMatch(LOOPBACK);
    expect(text.stdout).not.toContain('#pair=');

    // The phone shows in the token list as a device of its own.
    const list = await runTether({ args: ['token', 'list', '--json'], env: { TETHER_HOME: hub.home } });
    const labels = (JSON.parse(list.stdout) as { tokens: { label: string; namespace: string }[] }).tokens.filter((t) => t.label.startsWith('paired device'));
    expect(labels).toEqual([expect.objectContaining({ namespace: 'default', label: expect.stringMatching(/^paired device \d{4}-\d{2}-\d{2} iPhone Safari$/) })]);
  }, 60_000);

  it('--namespace on the hub machine: straight into the store, the link in the hub\'s recorded https URL with a QR, never a loopback one', async () => {
    const hub = await hubProcess();
    const env = { TETHER_HOME: hub.home, TETHER_HUB_URL: '', TETHER_TOKEN: '' };

    const bare = await runTether({ args: ['pair', '--namespace', 'team'], env });
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toContain('no URL a phone can open is configured');
    expect(bare.stdout).not.toMatch(LOOPBACK);

    // What `tether hub --public-url` records; a loopback one is never shown.
    writeFileSync(join(hub.home, 'phone-url'), 'https://127.0.0.1:8443\n');
    const loopback = await runTether({ args: ['pair', '--namespace', 'team'], env });
    expect(loopback.stdout).not.toMatch(LOOPBACK);
    expect(loopback.stdout).toContain('no URL a phone can open is configured');

    writeFileSync(join(hub.home, 'phone-url'), 'https://tether.example.test\n');
    const linked = await runTether({ args: ['pair', '--namespace', 'team'], env });
    expect(linked.code, linked.stderr).toBe(0);
    const code = /open on your phone \(or scan\): https:\/\/tether\.example\.test\/#pair=(tpc_[A-Za-z0-9_-]{32})\n/.exec(linked.stdout)?.[1];
    expect(code, linked.stdout).toBeDefined();
    expect(linked.stdout).toContain('█');
    const json = JSON.parse((await runTether({ args: ['pair', '--namespace', 'team', '--json'], env })).stdout) as { url: string; code: string; namespace: string };
    expect(json).toMatchObject({ namespace: 'team', url: `https://tether.example.test/#pair=${json.code}` });

    const login = await redeem(hub, code!);
    expect(login.status).toBe(200);
    expect(LoginResponseSchema.parse(await login.json()).namespace).toBe('team');
    expect((await redeem(hub, code!)).status).toBe(410);

    const bad = await runTether({ args: ['pair', '--namespace', 'Not OK'], env });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringContaining('bad namespace "Not OK"')]);
    const anonymous = await runTether({ args: ['pair'], env });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain('not logged in');
  }, 60_000);
});
