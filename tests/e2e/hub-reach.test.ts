// hub-reach.test.ts: the real `tether hub` process and how a phone reaches it. --public-url behind a
// real HTTPS proxy with a throwaway CA (trusted through NODE_EXTRA_CA_CERTS, or not); --tailscale with
// the stand-in CLI first on PATH (tests/fixtures/tailscale) in each state: missing, logged out,
// stopped, HTTPS off, serve refused, 443 already the user's, and up. For "up" the whole path runs in a
// network namespace (`unshare -rmn`): the stand-in's `serve` starts an HTTPS proxy on 127.0.0.1:443
// for the tailnet name, which a bind-mounted /etc/hosts maps to 127.0.0.1, with a certificate the
// hub trusts through NODE_EXTRA_CA_CERTS; the hub's own TLS gate then fetches https://<name>/ for
// real, and stop must undo exactly what tether set. Also: loopback only, the LAN (a veth in a
// namespace), an unresolvable name, --allowed-host. No DNS query leaves the machine.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useCleanups, type Defer } from '../harness/cleanups.ts';
import { freePort } from '../harness/balancer.ts';
import { makeTestCa, startTlsProxy } from '../harness/test-ca.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI_MAIN = join(ROOT, 'cli', 'src', 'main.ts');
const STAND_IN = join(ROOT, 'tests', 'fixtures', 'tailscale');
const NAME = 'box.tail1234.ts.net';
/** --public-url's name: the hub's /etc/hosts maps it to 127.0.0.1 (the TLS proxy). */
const PUBLIC_NAME = 'tether.example.test';
const defer = useCleanups();
/** A PATH with what the hub and the namespace set-up run, and no tailscale whatever this machine has
 *  installed: links to bun, sh, ip, mount. */
