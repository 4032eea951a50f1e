// daemon.ts: `tether daemon` runs this machine's daemon in the foreground (logs one line per event
// on stdout); `tether daemon install` writes a systemd user unit that runs it, and says how to enable it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { tetherPaths } from '../config/paths.ts';
import { CommandError, parseFlags, type Command } from './command.ts';
import { requireCredentials } from './hub-access.ts';

const UNIT_NAME = 'tether-daemon.service';

function unitFile(env: NodeJS.ProcessEnv): string {
  const main = resolve(import.meta.dirname, '..', 'main.ts');
  const lines = [
    '[Unit]',
    'Description=tether daemon: start Claude Code sessions on this machine from the hub',
    'After=network-online.target',
    '',
    '[Service]',
    `ExecStart=${process.execPath} ${main} daemon`,
    `Environment=TETHER_HOME=${tetherPaths(env).home}`,
    // claude and its auth come from the user's environment: PATH must find claude.
    `Environment=PATH=${env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
    'Restart=on-failure',
    'RestartSec=10',
    // Runners are detached into their own sessions; stopping or restarting the daemon must not kill them.
    'KillMode=process',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ];
  return lines.join('\n');
}

const command: Command = {
  name: 'daemon',
  summary: 'register this machine with the hub and start sessions on request (install: systemd user unit)',
  usage: 'tether daemon [--name NAME] [--allow-shell (web shells on this machine, if the hub enables them)] | tether daemon install',
  async run(args) {
    if (args[0] === 'install') {
      const dir = join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'systemd', 'user');
      mkdirSync(dir, { recursive: true });
      const path = join(dir, UNIT_NAME);
      writeFileSync(path, unitFile(process.env));
      console.log(`wrote ${path}`);
      console.log(`enable it with:  systemctl --user daemon-reload && systemctl --user enable --now ${UNIT_NAME}`);
      console.log('keep it running after logout:  loginctl enable-linger $USER');
      return 0;
    }
    const { flags, positionals } = parseFlags({ args, strings: ['name'], booleans: ['allow-shell'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"; usage: ${command.usage}`, 2);
    const creds = requireCredentials();
    const { startDaemon } = await import('../daemon/daemon.ts');
    const say = (line: string) => console.log(`tether daemon: ${line}`);
    let lastDown = '';
    const daemon = startDaemon({
      hub: { url: creds.hubUrl, token: creds.token },
      ...(typeof flags.name === 'string' ? { name: flags.name } : {}),
      allowShell: flags['allow-shell'] === true,
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
          case 'shell-opened':
            say(`opened web shell ${event.shellId.slice(0, 8)} in ${event.cwd} (pid ${event.pid})`);
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
