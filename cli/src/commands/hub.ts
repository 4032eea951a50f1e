// hub.ts: `tether hub [--port N] [--host H] [--terminal-memory MiB] …`: runs the hub with its SQLite DB under TETHER_HOME and
// serves the built web app. The first line printed holds the URL (scripts and tests parse it). On the
// very first start it makes a token for namespace "default" and prints it once (for `tether auth
// login`); on every start, a one-time pairing link for a phone (pair-code.ts), never the token in a URL.
// How a phone reaches the hub (--public-url, --tailscale, the LAN, the TLS gate) is cli/src/reach/;
// this file wires it to createHub.
import { isLoopbackHost } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { readTranscription } from './hub-transcription.ts';
import { parseAllowedHosts, parsePublicUrl, takeTailscaleFlag } from '../reach/flags.ts';
import { openReach, prepareReach, type PreparedReach } from '../reach/reach.ts';
import { runTailscale } from '../reach/tailscale.ts';
import { tlsGate } from '../reach/tls-gate.ts';
import { tetherHome } from '../config/paths.ts';
import type { PreparedRelay } from '../relay-link/link.ts';
import { buildKind, webDistDir } from '../config/build.ts';
import { firstTokenLines, sessionLines } from './hub-start-text.ts';

/** The namespace of the token made on first start. */
const FIRST_NAMESPACE = 'default';

/** Without --port: 8787, else the next free one up to 8797 (a second hub, a leftover process). */
export const DEFAULT_PORTS = Array.from({ length: 11 }, (_, i) => 8787 + i);

function parsePort(value: string | boolean | undefined): number | null {
  if (value === undefined) return null;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CommandError(`--port must be 0-65535, got "${String(value)}"`);
  return port;
}

function inUse(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException & { message?: string };
  return e?.code === 'EADDRINUSE' || /EADDRINUSE|address already in use|in use/i.test(String(e?.message ?? ''));
}

/** "port 8787 is in use (by bun, pid 1234)": who holds it where the OS tells us. */
async function describeTaken(port: number): Promise<string> {
  const { portHolder } = await import('../net/port-holder.ts');
  const holder = portHolder(port);
  return `port ${port} is in use${holder ? ` (by ${holder.name}, pid ${holder.pid})` : ''}`;
}

/** One line, flag errors of the reach room included. */
function oneLine<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new CommandError(error instanceof Error ? error.message : String(error));
  }
}

/** --public-url, --allowed-host (TETHER_ALLOWED_HOSTS), --tailscale: checked, Tailscale read, before
 *  the hub binds anything. */
async function readReach(flags: { 'public-url'?: string; 'allowed-host'?: string }, tailscale: ReturnType<typeof takeTailscaleFlag>['mode'], host: string): Promise<PreparedReach> {
  // Tailscale proxies to http://127.0.0.1:<port>: a hub bound to one other address is not there.
  if (tailscale && !['127.0.0.1', 'localhost', '0.0.0.0', '::'].includes(host)) {
    throw new CommandError(`--tailscale proxies to 127.0.0.1: bind the hub there (the default) or to 0.0.0.0, not --host ${host}`);
  }
  const publicUrl = flags['public-url'] !== undefined ? oneLine(() => parsePublicUrl(flags['public-url']!)) : null;
  const hostList = flags['allowed-host'] ?? process.env.TETHER_ALLOWED_HOSTS ?? '';
  const allowedHosts = oneLine(() => parseAllowedHosts(hostList));
  try {
    return await prepareReach({ publicUrl, tailscale, allowedHosts, run: runTailscale, tailscaleInstalled: Bun.which('tailscale') !== null });
  } catch (error) {
    throw new CommandError(error instanceof Error ? error.message : String(error));
  }
}

/** --relay (TETHER_RELAY): the join code, checked; the relay name is then the hub's public URL, so
 *  neither --public-url nor --tailscale goes with it. The relay's code (its ACME client and X.509
 *  writer: ~60 ms of start-up CPU and their memory) loads only for a hub that has one. */
