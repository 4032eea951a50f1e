// hub.ts: `tether hub [--port N] [--host H] [--terminal-memory MiB] …`: runs the hub with its SQLite DB under TETHER_HOME and
// serves the built web app. The first line printed holds the URL (scripts and tests parse it). On the
// very first start it makes a token for namespace "default" and prints it once; on every start, a
// one-time pairing link and QR for a phone (pair-code.ts), never the token in a URL.
import { networkInterfaces } from 'node:os';
import { CommandError, parseFlags, type Command } from './command.ts';
import { tetherHome } from '../config/paths.ts';
import { webDistDir } from '../config/build.ts';

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

/** For a hub bound to every interface, the address a phone on the LAN can reach. */
function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const addr of list ?? []) if (addr.family === 'IPv4' && !addr.internal) return addr.address;
  }
  return null;
}

const command: Command = {
  name: 'hub',
  summary: 'run the hub (embedded SQLite under TETHER_HOME)',
  usage: 'tether hub [--port N (default: 8787, or the next free port up to 8797; 0 = any free port)] [--host H (default 127.0.0.1)] [--enable-shell (web shells on machines whose daemon runs with --allow-shell)] [--database postgres://… (several hubs behind one URL share it; also TETHER_DATABASE_URL)] [--cluster-url URL (how the other hubs reach this one; default its own URL)] [--trust-proxy (behind a load balancer: the client address is the last X-Forwarded-For hop)] [--terminal-memory MiB (replay kept for all live terminals together, default 256; each keeps its share, 128 KiB to 4 MiB; also TETHER_TERMINAL_MEMORY_MB)] [--allowed-origin URL[,URL…] (browser origins besides the hub\'s own that may open sockets; also TETHER_ALLOWED_ORIGINS)] [--dev-push-endpoints (development only: push endpoints may be http, loopback or private)]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, strings: ['port', 'host', 'database', 'cluster-url', 'terminal-memory', 'allowed-origin'], booleans: ['enable-shell', 'trust-proxy', 'dev-push-endpoints'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
    const explicit = parsePort(flags.port);
    const host = typeof flags.host === 'string' ? flags.host : '127.0.0.1';
    const { createHub, createAccessToken, isLoopbackHost, redactUrl, parseTerminalMemoryMb, parseAllowedOrigin } = await import('@tether/hub');
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
    const guards = {
      ...(allowedOrigins.length > 0 ? { allowedOrigins } : {}),
      ...(flags['dev-push-endpoints'] === true ? { devPushEndpoints: true } : {}),
    };

    let hub: Awaited<ReturnType<typeof createHub>> | null = null;
    const skipped: number[] = [];
    for (const port of explicit === null ? DEFAULT_PORTS : [explicit]) {
      try {
        hub = await createHub({ config: { host, port, home, webDist: webDistDir(), shell: flags['enable-shell'] === true, ...(terminalMemoryBytes !== null ? { terminalMemoryBytes } : {}), ...cluster, ...guards } });
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
    const lan = host === '0.0.0.0' || host === '::' ? lanAddress() : null;
    if (lan) lines.push(`on your network: http://${lan}:${hub.port}`);
    if (databaseUrl) lines.push(`database: ${redactUrl(databaseUrl)}`, 'cluster: on (hubs on the same database share rooms, broadcasts and secrets)');
    if (flags['enable-shell'] === true) lines.push('web shells: on (for machines whose daemon runs with --allow-shell)');
    if (memorySetting) lines.push(`terminal replay: ${memorySetting.value} MiB for all live terminals together`);
    if (flags['dev-push-endpoints'] === true) lines.push('push endpoints: development mode (http, loopback and private addresses allowed)');
    if (!isLoopbackHost(host)) {
      process.stderr.write(
        `tether: warning: --host ${host} exposes the hub on the network without TLS; tokens and chats travel in clear text. ` +
          'Put it behind HTTPS (a reverse proxy or a tunnel) for anything beyond a trusted LAN.\n',
      );
    }
    if ((await hub.store.listTokens()).length === 0) {
      const { token } = await createAccessToken({ store: hub.store, namespace: FIRST_NAMESPACE, label: 'first token' });
      lines.push(
        '',
        `first start: created an access token for namespace "${FIRST_NAMESPACE}" (for tether auth login). It is shown only this once:`,
        '',
        `  ${token}`,
        '',
        'more tokens: tether token create --namespace NAME',
      );
    }
    // Every start: a fresh one-time code for a phone (the QR never carries the token), when a phone
    // can open the hub (publicUrl, or the LAN URL of a hub bound to every interface).
    const { hubStartPairing } = await import('./pair-code.ts');
    lines.push(...(await hubStartPairing({ store: hub.store, namespace: FIRST_NAMESPACE, publicUrl: hub.publicUrl, lanUrl: lan ? `http://${lan}:${hub.port}` : null })));
    lines.push('tether hub ready (Ctrl-C to stop)');
    process.stdout.write(`${lines.join('\n')}\n`);

    return new Promise<number>((done) => {
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        process.stdout.write(`tether hub: ${signal}, stopping\n`);
        hub.stop().then(
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
