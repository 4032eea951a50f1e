// launch-args.test.ts: the folders a desk's `tether claude` gave claude (`--add-dir`), read as claude
// reads them, while every argument still passes through untouched; a resume and a fork.
import { describe, expect, it } from 'vitest';
import { buildLaunchArgs } from './launch-args.ts';
import { claudeAgent } from './agent.ts';

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
const ID = '3f0c7a52-6a0e-4f43-9c1f-2f2b1d6e8a10';

describe("claude's launch plan: resume and fork", () => {
  it('--resume names the conversation; --fork-session makes it a fork (a new conversation, told at SessionStart)', () => {
    expect(buildLaunchArgs({ userArgs: [`--resume=${ID}`] })).toMatchObject({ resumeId: ID, fork: false });
    expect(buildLaunchArgs({ userArgs: ['--resume', ID, '--fork-session'] })).toMatchObject({ resumeId: ID, fork: true });
  });

  it('a daemon’s fork spawns --resume=<id> --fork-session; a fork without a resume id adds nothing', () => {
    expect(claudeAgent.spawnArgs({ model: null, permissionMode: null, resumeId: ID, fork: true })).toEqual([`--resume=${ID}`, '--fork-session']);
    expect(claudeAgent.spawnArgs({ model: null, permissionMode: null, resumeId: null, fork: true })).toEqual([]);
    expect(claudeAgent.capabilities.fork).toEqual({ supported: true, reason: null });
  });
});
