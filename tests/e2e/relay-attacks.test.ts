// relay-attacks.test.ts: `tether relay` attacked by its own tests (issue 38), on the real world of
// tests/browser/relay.test.ts (pebble, nginx stream + sshd on loopback, hubs alpha and beta in
// network namespaces of their own, dialling out only). Each case is an attack and what must hold:
// a second hub claiming a taken name is refused; a ClientHello without SNI reaches no hub, one with
// another hub's SNI reaches that hub only, which refuses a foreign Host or absolute-form URI; a PROXY
// line a client writes itself (at the public port, at a hub's second hop, straight at its tunnel
// port) is never believed; floods past the caps leave the other hub answering; a tee at the relay's
// forwarding sees no plaintext; a join code whose ssh host reads as an option is refused.
// Several clients dial from 127.0.0.9 and 127.0.0.20–29, so the file runs in a network namespace of
// its own (npm test's third pass, scripts/test.mjs; harness/own-network.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHopIdentity, type HopIdentity } from '../../cli/src/relay/hop-identity.ts';
import { decodeJoin, encodeJoin, JOIN_PREFIX } from '../../cli/src/relay/join-code.ts';
import { TETHER_MAIN } from '../harness/desk.ts';
import { requireOwnNetwork } from '../harness/own-network.ts';
import { decodeTap, RELAY_DOMAIN, relayRequest, SOCAT_BIN, startRelayWorld, type RelayHubHandle, type RelayWorld } from '../harness/relay-world.ts';
import { until } from '../harness/waiting.ts';

/** Connections per client address (the relay's first hop) and per hub name (its second hop). */
const CLIENT_CAP = 16;
const HUB_CAP = 32;
/** Addresses a forged PROXY line claims (TEST-NET-2): the hubs must never print them. */
const FORGED = ['198.51.100.77', '198.51.100.78', '198.51.100.79', '198.51.100.80', '198.51.100.81', '198.51.100.82', '198.51.100.83'];
/** Failed logins from one address before the hub says so and answers 429 (hub/src/auth/failures.ts). */
const FAILURES_TO_BLOCK = 10;

