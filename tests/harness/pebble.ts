// pebble.ts (harness): Let's Encrypt's test ACME CA (Debian's `pebble`) on 127.0.0.1, with real
// challenge validation: `pebble-challtestsrv` is its DNS server and answers every A query with
// 127.0.0.1, so pebble's validator dials the name's ports on this machine (the reverse proxy's
// `httpPort` / `tlsPort`) exactly as Let's Encrypt dials a server on the internet. No
// PEBBLE_VA_ALWAYS_VALID: a certificate is issued only when the proxy answers the challenge.
//
//   caddy ─ACME (https, listener cert made here)─► pebble :dir ─DNS─► challtestsrv (A → 127.0.0.1)
//                                                   pebble VA ─tls-alpn-01 / http-01─► 127.0.0.1:<tlsPort|httpPort>
//   test ─GET https://127.0.0.1:<mgmt>/roots/0─► the issuing root (fresh per run): what a browser trusts
//
// Invariant: stop() ends both processes and removes the temp dir. A missing binary fails with one
// line naming the Debian package (never a skip).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './balancer.ts';
import { endChild, portOpen } from './processes.ts';

export const PEBBLE_BIN = process.env.TETHER_PEBBLE ?? '/usr/bin/pebble';
export const CHALLTESTSRV_BIN = process.env.TETHER_CHALLTESTSRV ?? '/usr/bin/pebble-challtestsrv';
export const OPENSSL_BIN = process.env.TETHER_OPENSSL ?? '/usr/bin/openssl';
export type PebbleHandle = {
  /** The ACME directory URL (Caddy's `acme_ca`). */
  directoryUrl: string;
  /** PEM file of the CA of pebble's own HTTPS listener (Caddy's `acme_ca_root`). */
  listenerCaPath: string;
  /** PEM file of the root that issues certificates (what a phone's browser must trust). */
  rootPath: string;
  rootPem: string;
  /** What pebble and challtestsrv printed (for a failure message). */
  log(): string;
  stop(): Promise<void>;
};

export function requireBinary(path: string, pkg: string): void {
  if (!existsSync(path)) throw new Error(`${path} is missing: install the Debian package ${pkg} (apt-get install -y ${pkg}); .ci/run does it`);
}

/** A self-signed certificate for 127.0.0.1, for pebble's ACME listener (the package ships none). */
/** Both start in well under a second; longer means stuck. */
const START_TIMEOUT_MS = 10_000;

function listenerCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'listener.pem');
  const key = join(dir, 'listener-key.pem');
  const made = spawnSync(
    OPENSSL_BIN,
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=pebble listener (tether tests)', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert],
    { encoding: 'utf8', timeout: START_TIMEOUT_MS },
  );
  if (made.status !== 0) throw new Error(`openssl could not make pebble's listener certificate: ${made.stderr}`);
  return { cert, key };
}

type Spawned = { child: ChildProcess; exited: Promise<void>; output: () => string };

function spawnLogged(bin: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, output: () => output };
}

const endProcess = (spawned: Spawned) => endChild(spawned.child, spawned.exited);

async function waitForPort(port: number, spawned: Spawned, what: string): Promise<void> {
  const started = Date.now();
  while (!(await portOpen(port))) {
    if (spawned.child.exitCode !== null) throw new Error(`${what} exited (${spawned.child.exitCode}) at start:\n${spawned.output()}`);
    if (Date.now() - started > START_TIMEOUT_MS) throw new Error(`${what} did not listen on ${port} within ${START_TIMEOUT_MS} ms:\n${spawned.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts challtestsrv (DNS only) and pebble; `validation` are the ports pebble's validator dials. */
export async function startPebble(options: { validation: { httpPort: number; tlsPort: number } }): Promise<PebbleHandle> {
  requireBinary(PEBBLE_BIN, 'pebble');
  requireBinary(CHALLTESTSRV_BIN, 'pebble');
  requireBinary(OPENSSL_BIN, 'openssl');
  const dir = mkdtempSync(join(tmpdir(), 'tether-pebble-'));
  const running: Spawned[] = [];
  const stop = async () => {
    for (const spawned of running.reverse()) await endProcess(spawned);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { cert, key } = listenerCertificate(dir);
    const [acmePort, mgmtPort, dnsPort, dnsMgmtPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    // Only the DNS server: the validator must reach the proxy itself, not a challenge stand-in.
    const dns = spawnLogged(
      CHALLTESTSRV_BIN,
      ['-dns01', `127.0.0.1:${dnsPort}`, '-http01', '', '-https01', '', '-tlsalpn01', '', '-management', `127.0.0.1:${dnsMgmtPort}`, '-defaultIPv4', '127.0.0.1', '-defaultIPv6', ''],
      process.env,
    );
    running.push(dns);
    await waitForPort(dnsPort, dns, 'pebble-challtestsrv');
    const config = join(dir, 'pebble.json');
    writeFileSync(
      config,
      JSON.stringify({
        pebble: {
          listenAddress: `127.0.0.1:${acmePort}`,
          managementListenAddress: `127.0.0.1:${mgmtPort}`,
          certificate: cert,
          privateKey: key,
          httpPort: options.validation.httpPort,
          tlsPort: options.validation.tlsPort,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
        },
      }),
    );
    // NOSLEEP: no random 0-15 s wait before each validation. NONCEREJECT=0: no deliberate badNonce
    // (clients retry it, but a test should not depend on that for its timing).
    const pebble = spawnLogged(PEBBLE_BIN, ['-config', config, '-dnsserver', `127.0.0.1:${dnsPort}`], { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' });
    running.push(pebble);
    await waitForPort(mgmtPort, pebble, 'pebble');
    await waitForPort(acmePort, pebble, 'pebble');
    const rootPem = await fetchRoot({ mgmtPort, listenerCa: readFileSync(cert, 'utf8') });
    const rootPath = join(dir, 'issuing-root.pem');
    writeFileSync(rootPath, rootPem);
    return {
      directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
      listenerCaPath: cert,
      rootPath,
      rootPem,
      log: () => `${pebble.output()}\n${dns.output()}`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** GET /roots/0 over pebble's management listener, verified against the listener certificate. */
async function fetchRoot(options: { mgmtPort: number; listenerCa: string }): Promise<string> {
  const res = await fetch(`https://127.0.0.1:${options.mgmtPort}/roots/0`, { tls: { ca: options.listenerCa } } as RequestInit);
  const pem = await res.text();
  if (res.status !== 200 || !pem.includes('BEGIN CERTIFICATE')) throw new Error(`pebble /roots/0 answered ${res.status}: ${pem.slice(0, 200)}`);
  return pem;
}
