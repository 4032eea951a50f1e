// launch.test.ts: the folders a desk's `tether codex` gave Codex (`--add-dir <DIR>`, once a folder),
// read from its arguments, which still pass through untouched.
import { describe, expect, it } from 'vitest';
import { planCodexLaunch } from './launch.ts';

describe('planCodexLaunch, added folders', () => {
  it('reads each --add-dir (spaced or with =), its value never taken for a prompt or subcommand', () => {
    const userArgs = ['--add-dir', '/srv/lib', '-m', 'gpt-5.5', '--add-dir=../notes', 'fix the login'];
    const plan = planCodexLaunch(userArgs);
    expect(plan.addedDirs).toEqual(['/srv/lib', '../notes']);
    expect(plan.model).toBe('gpt-5.5');
    expect(plan.args).toEqual(userArgs);
    // After `resume <id>`, as the daemon gives them to a resumed thread.
    expect(planCodexLaunch(['resume', '0b1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5', '--add-dir=/srv/lib'])).toMatchObject({ resumeId: '0b1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5', addedDirs: ['/srv/lib'] });
  });

  it('names none when none was given', () => {
    expect(planCodexLaunch(['-m', 'gpt-5.5']).addedDirs).toEqual([]);
    expect(planCodexLaunch(['--', '--add-dir', '/srv/lib']).addedDirs).toEqual([]);
  });
});
