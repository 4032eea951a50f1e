import { describe, expect, it } from 'vitest';
import { buildLaunchArgs } from './launch-args.ts';
import { claudeAgent } from './agent.ts';

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