async function readRelay(o: { code: string | undefined; publicUrl: string | undefined; tailscale: boolean }): Promise<PreparedRelay | null> {
  if (o.code === undefined || o.code === '') return null;
  if (o.publicUrl !== undefined) throw new CommandError('--relay and --public-url do not go together: the relay name is the public URL');
  if (o.tailscale) throw new CommandError('--relay and --tailscale do not go together: pick one way in');
  const { prepareRelay } = await import('../relay-link/link.ts');
  return oneLine(() => prepareRelay(o.code!));
}

/** `--device-idle-days` and `--revocation-check-seconds`: whole numbers in a sane range, or a clear error. */
function readDeviceLimits(flags: Record<string, string | boolean | undefined>): { deviceIdleDays?: number; revocationCheckMs?: number } {
  const whole = (name: string, max: number): number | null => {
    const raw = flags[name];
    if (raw === undefined) return null;
    const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= 1 && value <= max)) throw new CommandError(`--${name} takes a whole number from 1 to ${max}`);
    return value;
  };
  const idle = whole('device-idle-days', 3650);
  const sweep = whole('revocation-check-seconds', 3600);
  return { ...(idle !== null ? { deviceIdleDays: idle } : {}), ...(sweep !== null ? { revocationCheckMs: sweep * 1000 } : {}) };
}

