// relay.ts (command): `tether relay serve|invite|revoke|list`, run on a small public server. The
// relay routes TLS by name to hubs that dialled in; it never ends TLS and stores no user data
// (cli/src/relay/, docs/decisions/relay.md). Its state directory defaults to TETHER_HOME/relay-server.
import { join } from 'node:path';
import { CommandError, parseFlags, type Command } from './command.ts';
import { tetherHome } from '../config/paths.ts';

function stateDir(flag: string | undefined): string {
  return flag ?? join(tetherHome(), 'relay-server');
}

function count(value: string | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CommandError(`--${flag} must be a whole number ≥ ${min}, got "${value}"`);
  return n;
}

function oneLine<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw new CommandError(error instanceof Error ? error.message : String(error));
  }
}

async function oneLineAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new CommandError(error instanceof Error ? error.message : String(error));
  }
}

async function serveCommand(args: string[]): Promise<number> {
  const strings = ['state', 'domain', 'listen', 'public-port', 'ssh-listen', 'ssh-address', 'max-connections-per-hub', 'max-connections-per-client', 'bytes-per-second', 'idle-seconds', 'tunnel-dead-seconds', 'first-hub-port', 'first-cap-port'] as const;
  const { flags } = parseFlags({ args, strings });
  const { serve } = await import('../relay/relay.ts');
  const dir = stateDir(flags.state);
  const running = await serve(dir, {
    ...(flags.domain ? { domain: flags.domain } : {}),
    ...(flags.listen ? { listen: flags.listen } : {}),
    ...(flags['ssh-listen'] ? { sshListen: flags['ssh-listen'] } : {}),
    ...(flags['ssh-address'] ? { sshAddress: flags['ssh-address'] } : {}),
    publicPort: count(flags['public-port'], 'public-port', 1),
    maxConnectionsPerHub: count(flags['max-connections-per-hub'], 'max-connections-per-hub', 1),
    maxConnectionsPerClient: count(flags['max-connections-per-client'], 'max-connections-per-client', 1),
    bytesPerSecond: count(flags['bytes-per-second'], 'bytes-per-second', 0),
    idleSeconds: count(flags['idle-seconds'], 'idle-seconds', 10),
    tunnelDeadSeconds: count(flags['tunnel-dead-seconds'], 'tunnel-dead-seconds', 3),
    firstHubPort: count(flags['first-hub-port'], 'first-hub-port', 1024),
    firstCapPort: count(flags['first-cap-port'], 'first-cap-port', 1024),
  }, (line) => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
    throw new CommandError(error instanceof Error ? error.message : String(error));
  });
  process.stdout.write(`${running.lines.join('\n')}\ntether relay ready (Ctrl-C to stop)\n`);
  return new Promise<number>((done) => {
    const stop = (signal: string) => {
      process.stdout.write(`tether relay: ${signal}, stopping\n`);
      void running.stop().then(() => done(0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    void running.exited.then((why) => {
      process.stderr.write(`tether relay: ${why}; stopping\n`);
      void running.stop().then(() => done(1));
    });
  });
}

const command: Command = {
  name: 'relay',
  summary: 'run a relay on a public server: hubs dial in, phones reach them by name, TLS passes through',
  usage:
    'tether relay serve --domain NAME [--listen HOST:PORT (default 0.0.0.0:443)] [--public-port N] [--ssh-listen HOST:PORT (default 0.0.0.0:2222)] [--ssh-address NAME:PORT (what join codes dial)] [--max-connections-per-hub N (256)] [--max-connections-per-client N (64)] [--bytes-per-second N (0: no cap)] [--idle-seconds N (3600)] [--tunnel-dead-seconds N (30)] [--state DIR]\n' +
    '       tether relay invite NAME [--state DIR]   prints a join code for tether hub --relay (a secret)\n' +
    '       tether relay revoke NAME [--state DIR]\n' +
    '       tether relay list [--state DIR]',
  async run(args) {
    const [verb, ...rest] = args;
    if (verb === 'serve') return serveCommand(rest);
    const { flags, positionals } = parseFlags({ args: rest, strings: ['state'] });
    const dir = stateDir(flags.state);
    const relay = await import('../relay/relay.ts');
    if (verb === 'list') {
      const { readSettings } = await import('../relay/state.ts');
      const settings = oneLine(() => readSettings(dir));
      for (const hub of settings.hubs) process.stdout.write(`${hub.name}.${settings.domain}\tport ${hub.port}\tsince ${new Date(hub.createdAt).toISOString()}\n`);
      return 0;
    }
    if (verb !== 'invite' && verb !== 'revoke') throw new CommandError(`tether relay: expected serve, invite, revoke or list, got "${verb ?? ''}"`);
    if (positionals.length !== 1) throw new CommandError(`tether relay ${verb} NAME: one name`);
    const name = positionals[0]!;
    if (verb === 'revoke') {
      const { reloaded } = oneLine(() => relay.revoke(dir, name));
      process.stdout.write(`revoked ${name}: its key is gone from authorized_keys${reloaded ? ', nginx reloaded' : ' (nginx not running: the next serve uses it)'}; a live tunnel ends when its ssh connection does\n`);
      return 0;
    }
    const { code, reloaded, url } = await oneLineAsync(() => relay.invite(dir, name));
    process.stderr.write(`invited ${url}${reloaded ? '' : ' (nginx not running here: the next serve routes it)'}. On the hub's machine: tether hub --relay <the code below>. The code is a secret: anyone holding it can serve that name\n`);
    process.stdout.write(`${code}\n`);
    return 0;
  },
};
export default command;
