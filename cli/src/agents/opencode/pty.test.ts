import { describe, expect, it } from 'vitest';
import { LaunchArgsError } from '../agent.ts';
import { installOpencodePty, ptyRefusal } from './pty.ts';

const launch = (o: { version: string | null; userArgs?: string[] }) =>
  installOpencodePty({ version: o.version, bin: '/nonexistent/opencode', userArgs: o.userArgs ?? [], env: {}, endpoint: { port: 1, secret: 's' }, tetherHome: '/nonexistent', cwd: '/nonexistent', opened: null });

describe("opencode's TUI under tether, by version", () => {
  it('runs at both pins; below the floor or unread, refused with the reason', () => {
    expect(ptyRefusal('1.18.33')).toBeNull();
    expect(ptyRefusal('1.19.0')).toBeNull();
    expect(ptyRefusal('1.17.0')).toBeNull();
    expect(ptyRefusal('1.16.9')).toMatch(/older than tether knows.*from 1\.17\.0\); start it headless/);
    expect(ptyRefusal(null)).toMatch(/could not be read/);
  });

  it("at 1.18.33 its own server on the chosen port; the password only in the environment", () => {
    const installed = launch({ version: '1.18.33', userArgs: ['-m', 'fake/fake-model'] });
    try {
      expect(installed.args).toEqual(['--port', expect.stringMatching(/^\d+$/), '--hostname', '127.0.0.1']);
      expect(installed.prepend).toBeUndefined();
      expect(installed.ready).toBeUndefined();
      expect(installed.env?.OPENCODE_SERVER_PASSWORD).toMatch(/^[\w-]{32}$/);
      expect(installed.args.join(' ')).not.toContain(installed.env!.OPENCODE_SERVER_PASSWORD!);
    } finally {
      installed.remove();
    }
  });

  it('at 1.17.0 attach takes --session only: a model or agent is refused before anything starts', () => {
    for (const args of [['-m', 'fake/x'], ['--model=fake/x'], ['--agent', 'plan']]) {
      expect(() => launch({ version: '1.17.0', userArgs: args })).toThrow(LaunchArgsError);
    }
    expect(() => launch({ version: '1.17.0', userArgs: ['-m', 'x'] })).toThrow(/takes --session only \(not -m\)/);
  });
});
