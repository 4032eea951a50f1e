// relay-faults.test.ts: `tether relay` under bad input and outages, on the same real world as
// tests/browser/relay.test.ts (pebble, nginx stream + sshd on loopback, hubs in their own network
// namespaces). Each bad input is refused with a clear reason, and hub alpha keeps answering through
// the relay throughout; alpha at its connection cap leaves hub beta answering; alpha's tunnel comes
// back after a relay restart and after its network is gone for 30 s. Timings are printed (RELAY-FAULTS lines) for docs/decisions/relay.md.
// Several clients dial nginx from 127.0.0.9 and 127.0.0.20–29, so the whole file runs in a network
// namespace of its own (npm test starts it under unshare -n; harness/own-network.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJoin, encodeJoin } from '../../cli/src/relay/join-code.ts';
import { TETHER_MAIN } from '../harness/desk.ts';
import { relayGet, RELAY_DOMAIN, startRelayWorld, type RelayHubHandle, type RelayWorld } from '../harness/relay-world.ts';
import { requireOwnNetwork } from '../harness/own-network.ts';
import { until } from '../harness/waiting.ts';

const CAP = 40;
/** Connections per hub name (the relay's second hop). */
const HUB_CAP = 8;

/** Connections nginx's first hop holds open to a hub's second hop (127.0.0.1:<its cap port>): the
 *  ones its per-hub cap counts. */
