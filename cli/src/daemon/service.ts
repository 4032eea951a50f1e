// service.ts: `tether daemon install` as an OS service that starts at login and restarts on failure:
// a systemd user unit on Linux, a launchd agent on macOS. Both run the same command with the same
// environment (TETHER_HOME, and the PATH that finds claude); systemd logs to the journal, launchd
// (which has none) to TETHER_HOME/logs/daemon.log. Runners are detached, so stopping or restarting
// the service never kills a session. Uninstall removes exactly the file install wrote.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SYSTEMD_UNIT = 'tether-daemon.service';
export const LAUNCHD_LABEL = 'dev.tether.daemon';

export type ServiceKind = 'systemd' | 'launchd';

export type ServiceSpec = {
  /** The daemon's command line (program first). */
  command: string[];
  tetherHome: string;
  /** PATH as the user's shell has it: claude must be found the same way. */
  path: string;
  home?: string;
  xdgConfigHome?: string;
};

export function serviceKindFor(platform: NodeJS.Platform): ServiceKind {
  return platform === 'darwin' ? 'launchd' : 'systemd';
}

export function servicePath(kind: ServiceKind, spec: Pick<ServiceSpec, 'home' | 'xdgConfigHome'>): string {
  const home = spec.home ?? homedir();
  return kind === 'launchd'
    ? join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`)
    : join(spec.xdgConfigHome || join(home, '.config'), 'systemd', 'user', SYSTEMD_UNIT);
}

/** systemd quotes arguments with double quotes; a path with spaces stays one argument. */
function systemdArg(value: string): string {
  return /[\s"\\]/.test(value) ? `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"` : value;
}

export function systemdUnit(spec: ServiceSpec): string {
  return [
    '[Unit]',
    'Description=tether daemon: start agent sessions (Claude Code, Codex, Gemini CLI) on this machine from the hub',
    'After=network-online.target',
    '',
    '[Service]',
    `ExecStart=${spec.command.map(systemdArg).join(' ')}`,
    `Environment=${systemdArg(`TETHER_HOME=${spec.tetherHome}`)}`,
    `Environment=${systemdArg(`PATH=${spec.path}`)}`,
    'Restart=on-failure',
    'RestartSec=10',
    // Runners are detached into their own sessions; stopping or restarting the daemon must not kill them.
    'KillMode=process',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

function xml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

export function launchdPlist(spec: ServiceSpec): string {
  const log = join(spec.tetherHome, 'logs', 'daemon.log');
  const strings = (values: string[]) => values.map((v) => `      <string>${xml(v)}</string>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
  <dict>
    <key>Label</key>
    <string>${LAUNCHD_LABEL}</string>
    <key>ProgramArguments</key>
    <array>
${strings(spec.command)}
    </array>
    <key>EnvironmentVariables</key>
    <dict>
      <key>TETHER_HOME</key>
      <string>${xml(spec.tetherHome)}</string>
      <key>PATH</key>
      <string>${xml(spec.path)}</string>
    </dict>
    <key>RunAtLoad</key>
    <true/>
    <key>KeepAlive</key>
    <dict>
      <key>SuccessfulExit</key>
      <false/>
    </dict>
    <key>ThrottleInterval</key>
    <integer>10</integer>
    <key>AbandonProcessGroup</key>
    <true/>
    <key>StandardOutPath</key>
    <string>${xml(log)}</string>
    <key>StandardErrorPath</key>
    <string>${xml(log)}</string>
  </dict>
</plist>
`;
}

export function serviceFile(kind: ServiceKind, spec: ServiceSpec): string {
  return kind === 'launchd' ? launchdPlist(spec) : systemdUnit(spec);
}

/** What to run after install (and before uninstall), as the user would type it. */
export function serviceCommands(kind: ServiceKind, path: string): { enable: string[]; disable: string[] } {
  return kind === 'launchd'
    ? {
        enable: [`launchctl bootstrap gui/$(id -u) ${path}`, `launchctl kickstart -k gui/$(id -u)/${LAUNCHD_LABEL}`],
        disable: [`launchctl bootout gui/$(id -u)/${LAUNCHD_LABEL}`],
      }
    : {
        enable: [`systemctl --user daemon-reload && systemctl --user enable --now ${SYSTEMD_UNIT}`, 'loginctl enable-linger $USER   # keep it running after logout'],
        disable: [`systemctl --user disable --now ${SYSTEMD_UNIT}`],
      };
}
