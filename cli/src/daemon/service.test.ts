import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'plist';
import { afterEach, describe, expect, it } from 'vitest';
import { launchdPlist, LAUNCHD_LABEL, serviceKindFor, servicePath, systemdUnit } from './service.ts';

const spec = {
  command: ['/opt/tether bin/bun', '/opt/tether/cli/src/main.ts', 'daemon'],
  tetherHome: '/Users/dev/.tether',
  path: '/opt/homebrew/bin:/usr/bin:/bin',
  home: '/Users/dev',
};

describe('daemon service files', () => {
  it('launchd: a valid plist with the same command, environment and restart policy as the unit', () => {
    const parsed = parse(launchdPlist(spec)) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      Label: LAUNCHD_LABEL,
      ProgramArguments: spec.command,
      EnvironmentVariables: { TETHER_HOME: spec.tetherHome, PATH: spec.path },
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ThrottleInterval: 10,
      // Runners are detached: launchd must not kill them with the daemon (systemd: KillMode=process).
      AbandonProcessGroup: true,
      StandardOutPath: '/Users/dev/.tether/logs/daemon.log',
      StandardErrorPath: '/Users/dev/.tether/logs/daemon.log',
    });
  });

  it('escapes what XML would misread', () => {
    const parsed = parse(launchdPlist({ ...spec, tetherHome: '/tmp/a&b <c>' })) as { EnvironmentVariables: { TETHER_HOME: string } };
    expect(parsed.EnvironmentVariables.TETHER_HOME).toBe('/tmp/a&b <c>');
  });

  it('systemd: the command quoted as one argument per word, the environment, restart and kill mode', () => {
    const unit = systemdUnit(spec);
    expect(unit).toContain('ExecStart="/opt/tether bin/bun" /opt/tether/cli/src/main.ts daemon');
    expect(unit).toContain('Environment=TETHER_HOME=/Users/dev/.tether');
    expect(unit).toContain('Environment=PATH=/opt/homebrew/bin:/usr/bin:/bin');
    expect(unit).toMatch(/Restart=on-failure\nRestartSec=10\nKillMode=process/);
    expect(unit).toContain('WantedBy=default.target');
  });

  it('picks launchd on macOS and systemd elsewhere, each in its usual place', () => {
    expect(serviceKindFor('darwin')).toBe('launchd');
    expect(serviceKindFor('linux')).toBe('systemd');
    expect(servicePath('launchd', { home: '/Users/dev' })).toBe(`/Users/dev/Library/LaunchAgents/${LAUNCHD_LABEL}.plist`);
    expect(servicePath('systemd', { home: '/home/dev' })).toBe('/home/dev/.config/systemd/user/tether-daemon.service');
    expect(servicePath('systemd', { home: '/home/dev', xdgConfigHome: '/x' })).toBe('/x/systemd/user/tether-daemon.service');
  });
});

describe('tether daemon install / uninstall', () => {
  const MAIN = resolve(import.meta.dirname, '..', 'main.ts');
  const homes: string[] = [];
  afterEach(() => {
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });
  const tether = (args: string[], home: string) => {
    const result = Bun.spawnSync([process.execPath, MAIN, 'daemon', ...args], { env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', TETHER_HOME: join(home, '.tether') } });
    return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
  };
  const files = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort();

  for (const kind of ['systemd', 'launchd'] as const) {
    it(`${kind}: --print writes nothing; install writes the file; uninstall removes it and nothing else`, () => {
      const home = mkdtempSync(join(tmpdir(), 'tether-service-'));
      homes.push(home);
      const path = kind === 'launchd' ? join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`) : join(home, '.config', 'systemd', 'user', 'tether-daemon.service');
      const printed = tether(['install', '--print', `--${kind}`], home);
      expect(printed.code).toBe(0);
      expect(printed.stdout).toContain(kind === 'launchd' ? '<key>ProgramArguments</key>' : 'ExecStart=');
      expect(existsSync(join(path, '..'))).toBe(false);

      const installed = tether(['install', `--${kind}`], home);
      expect(installed.code).toBe(0);
      expect(installed.stdout).toContain(`wrote ${path}`);
      expect(installed.stdout).toContain(kind === 'launchd' ? 'launchctl bootstrap' : 'systemctl --user');
      expect(readFileSync(path, 'utf8')).toBe(printed.stdout);
      // Something of the user's own next to it stays.
      writeFileSync(join(path, '..', 'mine.conf'), 'keep');
      const uninstalled = tether(['uninstall', `--${kind}`], home);
      expect(uninstalled.code).toBe(0);
      expect(existsSync(path)).toBe(false);
      expect(files(join(path, '..'))).toEqual([join(path, '..', 'mine.conf')]);
    });
  }
});
