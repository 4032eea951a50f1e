// daemon.ts: `tether daemon` runs this machine's daemon in the foreground (logs one line per event
// on stdout); `tether daemon install` writes a service that runs it (a systemd user unit on Linux, a
// launchd agent on macOS) and says how to enable it; `uninstall` removes it; `--print` only shows it.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tetherCommand } from '../config/self-command.ts';
import { tetherPaths } from '../config/paths.ts';
import { CommandError, parseFlags, type Command } from './command.ts';
import { requireCredentials } from './hub-access.ts';

/** `tether daemon install|uninstall [--print] [--launchd|--systemd]`. */
async function manageService(args: string[]): Promise<number> {
  const { flags, positionals } = parseFlags({ args: args.slice(1), booleans: ['print', 'launchd', 'systemd'] });
  if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"; usage: ${command.usage}`, 2);
  const service = await import('../daemon/service.ts');
  const kind = flags.launchd ? 'launchd' : flags.systemd ? 'systemd' : service.serviceKindFor(process.platform);
  const spec = {
    command: [...tetherCommand(), 'daemon'],
    tetherHome: tetherPaths(process.env).home,
    path: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    ...(process.env.HOME ? { home: process.env.HOME } : {}),
    ...(process.env.XDG_CONFIG_HOME ? { xdgConfigHome: process.env.XDG_CONFIG_HOME } : {}),
  };
  const path = service.servicePath(kind, spec);
  const commands = service.serviceCommands(kind, path);
  if (args[0] === 'uninstall') {
    if (!existsSync(path)) {
      console.log(`nothing to remove: ${path} does not exist`);
      return 0;
    }
    if (!flags.print) {
      console.log(`stop it first with:  ${commands.disable.join('\n  ')}`);
      rmSync(path);
    }
    console.log(`${flags.print ? 'would remove' : 'removed'} ${path}`);
    return 0;
  }
  const text = service.serviceFile(kind, spec);
  if (flags.print) {
    process.stdout.write(text);
    return 0;
  }
  mkdirSync(dirname(path), { recursive: true });
  if (kind === 'launchd') mkdirSync(join(spec.tetherHome, 'logs'), { recursive: true, mode: 0o700 });
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
  console.log(`enable it with:\n  ${commands.enable.join('\n  ')}`);
  return 0;
}

const command: Command = {
  name: 'daemon',
  startEnv: 'server',
  summary: 'register this machine with the hub and start sessions on request (install: systemd or launchd service)',
  usage:
    'tether daemon [--name NAME] [--allow-shell (web shells on this machine, if the hub enables them)] [--outside (list the conversations tether did not run: claude, Codex, Gemini)] | tether daemon install|uninstall [--print] [--launchd|--systemd]',
  async run(args) {
    if (args[0] === 'install' || args[0] === 'uninstall') return manageService(args);
    const { flags, positionals } = parseFlags({ args, strings: ['name'], booleans: ['allow-shell', 'outside'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"; usage: ${command.usage}`, 2);
    const creds = requireCredentials();
    const { startDaemon } = await import('../daemon/daemon.ts');
    const say = (line: string) => console.log(`tether daemon: ${line}`);
    let lastDown = '';
    const daemon = startDaemon({
      hub: { url: creds.hubUrl, token: creds.token },
      ...(typeof flags.name === 'string' ? { name: flags.name } : {}),
      allowShell: flags['allow-shell'] === true,
      outside: flags.outside === true,
      onEvent: (event) => {
        switch (event.kind) {
          case 'registered':
            lastDown = '';
            say(`registered machine "${event.machine.name}" (${event.machine.id}) with ${event.hubUrl}${event.machine.shell ? ', web shells allowed' : ''}`);
            break;
          case 'down':
            if (event.reason !== lastDown) say(`hub unreachable (${event.reason}); retrying with back-off`);
            lastDown = event.reason;
            break;
          case 'spawned':
            say(`started ${event.launchKind} session ${event.sessionId} in ${event.cwd} (runner pid ${event.pid})`);
            break;
          case 'refused-spawn':
            say(`did not start session ${event.sessionId}: ${event.error}`);
            break;
          case 'runner-exited':
            say(`session ${event.sessionId}: runner exited (${event.signal ? `signal ${event.signal}` : `code ${event.exitCode ?? 'unknown'}`})`);
            break;
          case 'gave-up':
            say(`giving up: ${event.reason}`);
            break;
          case 'problem':
            say(event.message);
            break;
          case 'shell-opened':
            say(`opened web shell ${event.shellId.slice(0, 8)} in ${event.cwd} (pid ${event.pid})`);
            break;
          case 'outside':
            say(event.enabled ? 'finding the conversations tether did not run (switch it off on the machine\'s page)' : 'not finding conversations tether did not run');
            break;
          case 'rules-removed':
            say(`revoked rules in ${event.folder}: ${event.removed} taken out of its rule file, ${event.absent} already gone${event.failed ? `, ${event.failed} not (the file left untouched; the reason is on the rule: tether rules)` : ''}`);
            break;
          case 'shell-ended':
            say(`web shell ${event.shellId.slice(0, 8)} ended (${event.reason})`);
            break;
          default: {
            const never: never = event;
            return never;
          }
        }
      },
    });
    const onSignal = () => daemon.stop();
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    const { gaveUp } = await daemon.done;
    // Running sessions keep going: they are separate processes connected to the hub themselves.
    if (!gaveUp) say('stopped (running sessions keep running)');
    return gaveUp ? 1 : 0;
  },
};
export default command;