/** A TCP connection to 127.0.0.1:port that has written `first` (a PROXY line of the attacker's). */
function dialWriting(port: number, first: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.write(first);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

type Hop = 'naive' | 'none' | 'own';

/** Past nginx to 127.0.0.1:port with a PROXY line of the attacker's, then, as a client that knows the
 *  protocol, a hop TLS of its own (its own certificate, or none) to carry the phone's TLS; 'naive'
 *  sends the phone's TLS at once (what worked before the hop TLS). */
async function forged(o: { port: number; address: string; hop: Hop; identity: HopIdentity }): Promise<Socket> {
  const raw = await dialWriting(o.port, `PROXY TCP4 ${o.address} 127.0.0.1 40000 443\r\n`);
  if (o.hop === 'naive') return raw;
  return new Promise((resolve, reject) => {
    const hop = tlsConnect({ socket: raw, rejectUnauthorized: false, ...(o.hop === 'own' ? { key: o.identity.key, cert: o.identity.cert } : {}) }, () => resolve(hop));
    hop.once('error', reject);
    hop.once('close', () => reject(new Error('closed')));
  });
}

/** A TLS connection through nginx to `name` from `localAddress`, held open once its handshake is
 *  done; null when the relay (or the hub) closed it first. */
function hold(o: { port: number; name: string; ca: string; localAddress: string }): Promise<TLSSocket | null> {
  return new Promise((resolve) => {
    const tcp = connect({ host: '127.0.0.1', port: o.port, localAddress: o.localAddress });
    const socket = tlsConnect({ socket: tcp, servername: o.name, ca: o.ca, ALPNProtocols: ['http/1.1'] }, () => resolve(socket));
    socket.setTimeout(15_000, () => socket.destroy());
    socket.on('error', () => resolve(null));
    socket.on('close', () => resolve(null));
  });
}

const login = (name: string, token: string) => {
  const body = JSON.stringify({ token });
  return `POST /api/auth/login HTTP/1.1\r\nhost: ${name}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`;
};

describe('tether relay under attack', () => {
  let world: RelayWorld;
  let alpha: RelayHubHandle;
  let beta: RelayHubHandle;
  let alphaCode: string;
  let betaCode: string;
  let alphaName: string;
  let betaName: string;
  /** The attacker's own certificate for a hop TLS of its own. */
  let attacker: HopIdentity;

  beforeAll(async () => {
    requireOwnNetwork();
    attacker = await makeHopIdentity({ commonName: 'tether relay hop', years: 1 });
    world = await startRelayWorld({ browser: false, maxConnectionsPerClient: CLIENT_CAP, maxConnectionsPerHub: HUB_CAP });
    alphaCode = world.invite('alpha').code;
    betaCode = world.invite('beta').code;
    alphaName = `alpha.${RELAY_DOMAIN}`;
    betaName = `beta.${RELAY_DOMAIN}`;
    alpha = await world.startHub({ name: 'alpha', code: alphaCode });
    beta = await world.startHub({ name: 'beta', code: betaCode });
    for (const [hub, name] of [[alpha, alphaName], [beta, betaName]] as const) {
      expect(hub.output()).toContain(`checked https://${name}:${world.publicPort}: certificate trusted, answered by this hub`);
    }
  }, 120_000);

  afterAll(async () => {
    await world?.stop();
  }, 60_000);

  const answers = async (name: 'alpha' | 'beta') => expect(await world.get(name, '/healthz')).toEqual({ status: 200, subject: `${name}.${RELAY_DOMAIN}` });
  const ca = () => world.pebble.rootPem;
  const hubsPrinted = (address: string) => alpha.output().includes(address) || beta.output().includes(address);

  it('refuses a second hub claiming a taken name: a second invite, another key, the same key twice', async () => {
    const again = world.invite('alpha');
    expect({ status: again.status, stderr: again.stderr.trim() }).toMatchObject({ status: 1, stderr: expect.stringContaining('"alpha" is already invited') });

    const alphaJoin = decodeJoin(alphaCode);
    const claim = encodeJoin({ ...decodeJoin(betaCode), name: alphaJoin.name, origin: alphaJoin.origin, port: alphaJoin.port });
    const claimer = await world.startHub({ name: 'alpha', code: claim });
    const twin = await world.startHub({ name: 'alpha', code: alphaCode });
    try {
      console.log(`RELAY-ATTACK taken_name other_key="${/relay: tunnel down: [^\n]*/.exec(claimer.output())?.[0]}" same_key="${/relay: tunnel down: [^\n]*/.exec(twin.output())?.[0]}"`);
      expect(claimer.output()).toContain('relay: tunnel down: the relay refused the forward: this key may not serve that name');
      expect(twin.output()).toContain('relay: tunnel down: the relay refused the forward');
      for (const impostor of [claimer, twin]) expect(impostor.output()).not.toContain(`${alphaJoin.origin}/#pair=`);
    } finally {
      await claimer.stop();
      await twin.stop();
    }
    await answers('alpha');
    expect(alpha.output()).not.toContain('relay: tunnel down');
  }, 60_000);

  it("closes a ClientHello without SNI before any hub; one with another hub's SNI reaches that hub only, which refuses a foreign Host or URI", async () => {
    await expect(relayRequest({ port: world.nginxPort, name: '', request: 'GET /healthz HTTP/1.1\r\nhost: alpha\r\n\r\n', ca: ca() })).rejects.toThrow(/closed before TLS/);
    expect(world.accessLog()).toMatch(/sni="" hub=unix:\S+no-such-hub\.sock status=502/);

    const port = world.publicPort;
    const asBeta = (request: string) => relayRequest({ port, name: betaName, request, ca: ca() });
    const foreignHost = await asBeta(`GET /healthz HTTP/1.1\r\nhost: ${alphaName}:${port}\r\nconnection: close\r\n\r\n`);
    // RFC 9112 3.2.2: an absolute-form target's authority is the request's, whatever Host says.
    const foreignUri = await asBeta(`GET https://${alphaName}:${port}/healthz HTTP/1.1\r\nhost: ${betaName}:${port}\r\nconnection: close\r\n\r\n`);
    const ownUri = await asBeta(`GET https://${betaName}:${port}/healthz HTTP/1.1\r\nhost: ${betaName}:${port}\r\nconnection: close\r\n\r\n`);
    const got = { foreignHost: [foreignHost.subject, foreignHost.status], foreignUri: [foreignUri.subject, foreignUri.status], ownUri: [ownUri.subject, ownUri.status] };
    console.log(`RELAY-ATTACK other_sni ${JSON.stringify(got)}`);
    expect(got).toEqual({ foreignHost: [betaName, 421], foreignUri: [betaName, 421], ownUri: [betaName, 200] });
  }, 30_000);

  it("believes no PROXY line but the relay's own: one written to the public port, to a hub's second hop, or straight at its tunnel port", async () => {
    const proxyLine = (address: string) => `PROXY TCP4 ${address} 127.0.0.1 40000 443\r\n`;
    // At the public port nginx reads a ClientHello first, never a PROXY line.
    const atPublic = await relayRequest({ socket: await dialWriting(world.nginxPort, proxyLine(FORGED[0]!)), name: alphaName, request: login(alphaName, 'tth_forged'), ca: ca() }).then(
      (r) => r.status,
      () => 'refused' as const,
    );
    // Behind nginx: alpha's second hop (its cap port) and the port its tunnel listens on, both
    // open to any local user of the relay's box; each as before the hop TLS, and as an attacker who
    // wraps the phone's TLS in a hop TLS of its own (with its own certificate, or none).
    const targets = [
      { where: 'second hop', port: world.firstCapPort },
      { where: 'tunnel port', port: decodeJoin(alphaCode).port },
    ];
    const seen: Record<string, Array<number | string>> = { 'public port': [atPublic] };
    let next = 1;
    for (const target of targets) {
      for (const hop of ['naive', 'none', 'own'] as const) {
        const address = FORGED[next++]!;
        const statuses: Array<number | string> = [];
        for (let i = 0; i < FAILURES_TO_BLOCK; i++) {
          statuses.push(
            await forged({ port: target.port, address, hop, identity: attacker })
              .then((socket) => relayRequest({ socket, name: alphaName, request: login(alphaName, `tth_${'x'.repeat(40)}`), ca: ca() }))
              .then(
                (r) => r.status,
                () => 'refused',
              ),
          );
        }
        seen[`${target.where} (${hop})`] = statuses;
      }
    }
    await Bun.sleep(300);
    const printed = FORGED.filter(hubsPrinted);
    console.log(`RELAY-ATTACK own_proxy_line ${JSON.stringify(seen)} hub_printed=${JSON.stringify(printed)}`);
    expect({ seen, printed }).toEqual({ seen: Object.fromEntries(Object.keys(seen).map((k) => [k, k === 'public port' ? ['refused'] : Array(FAILURES_TO_BLOCK).fill('refused')])), printed: [] });
    await answers('alpha');
  }, 60_000);

  it('holds floods past its caps (one client, one hub, a tunnel port dialled directly) while the other hub answers', async () => {
    const port = world.nginxPort;
    const timed = async (name: 'alpha' | 'beta') => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await answers(name);
        times.push(performance.now() - t);
      }
      return Math.max(...times).toFixed(0);
    };
    // One client address far over its cap.
    const CLIENT_FLOOD = 120;
    const fromOne = await Promise.all(Array.from({ length: CLIENT_FLOOD }, () => hold({ port, name: alphaName, ca: ca(), localAddress: '127.0.0.9' })));
    const clientHeld = fromOne.filter(Boolean) as TLSSocket[];
    const alphaMsDuringClientFlood = await timed('alpha');
    for (const socket of clientHeld) socket.destroy();
    // One hub far over its cap, from ten addresses each under theirs.
    const HUB_FLOOD = 100;
    const toAlpha = await Promise.all(Array.from({ length: HUB_FLOOD }, (_, i) => hold({ port, name: alphaName, ca: ca(), localAddress: `127.0.0.${20 + (i % 10)}` })));
    const hubHeld = toAlpha.filter(Boolean) as TLSSocket[];
    const betaMsDuringHubFlood = await timed('beta');
    for (const socket of hubHeld) socket.destroy();
    // Straight at alpha's tunnel port, past both caps (a third each naive, with a keyless hop, with
    // the attacker's own certificate): every one must be turned away by alpha's front.
    const TUNNEL_FLOOD = 200;
    const tunnelPort = decodeJoin(alphaCode).port;
    const direct = await Promise.all(
      Array.from({ length: TUNNEL_FLOOD }, async (_, i) => {
        const socket = await forged({ port: tunnelPort, address: FORGED[0]!, hop: (['naive', 'none', 'own'] as const)[i % 3]!, identity: attacker }).catch(() => null);
        if (!socket) return null;
        return new Promise<TLSSocket | null>((resolve) => {
          const tls = tlsConnect({ socket, servername: alphaName, ca: ca(), ALPNProtocols: ['http/1.1'] }, () => resolve(tls));
          tls.setTimeout(15_000, () => tls.destroy());
          tls.on('error', () => resolve(null));
          tls.on('close', () => resolve(null));
        });
      }),
    );
    const tunnelHeld = direct.filter(Boolean) as TLSSocket[];
    const betaMsDuringTunnelFlood = await timed('beta');
    for (const socket of tunnelHeld) socket.destroy();
    const got = { clientHeld: clientHeld.length, hubHeld: hubHeld.length, tunnelHeld: tunnelHeld.length };
    console.log(`RELAY-ATTACK floods client_flood=${CLIENT_FLOOD} client_cap=${CLIENT_CAP} held=${got.clientHeld} alpha_get_ms_max=${alphaMsDuringClientFlood} hub_flood=${HUB_FLOOD} hub_cap=${HUB_CAP} held=${got.hubHeld} beta_get_ms_max=${betaMsDuringHubFlood} tunnel_flood=${TUNNEL_FLOOD} held=${got.tunnelHeld} beta_get_ms_max=${betaMsDuringTunnelFlood}`);
    expect(got.clientHeld).toBeGreaterThan(0);
    expect(got.clientHeld).toBeLessThanOrEqual(CLIENT_CAP);
    expect(got.hubHeld).toBeGreaterThan(0);
    expect(got.hubHeld).toBeLessThanOrEqual(HUB_CAP);
    expect(got.tunnelHeld).toBe(0);
    await until(async () => (await world.get('alpha', '/healthz').catch(() => null))?.status === 200, 10_000, 'alpha answering again after the floods');
  }, 90_000);

  it("shows a tee at the relay's forwarding no plaintext: a login and the session list pass through it", async () => {
    // The relay's operator (or anyone who can edit its files) puts socat -x between nginx and
    // alpha's tunnel, and reloads nginx.
    const hubsConf = join(world.stateDir, 'hubs.conf');
    const original = readFileSync(hubsConf, 'utf8');
    const tunnelPort = decodeJoin(alphaCode).port;
    const teePort = await new Promise<number>((resolve) => {
      const probe = connect({ host: '127.0.0.1', port: 1 }).on('error', () => {});
      probe.destroy();
      const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
      const p = server.port;
      server.stop(true);
      resolve(p);
    });
    const dir = mkdtempSync(join(tmpdir(), 'tether-tee-'));
    const teeLog = join(dir, 'tee.log');
    const tee = spawn('sh', ['-c', `exec "$0" -x TCP-LISTEN:${teePort},bind=127.0.0.1,fork,reuseaddr TCP:127.0.0.1:${tunnelPort} 2>"$1"`, SOCAT_BIN, teeLog], { stdio: 'ignore', detached: true });
    const reload = () => process.kill(Number(readFileSync(join(world.stateDir, 'nginx.pid'), 'utf8').trim()), 'SIGHUP');
    try {
      expect(original).toContain(`proxy_pass 127.0.0.1:${tunnelPort};`);
      writeFileSync(hubsConf, original.replace(`proxy_pass 127.0.0.1:${tunnelPort};`, `proxy_pass 127.0.0.1:${teePort};`));
      reload();
      await until(async () => (await world.get('alpha', '/healthz').catch(() => null))?.status === 200 && existsSync(teeLog) && readFileSync(teeLog).length > 0, 10_000, 'alpha answering through the tee');
      const token = alpha.token!;
      const port = world.publicPort;
      const loggedIn = await relayRequest({ port, name: alphaName, request: login(alphaName, token), ca: ca() });
      expect(loggedIn.status).toBe(200);
      const session = /"session":"([^"]+)"/.exec(loggedIn.text)?.[1] ?? '';
      expect(session).not.toBe('');
      const list = await relayRequest({ port, name: alphaName, request: `GET /api/sessions HTTP/1.1\r\nhost: ${alphaName}\r\nauthorization: Bearer ${session}\r\nconnection: close\r\n\r\n`, ca: ca() });
      expect(list.status).toBe(200);
      await Bun.sleep(200);
      const tapped = decodeTap(readFileSync(teeLog, 'utf8'));
      const inClear = [token, session, 'HTTP/1.1', '/api/', 'healthz', 'content-type'].filter((secret) => tapped.includes(Buffer.from(secret)));
      console.log(`RELAY-ATTACK tee bytes=${tapped.length} in_clear=${JSON.stringify(inClear)} proxy_line_visible=${tapped.includes(Buffer.from('PROXY TCP4 '))}`);
      expect(tapped.length).toBeGreaterThan(3_000);
      expect(inClear).toEqual([]);
    } finally {
      writeFileSync(hubsConf, original);
      reload();
      try {
        process.kill(-tee.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    }
    await until(async () => (await world.get('alpha', '/healthz').catch(() => null))?.status === 200, 10_000, 'alpha answering without the tee');
  }, 60_000);

  it('refuses a join code whose ssh host an ssh command line would read as an option', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tether-join-dash-'));
    const home = mkdtempSync(join(tmpdir(), 'tether-join-dash-home-'));
    try {
      const raw = { ...decodeJoin(alphaCode), ssh: '-Eattack.log:22' };
      const code = `${JOIN_PREFIX}${Buffer.from(JSON.stringify(raw)).toString('base64url')}`;
      const run = spawnSync(process.execPath, [TETHER_MAIN, 'hub', '--port', '0', '--relay', code], { cwd, encoding: 'utf8', timeout: 40_000, env: { ...process.env, TETHER_HOME: home } });
      const said = `${run.stdout}${run.stderr}`;
      console.log(`RELAY-ATTACK dash_host status=${run.status} signal=${run.signal} said=${JSON.stringify(said.split('\n').filter((l) => /relay|join code/.test(l)).slice(0, 3))} file_made=${existsSync(join(cwd, 'attack.log'))}`);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/--relay: the join code is damaged or forged \(ssh: /);
      expect(existsSync(join(cwd, 'attack.log'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