const TOOLS = mkdtempSync(join(tmpdir(), 'tether-reach-path-'));
for (const [name, path] of [['bun', process.execPath], ...['sh', 'ip', 'mount'].map((tool) => [tool, Bun.which(tool, { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' })!])]) {
  symlinkSync(path!, join(TOOLS, name!));
}
afterAll(() => rmSync(TOOLS, { recursive: true, force: true }));
const BASE_PATH = TOOLS;

type HubRun = { out(): string; err(): string; exited: Promise<number>; until(pattern: RegExp, timeoutMs?: number): Promise<string>; stop(): Promise<number> };

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A LAN inside the namespace: a veth pair, this side 192.0.2.10 (TEST-NET-1, reachable by nobody). */
const NETNS_LAN = 'ip link add v0 type veth peer name v1 && ip addr add 192.0.2.10/24 dev v0 && ip link set v0 up && ip link set v1 up && ';

/** `tether hub <args>` with TETHER_HOME=home; in a network namespace with `hosts` as /etc/hosts when
 *  given (and a LAN with `lan`). */

function runHub(d: Defer, o: { home: string; args: string[]; env?: Record<string, string>; hosts?: string; lan?: boolean; ownNetwork?: boolean }): HubRun {
  const hub = [process.execPath, CLI_MAIN, 'hub', ...o.args];
  // ownNetwork false: only /etc/hosts is the hub's own (a mount namespace), so it still reaches a
  // proxy this test runs on the machine's loopback.
  const ownNetwork = o.ownNetwork ?? true;
  const setup = `${ownNetwork ? 'ip link set lo up && ' : ''}${o.lan ? NETNS_LAN : ''}mount --bind "$1" /etc/hosts && shift && exec "$@"`;
  const command = o.hosts ? [Bun.which('unshare')!, ownNetwork ? '-rmn' : '-rm', 'sh', '-c', setup, 'sh', o.hosts, ...hub] : hub;
  const env: Record<string, string | undefined> = { ...process.env, PATH: BASE_PATH, TAILSCALE_FAKE_BUN: process.execPath, ...o.env, TETHER_HOME: o.home, NO_COLOR: '1' };
  for (const name of ['NODE_EXTRA_CA_CERTS', 'TETHER_ALLOWED_HOSTS']) if (!o.env?.[name]) delete env[name];
  const proc = Bun.spawn(command, { env, stdout: 'pipe', stderr: 'pipe' });
  let out = '';
  let err = '';
  const pump = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  void pump(proc.stdout, (t) => (out += t));
  void pump(proc.stderr, (t) => (err += t));
  const exited = proc.exited;
  d(async () => {
    proc.kill('SIGKILL');
    await exited;
  });
  return {
    out: () => out,
    err: () => err,
    exited,
    async until(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out) && proc.exitCode === null && Date.now() < deadline) await Bun.sleep(50);
      await Bun.sleep(20);
      return out;
    },
    async stop() {
      proc.kill('SIGTERM');
      return exited;
    },
  };
}

/** The stand-in's state file and call log. */
function standIn(state: Record<string, unknown>) {
  const dir = tempDir('tether-tailscale-');
  const statePath = join(dir, 'state.json');
  const logPath = join(dir, 'calls.log');
  writeFileSync(statePath, JSON.stringify({ name: NAME, serve: null, ...state }));
  writeFileSync(logPath, '');
  return {
    env: { PATH: `${STAND_IN}:${BASE_PATH}`, TAILSCALE_FAKE_STATE: statePath, TAILSCALE_FAKE_LOG: logPath },
    state: () => JSON.parse(readFileSync(statePath, 'utf8')) as Record<string, unknown> & { serve: unknown; proxyPid?: number },
    calls: () => readFileSync(logPath, 'utf8').trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as string[]).join(' ')),
  };
}

async function refusedAtStart(run: HubRun): Promise<{ code: number; err: string }> {
  const code = await run.exited;
  await Bun.sleep(20);
  return { code, err: run.err() };
}

describe('tether hub without a way in for a phone', () => {
  it('loopback only: says so, the one flag that fixes it, and no QR with a loopback URL', async () => {
    const run = runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0'] });
    const out = await run.until(/tether hub ready/);
    expect(out.split('\n')[0]).toMatch(/^tether hub listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).toContain('phone: none: this hub answers on this machine only (127.0.0.1), so no phone reaches it. Fix: --public-url https://NAME');
    expect(out).toMatch(/open on this machine: http:\/\/127\.0\.0\.1:\d+\/#pair=tpc_/);
    expect(out).not.toContain('#token=');
    expect(out).not.toContain('open on your phone');
    expect(await run.stop()).toBe(0);
  });

  it('bound to every interface (in a network namespace with a LAN): the LAN URL over http, what that loses, the fix', async () => {
    const hosts = join(tempDir('tether-hosts-'), 'hosts');
    writeFileSync(hosts, '127.0.0.1 localhost\n');
    const run = runHub(defer, { home: tempDir('tether-reach-'), hosts, lan: true, args: ['--port', '8787', '--host', '0.0.0.0'] });
    const out = await run.until(/tether hub ready/);
    expect(out.split('\n')[0]).toBe('tether hub listening on http://127.0.0.1:8787');
    expect(out).toContain('phone: http://192.0.2.10:8787 on your network only, over plain http: no notifications, no install as an app, and anyone on the Wi-Fi sees the token and every chat. Fix: --public-url https://NAME');
    expect(out).toContain('open on your phone (or scan): http://192.0.2.10:8787/#pair=tpc_');
    expect(run.err()).toContain('--host 0.0.0.0 exposes the hub on the network without TLS');
    expect(await run.stop()).toBe(0);
  });
});

describe('tether hub --allowed-host', () => {
  /** One raw request with this Host; the status code. */
  async function statusFor(port: number, host: string): Promise<number> {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { host } });
    return res.status;
  }

  it.each([
    ['the flag', ['--allowed-host', 'box.lan,Other.Lan'], {}],
    ['TETHER_ALLOWED_HOSTS', [], { TETHER_ALLOWED_HOSTS: 'box.lan, other.lan' }],
  ])('from %s: those names are served, any other gets 421 and is named once in the log', async (_from, args, env) => {
    const run = runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0', ...args], env });
    const out = await run.until(/tether hub ready/);
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
    expect(await statusFor(port, `box.lan:${port}`)).toBe(200);
    expect(await statusFor(port, 'other.lan')).toBe(200);
    expect(await statusFor(port, `evil.example:${port}`)).toBe(421);
    expect(await statusFor(port, `evil.example:${port}`)).toBe(421);
    await run.stop();
    expect(run.err().match(/refused a request for the host name "evil\.example"/g)).toHaveLength(1);
    expect(run.err()).toContain('tether hub --allowed-host evil.example');
  });

  it('refuses a value that is not a host name', async () => {
    const { code, err } = await refusedAtStart(runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0', '--allowed-host', 'https://box.lan'] }));
    expect(code).toBe(1);
    expect(err.trim()).toBe('tether: --allowed-host: not a host name: "https://box.lan" (a name like box.local or an address, no scheme or port)');
  });
});

describe('tether hub --public-url', () => {
  async function behindProxy(o: { trust: boolean }) {
    const ca = makeTestCa(defer);
    const leaf = ca.issue([PUBLIC_NAME]);
    const port = await freePort();
    const proxy = startTlsProxy(defer, { cert: leaf.cert, key: leaf.key, upstream: `http://127.0.0.1:${port}` });
    const home = tempDir('tether-reach-');
    const url = `https://${PUBLIC_NAME}:${proxy.port}`;
    // The public name is this machine's loopback only in the hub's own /etc/hosts.
    const hosts = join(tempDir('tether-hosts-'), 'hosts');
    writeFileSync(hosts, `127.0.0.1 localhost\n127.0.0.1 ${PUBLIC_NAME}\n`);
    const run = runHub(defer, { home, hosts, ownNetwork: false, args: ['--port', String(port), '--public-url', url], env: o.trust ? { NODE_EXTRA_CA_CERTS: ca.caPath } : {} });
    return { run, url, home, ca, proxyPort: proxy.port, out: await run.until(/tether hub ready/) };
  }

  it('a trusted proxy that reaches this hub: checked, the QR shows it, phone-url written and removed on stop', async () => {
    const { run, url, home, ca, proxyPort, out } = await behindProxy({ trust: true });
    expect(out.split('\n')[0]).toMatch(/^tether hub listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).toContain(`checked ${url}: certificate trusted, answered by this hub`);
    expect(out).toContain(`phone: ${url}`);
    expect(out).toContain(`open on your phone (or scan): ${url}/#pair=tpc_`);
    expect(readFileSync(join(home, 'phone-url'), 'utf8')).toBe(`${url}\n`);
    // The proxy passes Host through: the public name is on the hub's allowlist.
    const viaProxy = (host: string) => fetch(`https://127.0.0.1:${proxyPort}/healthz`, { headers: { host }, tls: { ca: ca.caPem, checkServerIdentity: () => undefined } } as RequestInit);
    expect((await viaProxy(`${PUBLIC_NAME}:${proxyPort}`)).status).toBe(200);
    expect((await viaProxy(`evil.example:${proxyPort}`)).status).toBe(421);
    expect(await run.stop()).toBe(0);
    expect(existsSync(join(home, 'phone-url'))).toBe(false);
  });

  it('an untrusted certificate: said with the reason and the fix, no QR, no phone-url', async () => {
    const { run, url, home, out } = await behindProxy({ trust: false });
    expect(out).toContain(`checked ${url}: certificate not trusted (`);
    expect(out).toContain('give the proxy a certificate from a public CA');
    expect(out).toContain('phone: no QR (the https URL did not pass the check above)');
    expect(out).not.toContain('open on your phone');
    expect(existsSync(join(home, 'phone-url'))).toBe(false);
    expect(await run.stop()).toBe(0);
  });

  it('a name that does not resolve (in a network namespace: no DNS leaves the machine): said after the gate\'s retries', async () => {
    const hosts = join(tempDir('tether-hosts-'), 'hosts');
    writeFileSync(hosts, '127.0.0.1 localhost\n');
    const run = runHub(defer, { home: tempDir('tether-reach-'), hosts, args: ['--port', '8787', '--public-url', 'https://tether.nowhere.test'] });
    const out = await run.until(/tether hub ready/, 30_000);
    expect(out).toMatch(/checked https:\/\/tether\.nowhere\.test: the name tether\.nowhere\.test does not resolve \(.+\)\. Create its DNS record/);
    expect(out).toContain('phone: no QR');
    expect(await run.stop()).toBe(0);
  });

  it('refuses http for a public name, and a path', async () => {
    for (const value of ['http://tether.example.com', 'https://tether.example.com/hub']) {
      const { code, err } = await refusedAtStart(runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0', '--public-url', value] }));
      expect(code).toBe(1);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(/--public-url/);
    }
  });
});

describe('tether hub --tailscale, each state of Tailscale', () => {
  it('not installed: one line with the install link, exit 1, nothing started', async () => {
    const { code, err } = await refusedAtStart(runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0', '--tailscale'] }));
    expect(code).toBe(1);
    expect(err.trim()).toBe('tether: --tailscale: Tailscale is not installed (no tailscale command on PATH). Install it (https://tailscale.com/download), sign in with "tailscale up", then start tether hub --tailscale again');
  });

  it.each([
    ['NeedsLogin', 'Tailscale is logged out (BackendState NeedsLogin). Run "tailscale up"'],
    ['Stopped', 'Tailscale is stopped (BackendState Stopped). Run "tailscale up"'],
    ['HttpsOff', 'HTTPS certificates are off on your tailnet'],
    ['DaemonDown', "Tailscale's daemon does not answer (failed to connect to local tailscaled"],
  ])('%s: its own message and fix, exit 1, only status was read', async (state, message) => {
    const ts = standIn({ state });
    const { code, err } = await refusedAtStart(runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0', '--tailscale'], env: ts.env }));
    expect(code).toBe(1);
    expect(err).toContain(message);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(ts.calls()).toEqual(['status --json']);
  });

  it('serve refused for permissions: the operator fix, exit 1, nothing set, nothing undone', async () => {
    const ts = standIn({ state: 'Running', denyServe: true });
    const { code, err } = await refusedAtStart(runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0', '--tailscale'], env: ts.env }));
    expect(code).toBe(1);
    expect(err).toContain('On Linux allow your user once with "sudo tailscale set --operator=$USER"');
    expect(ts.calls()).toEqual(['status --json', 'serve status --json', expect.stringMatching(/^serve --bg --https=443 http:\/\/127\.0\.0\.1:\d+$/)]);
    expect(ts.state().serve).toBeNull();
  });

  it('443 already serves something of the user\'s: left alone, exit 1', async () => {
    const own = { TCP: { '443': { HTTPS: true } }, Web: { [`${NAME}:443`]: { Handlers: { '/': { Proxy: 'http://127.0.0.1:3000' } } } } };
    const ts = standIn({ state: 'Running', serve: own });
    const { code, err } = await refusedAtStart(runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0', '--tailscale'], env: ts.env }));
    expect(code).toBe(1);
    expect(err).toContain('Tailscale already serves https on port 443 of this machine (proxy to http://127.0.0.1:3000), and tether did not set it, so it stays');
    expect(ts.calls()).toEqual(['status --json', 'serve status --json']);
    expect(ts.state().serve).toEqual(own);
  });

  it('up but not asked for: a plain tether hub says so and exposes nothing', async () => {
    const ts = standIn({ state: 'Running' });
    const run = runHub(defer, { home: tempDir('tether-reach-'), args: ['--port', '0'], env: ts.env });
    const out = await run.until(/tether hub ready/);
    expect(out).toContain(`tailscale: up on this machine as ${NAME}; tether hub --tailscale would serve the hub at https://${NAME} to your tailnet (nothing is exposed without the flag)`);
    expect(out).toContain('Fix: --tailscale');
    expect(await run.stop()).toBe(0);
    expect(ts.calls()).toEqual(['status --json']);
  });

  it.each([
    ['--tailscale', 'serve', `tailscale serve: https://${NAME} → http://127.0.0.1:8787, for the devices of your tailnet only. Undone when the hub stops`],
    ['--tailscale=funnel', 'funnel', `tailscale funnel: https://${NAME} → http://127.0.0.1:8787 on the PUBLIC INTERNET: anyone can open the hub's login page`],
  ])('%s, up: served, the gate fetches https://<name> for real, QR, and stop undoes exactly that', async (flag, mode, said) => {
    const ca = makeTestCa(defer);
    const leaf = ca.issue([NAME]);
    const ts = standIn({ state: 'Running', tls: { cert: leaf.certPath, key: leaf.keyPath } });
    const hosts = join(tempDir('tether-hosts-'), 'hosts');
    writeFileSync(hosts, `127.0.0.1 localhost\n::1 localhost\n127.0.0.1 ${NAME}\n`);
    const home = tempDir('tether-reach-');
    const run = runHub(defer, { home, hosts, args: ['--port', '8787', flag], env: { ...ts.env, NODE_EXTRA_CA_CERTS: ca.caPath } });
    const out = await run.until(/tether hub ready/);
    expect(out.split('\n')[0]).toBe('tether hub listening on http://127.0.0.1:8787');
    expect(out).toContain(said);
    expect(out).toContain(`checked https://${NAME}: certificate trusted, answered by this hub`);
    expect(out).toContain(`open on your phone (or scan): https://${NAME}/#pair=tpc_`);
    expect(readFileSync(join(home, 'phone-url'), 'utf8')).toBe(`https://${NAME}\n`);
    const proxyPid = ts.state().proxyPid;
    expect(proxyPid).toBeGreaterThan(0);
    expect(await run.stop()).toBe(0);
    expect(ts.calls()).toEqual([
      'status --json',
      'serve status --json',
      `${mode} --bg --https=443 http://127.0.0.1:8787`,
      'serve status --json',
      `${mode} --https=443 off`,
    ]);
    expect(ts.state().serve).toBeNull();
    expect(existsSync(join(home, 'phone-url'))).toBe(false);
    expect(existsSync(join(home, 'tailscale-serve.json'))).toBe(false);
  });
});