const command: Command = {
  name: 'hub',
  startEnv: 'server',
  summary: 'run the hub (embedded SQLite under TETHER_HOME)',
  usage: 'tether hub [--port N (default: 8787, or the next free port up to 8797; 0 = any free port)] [--host H (default 127.0.0.1)] [--enable-shell (web shells on machines whose daemon runs with --allow-shell)] [--continue-at-reset (continue a session at its usage limit\'s reset with "continue" unless the person chose otherwise for it or for its namespace: `tether unattended continue`)] [--database postgres://… (several hubs behind one URL share it; also TETHER_DATABASE_URL)] [--cluster-url URL (how the other hubs reach this one; default its own URL)] [--trust-proxy (behind a load balancer: the client address is the last X-Forwarded-For hop)] [--terminal-memory MiB (replay kept for all live terminals together, default 256; each keeps its share, 128 KiB to 4 MiB; also TETHER_TERMINAL_MEMORY_MB)] [--allowed-origin URL[,URL…] (browser origins besides the hub\'s own that may open sockets; also TETHER_ALLOWED_ORIGINS)] [--dev-push-endpoints (development only: push endpoints may be http, loopback or private)] [--device-idle-days N (a paired phone unused this long is signed out; default 30)] [--revocation-check-seconds N (how soon `tether token revoke` reaches live connections; default 30)] [--public-url https://NAME[:PORT] (the https URL a phone opens: your proxy or tunnel in front of the hub; checked before it is shown)] [--allowed-host NAME[,NAME…] (more host names the hub answers; any other gets 421; also TETHER_ALLOWED_HOSTS)] [--tailscale | --tailscale=funnel (serve the hub at https://<this machine>.<tailnet>.ts.net through Tailscale; funnel: on the public internet)] [--relay JOIN_CODE (serve the hub at https://NAME.<relay domain> through a tether relay: no inbound port, TLS ends here; also TETHER_RELAY) [--acme-directory URL (ACME CA for the relay name\'s certificate; default Let\'s Encrypt)]]',
  async run(args) {
    const tailscaleFlag = oneLine(() => takeTailscaleFlag(args));
    const { flags, positionals } = parseFlags({ args: tailscaleFlag.rest, strings: ['port', 'host', 'database', 'cluster-url', 'terminal-memory', 'allowed-origin', 'public-url', 'allowed-host', 'relay', 'acme-directory', 'device-idle-days', 'revocation-check-seconds'], booleans: ['enable-shell', 'trust-proxy', 'dev-push-endpoints', 'continue-at-reset'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
    const explicit = parsePort(flags.port);
    const host = typeof flags.host === 'string' ? flags.host : '127.0.0.1';
    const { createHub, createAccessToken, redactUrl, parseTerminalMemoryMb, parseAllowedOrigin, REACH_PROOF_PATH } = await import('@tether/hub');
    const home = tetherHome();
    // Several hubs behind one URL: every hub started with the same PostgreSQL database.
    const databaseUrl = typeof flags.database === 'string' ? flags.database : process.env.TETHER_DATABASE_URL;
    if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new CommandError('--database must be a postgres:// URL');
    // Replay kept for all live terminals together; the flag wins over the environment.
    const memorySetting =
      typeof flags['terminal-memory'] === 'string'
        ? { value: flags['terminal-memory'], from: '--terminal-memory' }
        : process.env.TETHER_TERMINAL_MEMORY_MB !== undefined
          ? { value: process.env.TETHER_TERMINAL_MEMORY_MB, from: 'TETHER_TERMINAL_MEMORY_MB' }
          : null;
    let terminalMemoryBytes: number | null = null;
    if (memorySetting) {
      const parsed = parseTerminalMemoryMb(memorySetting.value);
      if ('error' in parsed) throw new CommandError(`${memorySetting.from} ${parsed.error}`);
      terminalMemoryBytes = parsed.bytes;
    }
    const cluster = {
      ...(databaseUrl ? { databaseUrl } : {}),
      ...(typeof flags['cluster-url'] === 'string' ? { clusterUrl: flags['cluster-url'] } : {}),
      ...(flags['trust-proxy'] === true ? { trustProxy: true } : {}),
    };
    // Browser origins besides the hub's own; the flag wins over the environment.
    const originList = typeof flags['allowed-origin'] === 'string' ? flags['allowed-origin'] : (process.env.TETHER_ALLOWED_ORIGINS ?? '');
    const allowedOrigins = originList.split(',').map((o) => o.trim()).filter(Boolean);
    for (const origin of allowedOrigins) {
      try {
        parseAllowedOrigin(origin);
      } catch {
        throw new CommandError(`--allowed-origin: not an http(s) origin: ${origin}`);
      }
    }
    const relay = await readRelay({ code: flags.relay ?? process.env.TETHER_RELAY, publicUrl: flags['public-url'], tailscale: tailscaleFlag.mode !== null });
    const reach = await readReach(relay ? { ...flags, 'public-url': relay.join.origin } : flags, tailscaleFlag.mode, host);
    const origins = [...allowedOrigins, ...reach.allowedOrigins];
    const guards = {
      ...(origins.length > 0 ? { allowedOrigins: origins } : {}),
      // The URL `POST /api/pair-codes` hands to `tether pair`: the public one, else the Tailscale name.
      ...(reach.publicUrl ? { publicUrl: reach.publicUrl } : reach.tailscale ? { publicUrl: `https://${reach.tailscale.name}` } : {}),
      ...(reach.allowedHosts.length > 0 ? { allowedHosts: reach.allowedHosts } : {}),
      ...(flags['dev-push-endpoints'] === true ? { devPushEndpoints: true } : {}),
      ...readTranscription(process.env),
      ...readDeviceLimits(flags),
    };

    let hub: Awaited<ReturnType<typeof createHub>> | null = null;
    const skipped: number[] = [];
    for (const port of explicit === null ? DEFAULT_PORTS : [explicit]) {
      try {
        hub = await createHub({ config: { host, port, home, webDist: webDistDir(), install: buildKind(), shell: flags['enable-shell'] === true, ...(flags['continue-at-reset'] === true ? { limits: { continueByDefault: true } } : {}), ...(terminalMemoryBytes !== null ? { terminalMemoryBytes } : {}), ...cluster, ...guards, ...(relay ? { peerAddress: relay.peers.lookup } : {}) } });
        break;
      } catch (error) {
        if (!inUse(error)) throw new CommandError(`cannot start the hub: ${error instanceof Error ? error.message : String(error)}`);
        if (explicit !== null) throw new CommandError(`${await describeTaken(port)}; pick another with --port (0 = any free port)`);
        skipped.push(port);
      }
    }
    if (!hub) throw new CommandError(`ports ${DEFAULT_PORTS[0]}-${DEFAULT_PORTS.at(-1)} are all in use; pick one with --port (0 = any free port)`);
    const lines: string[] = [`tether hub listening on ${hub.url}`, `data: ${home}`];
    if (skipped.length > 0) lines.push(`port ${skipped.join(', ')} ${skipped.length === 1 ? 'was' : 'were'} in use, so it took ${hub.port}`);
    if (databaseUrl) lines.push(`database: ${redactUrl(databaseUrl)}`, 'cluster: on (hubs on the same database share rooms, broadcasts and secrets)');
    if (flags['enable-shell'] === true) lines.push('web shells: on (for machines whose daemon runs with --allow-shell)');
    if (flags['continue-at-reset'] === true) lines.push('usage limits: sessions are continued at the reset unless the person chose otherwise');
    if (memorySetting) lines.push(`terminal replay: ${memorySetting.value} MiB for all live terminals together`);
    if (guards.transcription) lines.push(`dictation: transcribed by ${new URL(guards.transcription.baseUrl).host} (TETHER_TRANSCRIPTION_URL)`);
    if (flags['dev-push-endpoints'] === true) lines.push('push endpoints: development mode (http, loopback and private addresses allowed)');
    if (!isLoopbackHost(host)) {
      process.stderr.write(
        `tether: warning: --host ${host} exposes the hub on the network without TLS; tokens and chats travel in clear text. ` +
          'Put it behind HTTPS (a reverse proxy or a tunnel) for anything beyond a trusted LAN.\n',
      );
    }
    const started = hub;
    const relayLink = relay
      ? await (await import('../relay-link/link.ts')).openRelay({ prepared: relay, home, hub: { host, port: hub.port, checkTarget: started.checkTarget }, ...(flags['acme-directory'] ? { directoryUrl: flags['acme-directory'] } : {}), log: (line) => process.stdout.write(`${line}\n`) })
      : null;
    lines.push(...(relayLink?.lines ?? []));
    let opened: Awaited<ReturnType<typeof openReach>>;
    try {
      opened = await openReach({
        prepared: reach,
        home,
        hubUrl: hub.url,
        host,
        port: hub.port,
        run: runTailscale,
        gate: (url) => tlsGate({ url, path: REACH_PROOF_PATH, answer: (challenge) => started.reachAnswer(challenge) }),
      });
    } catch (error) {
      await relayLink?.close();
      await hub.stop();
      throw new CommandError(error instanceof Error ? error.message : String(error));
    }
    lines.push(...opened.lines);
    // The base URL a phone opens (https and checked, or the LAN's http), never a loopback one.
    const phoneUrl: string | null = opened.phoneUrl;
    if ((await hub.store.listTokens()).length === 0) {
      const { token } = await createAccessToken({ store: hub.store, namespace: FIRST_NAMESPACE, label: 'first token' });
      lines.push(...firstTokenLines({ namespace: FIRST_NAMESPACE, token, hubUrl: hub.url }));
    }
    // Every start: a fresh one-time code (the QR never carries the token): a QR for the phone URL
    // reach chose, else a link for a browser on this machine only.
    const { hubStartPairing } = await import('./pair-code.ts');
    lines.push(...(await hubStartPairing({ store: hub.store, namespace: FIRST_NAMESPACE, phoneUrl, localUrl: hub.url })));
    lines.push(...sessionLines(), 'tether hub ready (Ctrl-C to stop)');
    process.stdout.write(`${lines.join('\n')}\n`);

    return new Promise<number>((done) => {
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        process.stdout.write(`tether hub: ${signal}, stopping\n`);
        opened
          .close()
          .then((warnings) => {
            for (const warning of warnings) process.stderr.write(`${warning}\n`);
            return relayLink?.close();
          })
          .then(() => {
            return started.stop();
          })
          .then(
            () => done(0),
            () => done(1),
          );
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
  },
};
export default command;
