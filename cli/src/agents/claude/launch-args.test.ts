// launch-args.test.ts: the folders a desk's `tether claude` gave claude (`--add-dir`), read as claude
// reads them, while every argument still passes through untouched.
import { describe, expect, it } from 'vitest';
import { buildLaunchArgs } from './launch-args.ts';

describe('buildLaunchArgs, added folders', () => {
  it('reads --add-dir as claude does: every argument up to the next option, or the one after =', () => {
    const userArgs = ['--add-dir', '/srv/lib', '../notes', '--model', 'opus', '--add-dir=/opt/data', '--add-dir', '/tmp/x'];
    const plan = buildLaunchArgs({ userArgs });
    expect(plan.addedDirs).toEqual(['/srv/lib', '../notes', '/opt/data', '/tmp/x']);
    expect(plan.model).toBe('opus');
    expect(plan.args).toEqual(userArgs);
  });

  it('names none when none was given, and none for a bare --add-dir', () => {
    expect(buildLaunchArgs({ userArgs: ['--model', 'opus'] }).addedDirs).toEqual([]);
    expect(buildLaunchArgs({ userArgs: ['--add-dir', '--permission-mode', 'plan'] })).toMatchObject({ addedDirs: [], permissionMode: 'plan' });
    expect(buildLaunchArgs({ userArgs: ['--add-dir='] }).addedDirs).toEqual([]);
  });

  it('reads nothing after -- (the rest is not claude options)', () => {
    expect(buildLaunchArgs({ userArgs: ['--', '--add-dir', '/srv/lib'] }).addedDirs).toEqual([]);
  });
});
