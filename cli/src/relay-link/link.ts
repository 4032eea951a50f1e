// link.ts: `tether hub --relay <join code>`, the hub's side of a relay. Before the hub starts it
// reads the join code (the hub's public URL is the relay name's); after it listens it opens the
// front (front.ts), keeps the ssh tunnel up (tunnel.ts), and gets the name's certificate
// (certificate.ts) through that tunnel. The TLS gate (reach/) then checks the URL as a phone would.
// The tunnel's state goes to the hub's output and to TETHER_HOME/relay/status.json (`tether doctor`).
//
//   prepareRelay ─► { join, peers } ─► createHub({ publicUrl: join.origin, peerAddress })
//   openRelay ─► front ─► ssh -R … up? ─► certificate (ACME via the relay) ─► { lines, close }
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJoin, type Join } from '../relay/join-code.ts';
import { ensureCertificate, keepRenewed, LETS_ENCRYPT } from './certificate.ts';
import { startFront } from './front.ts';
import { createPeers, type Peers } from './peers.ts';
import { keepTunnel, type TunnelState } from './tunnel.ts';

export const RELAY_DIR = 'relay';
export const STATUS_FILE = 'status.json';
/** How long start waits for the first tunnel before it goes on without a QR (the tunnel keeps trying). */
const FIRST_UP_MS = 30_000;

type FirstTry = { up: true } | { up: false; why: string };

export type PreparedRelay = { join: Join; peers: Peers };

export type RelayStatus = { name: string; origin: string; pid: number; state: TunnelState; updatedAt: number };

export function prepareRelay(code: string): PreparedRelay {
  return { join: decodeJoin(code), peers: createPeers() };
}

/** The line the hub prints when the tunnel changes. */
export function describeTunnel(state: TunnelState, origin: string): string {
  switch (state.kind) {
    case 'connecting':
      return state.attempt === 1 ? `relay: connecting to the relay for ${origin}` : `relay: reconnecting (attempt ${state.attempt})`;
    case 'up':
      return `relay: tunnel up, ${origin} reaches this hub`;
    case 'down':
      return `relay: tunnel down: ${state.reason}; retrying in ${Math.round(state.retryInMs / 1000)} s`;
  }
}

export async function openRelay(options: {
  prepared: PreparedRelay;
  home: string;
  /** checkTarget: the hub's Host allowlist for a raw request-target (Hub.checkTarget). */
  hub: { host: string; port: number; checkTarget: (target: string) => Response | null };
  directoryUrl?: string;
  log: (line: string) => void;
}): Promise<{ lines: string[]; close(): Promise<void> }> {
  const { join: code, peers } = options.prepared;
  const dir = join(options.home, RELAY_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const statusPath = join(dir, STATUS_FILE);
  const lines: string[] = [];
  const front = await startFront({ hub: { host: options.hub.host === '0.0.0.0' ? '127.0.0.1' : options.hub.host, port: options.hub.port, checkTarget: options.hub.checkTarget }, peers, name: code.name, hop: code.hop, log: options.log });
  let started = false;
  let stopRenewal: () => void = () => {};
  let pendingCertificate = false;
  const certificateOptions = { name: code.name, dir, directoryUrl: options.directoryUrl ?? LETS_ENCRYPT, challenge: front.setChallenge };
  /** Gets (or loads) the certificate, puts it in the front, keeps it renewed; the line to print. */
  const obtainCertificate = async (): Promise<string> => {
    try {
      const issued = await ensureCertificate(certificateOptions);
      front.setCertificate(issued);
      stopRenewal = keepRenewed({ ...certificateOptions, current: issued, use: (next) => front.setCertificate(next), log: options.log });
      return `relay: certificate for ${code.name} valid until ${issued.notAfter.toISOString()} (sha256 ${issued.fingerprint}); renewed 30 days before`;
    } catch (error) {
      return `relay: no certificate for ${code.name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  };
  let firstTry: (result: FirstTry) => void = () => {};
  const tried = new Promise<FirstTry>((resolve) => (firstTry = resolve));
  const tunnel = keepTunnel({
    join: code,
    dir,
    frontPort: front.port,
    onState: (state) => {
      const status: RelayStatus = { name: code.name, origin: code.origin, pid: process.pid, state, updatedAt: Date.now() };
      writeFileSync(statusPath, JSON.stringify(status), { mode: 0o600 });
      // During start the lines go out with the others; afterwards, as they happen.
      const line = describeTunnel(state, code.origin);
      if (started) options.log(line);
      else if (state.kind !== 'connecting' || state.attempt === 1) lines.push(line);
      if (state.kind === 'up') firstTry({ up: true });
      if (state.kind === 'up' && pendingCertificate) {
        pendingCertificate = false;
        void obtainCertificate().then(options.log);
      }
      // A first attempt that failed is said at once (a refused key does not fix itself); the
      // tunnel keeps retrying with back-off and says when it is up.
      if (state.kind === 'down') firstTry({ up: false, why: state.reason });
    },
  });
  const close = async () => {
    stopRenewal();
    await tunnel.close();
    await front.close();
    rmSync(statusPath, { force: true });
  };
  // A cleared timer, not Bun.sleep: a pending sleep would keep a stopping hub alive until it ends.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<FirstTry>((resolve) => (timer = setTimeout(() => resolve({ up: false, why: `no tunnel after ${FIRST_UP_MS / 1000} s` }), FIRST_UP_MS)));
  const first = await Promise.race([tried, timeout]);
  clearTimeout(timer);
  if (!first.up) {
    started = true;
    lines.push(`relay: not reachable through the relay yet (${first.why}); the tunnel keeps trying (tether doctor shows its state), and the certificate is fetched once it is up. No QR from this start: tether pair makes one later`);
    pendingCertificate = true;
    return { lines, close };
  }
  lines.push(await obtainCertificate());
  started = true;
  return { lines, close };
}