function liveAtSecondHop(port: number): number {
  const ss = spawnSync('ss', ['-Htn', 'state', 'established', `( dst 127.0.0.1:${port} )`], { encoding: 'utf8' });
  return ss.stdout.split('\n').filter(Boolean).length;
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe('tether relay under bad input and outages', () => {
  let world: RelayWorld;
  let alpha: RelayHubHandle;
  let alphaCode: string;
  let betaCode: string;

  beforeAll(async () => {
    requireOwnNetwork();
    world = await startRelayWorld({ browser: false, maxConnectionsPerClient: CAP, maxConnectionsPerHub: HUB_CAP });
    alphaCode = world.invite('alpha').code;
    alpha = await world.startHub({ name: 'alpha', code: alphaCode });
    expect(alpha.output()).toContain(`checked https://alpha.${RELAY_DOMAIN}:${world.publicPort}: certificate trusted, answered by this hub`);
  }, 90_000);

  afterAll(async () => {
    await world?.stop();
  }, 60_000);

  const alphaAnswers = async () => expect(await world.get('alpha', '/healthz')).toEqual({ status: 200, subject: `alpha.${RELAY_DOMAIN}` });

  it('refuses a damaged join code before starting, and a well-formed one with a key the relay does not know', async () => {
    const run = spawnSync(process.execPath, [TETHER_MAIN, 'hub', '--port', '0', '--relay', `${alphaCode.slice(0, 60)}!!`], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, TETHER_HOME: mkdtempSync(join(tmpdir(), 'tether-forged-')) } });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/--relay: the join code is damaged/);

    const dir = mkdtempSync(join(tmpdir(), 'tether-otherkey-'));
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'k')]);
    const forged = encodeJoin({ ...decodeJoin(alphaCode), key: readFileSync(join(dir, 'k'), 'utf8') });
    rmSync(dir, { recursive: true, force: true });
    const impostor = await world.startHub({ name: 'alpha', code: forged });
    expect(impostor.output()).toContain('relay: tunnel down: the relay refused the key (not invited, or revoked)');
    expect(impostor.output()).not.toContain(`${decodeJoin(alphaCode).origin}/#pair=`);
    await impostor.stop();
    await alphaAnswers();
  }, 60_000);

  it("refuses a hub that claims another hub's name: sshd will not let its key listen on that port", async () => {
    betaCode = world.invite('beta').code;
    const beta = decodeJoin(betaCode);
    const alphaJoin = decodeJoin(alphaCode);
    const claim = encodeJoin({ ...beta, name: alphaJoin.name, origin: alphaJoin.origin, port: alphaJoin.port });
    const claimer = await world.startHub({ name: 'alpha', code: claim });
    expect(claimer.output()).toContain('relay: tunnel down: the relay refused the forward: this key may not serve that name');
    expect(claimer.output()).not.toContain(`${alphaJoin.origin}/#pair=`);
    await claimer.stop();
    await alphaAnswers();
  }, 60_000);

  it("holds hub alpha at its connection cap while hub beta keeps answering, and says so", async () => {
    const beta = await world.startHub({ name: 'beta', code: betaCode });
    const betaAnswers = async () => expect(await world.get('beta', '/healthz')).toEqual({ status: 200, subject: `beta.${RELAY_DOMAIN}` });
    await betaAnswers();
    // Straight to nginx from ten loopback addresses: ten clients, each far below its own cap of
    // CAP, so only the per-hub cap can refuse. A held connection has finished its TLS handshake
    // with alpha and stays open.
    const dial = (i: number) =>
      new Promise<TLSSocket | null>((resolve) => {
        const tcp = connect({ host: '127.0.0.1', port: world.nginxPort, localAddress: `127.0.0.${20 + (i % 10)}` });
        const socket = tlsConnect({ socket: tcp, servername: `alpha.${RELAY_DOMAIN}`, ca: world.pebble.rootPem, ALPNProtocols: ['http/1.1'] }, () => resolve(socket));
        socket.on('error', () => resolve(null));
        socket.on('close', () => resolve(null));
      });
    // alpha may hold connections of its own already (its fetch keeps the one of its URL check
    // alive), so: dial until the first refusal, then nginx's second hop must hold exactly HUB_CAP.
    const held: TLSSocket[] = [];
    try {
      for (let i = 0; i <= HUB_CAP; i++) {
        const socket = await dial(i);
        if (!socket) break;
        held.push(socket);
      }
      expect(held.length).toBeGreaterThan(0);
      expect(held.length).toBeLessThanOrEqual(HUB_CAP);
      expect(liveAtSecondHop(world.firstCapPort)).toBe(HUB_CAP);
      const EXTRA = 100;
      const extra = Array.from({ length: EXTRA }, (_, i) => dial(HUB_CAP + i));
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        await betaAnswers();
        times.push(performance.now() - t);
      }
      const refused = (await Promise.all(extra)).filter((s) => s === null).length;
      console.log(`RELAY-FAULTS hub_cap=${HUB_CAP} held=${held.length} alpha_extra=${EXTRA} refused=${refused} beta_get_ms_median=${times.sort((a, b) => a - b)[5]!.toFixed(1)} beta_get_ms_max=${Math.max(...times).toFixed(1)}`);
      expect(refused).toBe(EXTRA);
      await until(() => world.relayOutput().includes(`relay: cap: hub alpha.${RELAY_DOMAIN} is at its ${HUB_CAP} connections; refused 1 connection`), 5_000, "the relay's cap line");
      expect(world.accessLog()).toMatch(new RegExp(`cap_port=${world.firstCapPort} status=503`));
    } finally {
      for (const socket of held) socket.destroy();
    }
    // nginx counts a connection gone once both hops have seen it close.
    await until(async () => (await world.get('alpha', '/healthz').catch(() => null))?.status === 200, 5_000, 'alpha answering again below its cap');
    await beta.stop();
  }, 90_000);

  it('closes a connection for a name no hub has, or without a name, and logs it', async () => {
    await expect(relayGet({ port: world.publicPort, name: `nosuch.${RELAY_DOMAIN}`, path: '/', ca: world.pebble.rootPem })).rejects.toThrow();
    await expect(relayGet({ port: world.nginxPort, name: '', path: '/', ca: world.pebble.rootPem })).rejects.toThrow();
    expect(world.accessLog()).toMatch(new RegExp(`sni="nosuch\\.${RELAY_DOMAIN.replace('.', '\\.')}" hub=unix:\\S+no-such-hub\\.sock status=502`));
    await alphaAnswers();
  }, 30_000);

  it('holds a flood of half-open TLS connections from one address to its cap, drops them after 5 s, and alpha keeps answering', async () => {
    const FLOOD = 300;
    const sockets: Socket[] = [];
    let closedByRelay = 0;
    await Promise.all(
      Array.from({ length: FLOOD }, () =>
        new Promise<void>((resolve) => {
          // Another loopback address: another client for nginx's per-address cap.
          const socket = connect({ host: '127.0.0.1', port: world.nginxPort, localAddress: '127.0.0.9' }, () => {
            socket.write(Buffer.from([0x16, 0x03, 0x01])); // the start of a TLS record, never finished
            resolve();
          });
          socket.on('close', () => closedByRelay++);
          socket.on('error', () => resolve());
          sockets.push(socket);
        }),
      ),
    );
    await Bun.sleep(500);
    const overCap = closedByRelay;
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await alphaAnswers();
      times.push(performance.now() - t);
    }
    const allClosedMs = await until(() => closedByRelay === FLOOD, 10_000, 'the relay dropping every half-open connection');
    console.log(`RELAY-FAULTS flood=${FLOOD} closed_at_once=${overCap} cap=${CAP} alpha_get_ms_max=${Math.max(...times).toFixed(1)} alpha_get_ms_median=${times.sort((a, b) => a - b)[5]!.toFixed(1)} all_closed_after_ms=${allClosedMs + 500}`);
    expect(overCap).toBeGreaterThanOrEqual(FLOOD - CAP);
    for (const socket of sockets) socket.destroy();
  }, 30_000);

  it('comes back after the relay restarts', async () => {
    const ups = count(alpha.output(), 'relay: tunnel up');
    await world.restartRelay();
    const restarted = Date.now();
    await until(() => count(alpha.output(), 'relay: tunnel up') > ups, 40_000, 'the tunnel up again after the relay restart');
    const back = Date.now() - restarted;
    await alphaAnswers();
    console.log(`RELAY-FAULTS relay_restart_recovery_ms=${back}`);
    expect(alpha.output()).toMatch(/relay: tunnel down: .*; retrying in \d+ s/);
  }, 60_000);

  it("comes back after the hub's network is gone for 30 s", async () => {
    const ups = count(alpha.output(), 'relay: tunnel up');
    await alpha.cut();
    await Bun.sleep(30_000);
    expect(alpha.output()).toMatch(/relay: tunnel down: /);
    await expect(world.get('alpha', '/healthz')).rejects.toThrow();
    await alpha.restore();
    const restored = Date.now();
    await until(() => count(alpha.output(), 'relay: tunnel up') > ups, 60_000, 'the tunnel up again after the network returned');
    console.log(`RELAY-FAULTS network_back_recovery_ms=${Date.now() - restored}`);
    await alphaAnswers();
  }, 120_000);
});
