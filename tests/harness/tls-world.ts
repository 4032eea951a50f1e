// tls-world.ts (harness): a hub reached the way a phone reaches a deployed one: over real HTTPS,
// through Caddy, with a certificate an ACME CA (pebble) issued after validating the name.
//
//   pebble + challtestsrv ◄─ACME─ caddy https://tether.test:<https> ─http─► `tether hub` 127.0.0.1:<port>
//   chromium (HOME with an NSS db trusting pebble's root; MAP tether.test → 127.0.0.1) ─► caddy
//
// The name: `tether.test` (RFC 2606, never on the internet) resolves nowhere by default, so
// Chromium gets --host-resolver-rules, and the hub (whose TLS gate fetches its public URL the way
// any client would) runs under `unshare -rm` with its own /etc/hosts bind-mounted: the same network
// as everything else, a private mount namespace, and Bun's resolver reads that file. A
// `*.localhost` name would resolve already, but Chromium treats it as a secure context even over
// plain http, so the test could no longer tell HTTPS from its absence.
// Trust: NODE_EXTRA_CA_CERTS (pebble's root) for the hub; an NSS db in a temp HOME for Chromium.
// Never --ignore-certificate-errors.
//
// Invariant: stop() ends Chromium, the hub, Caddy and pebble (in that order) and removes every
// temp dir. Any missing binary fails the start with one line naming its Debian package.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './balancer.ts';
import { launchBrowser, type BrowserHandle } from './browser.ts';
import { startCaddy, type CaddyHandle } from './caddy.ts';
import { TETHER_MAIN } from './desk.ts';
import { startHubProcess, type HubProcessHandle } from './hub.ts';
import { requireBinary, startPebble, type PebbleHandle } from './pebble.ts';

export const TLS_NAME = 'tether.test';
export const CERTUTIL_BIN = process.env.TETHER_CERTUTIL ?? '/usr/bin/certutil';
export const UNSHARE_BIN = process.env.TETHER_UNSHARE ?? '/usr/bin/unshare';

export type TlsWorld = {
  /** https://tether.test:<port>: what the phone opens. */
  publicUrl: string;
  /** The hub itself, http on 127.0.0.1 (for the test's runner socket). */
  hub: HubProcessHandle;
  caddy: CaddyHandle;
  pebble: PebbleHandle;
  /** Chromium trusting pebble's root, with tether.test mapped to 127.0.0.1. */
  browser: BrowserHandle;
  /** Milliseconds from pebble's spawn until Caddy served a verified certificate. */
  certificateMs: number;
  /** Another `tether hub` (own temp home, any free port) that resolves tether.test the same way;
   *  `trustRoot: false` leaves pebble's root out of NODE_EXTRA_CA_CERTS. Stopped by stop(). */
  startHub(options: { args: string[]; trustRoot: boolean }): Promise<HubProcessHandle>;
  stop(): Promise<void>;
};

/** A temp HOME whose NSS database trusts `rootPath` as a CA for servers (C,,). */
export function nssHome(options: { dir: string; rootPath: string }): string {
  const home = join(options.dir, 'chromium-home');
  const db = join(home, '.pki', 'nssdb');
  mkdirSync(db, { recursive: true });
  for (const args of [
    ['-d', `sql:${db}`, '-N', '--empty-password'],
    ['-d', `sql:${db}`, '-A', '-t', 'C,,', '-n', 'pebble test root', '-i', options.rootPath],
  ]) {
    const run = spawnSync(CERTUTIL_BIN, args, { encoding: 'utf8', timeout: 10_000 });
    if (run.status !== 0) throw new Error(`certutil ${args.join(' ')} failed: ${run.stderr || run.stdout}`);
  }
  return home;
}

/** The hub's command line: `tether hub` under unshare with an /etc/hosts that names tether.test. */
function hubCommand(hostsPath: string): string[] {
  const bun = process.execPath.endsWith('bun') ? process.execPath : 'bun';
  return [UNSHARE_BIN, '-rm', 'sh', '-c', 'mount --bind "$0" /etc/hosts && exec "$@"', hostsPath, bun, TETHER_MAIN];
}

/** A world's own temp dir and the stops of what it starts: `stop` runs them last first, each even
 *  when one before it failed, and removes the dir last. */
export function worldScope(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const stops: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const fn of stops.splice(0).reverse()) await fn().catch(() => {});
  };
  return { dir, stops, stop };
}

export async function startTlsWorld(options: { hubArgs?: (world: { publicUrl: string }) => string[] } = {}): Promise<TlsWorld> {
  requireBinary(CERTUTIL_BIN, 'libnss3-tools');
  requireBinary(UNSHARE_BIN, 'util-linux');
  const { dir, stops, stop } = worldScope('tether-tls-world-');
  try {
    const [httpPort, httpsPort, hubPort] = [await freePort(), await freePort(), await freePort()];
    const started = Date.now();
    const pebble = await startPebble({ validation: { httpPort, tlsPort: httpsPort } });
    stops.push(() => pebble.stop());
    const caddy = await startCaddy({
      name: TLS_NAME,
      upstream: `http://127.0.0.1:${hubPort}`,
      httpPort,
      httpsPort,
      acme: { directoryUrl: pebble.directoryUrl, listenerCaPath: pebble.listenerCaPath },
      rootPem: pebble.rootPem,
    });
    const certificateMs = Date.now() - started;
    stops.push(() => caddy.stop());
    const publicUrl = caddy.url;

    const hostsPath = join(dir, 'hosts');
    writeFileSync(hostsPath, `127.0.0.1 localhost\n::1 localhost\n127.0.0.1 ${TLS_NAME}\n`);
    const hubHome = join(dir, 'hub-home');
    mkdirSync(hubHome);
    const startHub = async (o: { home: string; port: number; args: string[]; trustRoot: boolean }) => {
      const started = await startHubProcess({ home: o.home, port: o.port, command: hubCommand(hostsPath), env: o.trustRoot ? { NODE_EXTRA_CA_CERTS: pebble.rootPath } : {}, args: o.args });
      stops.push(() => started.stop());
      return started;
    };
    const hub = await startHub({ home: hubHome, port: hubPort, args: options.hubArgs?.({ publicUrl }) ?? [], trustRoot: true });

    const browser = await launchBrowser({ home: nssHome({ dir, rootPath: pebble.rootPath }), args: [`--host-resolver-rules=MAP ${TLS_NAME} 127.0.0.1`] });
    stops.push(() => browser.stop());
    let others = 0;
    const another = async (o: { args: string[]; trustRoot: boolean }) => {
      const home = join(dir, `hub-home-${++others}`);
      mkdirSync(home);
      return startHub({ home, port: 0, ...o });
    };
    return { publicUrl, hub, caddy, pebble, browser, certificateMs, startHub: another, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
