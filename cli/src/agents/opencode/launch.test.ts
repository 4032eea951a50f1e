import { describe, expect, it } from 'vitest';
import { LaunchArgsError } from '../agent.ts';
import { opencodeSpawnArgs, planOpencodeLaunch } from './launch.ts';

describe('opencode launch words', () => {
  it('reads what a daemon writes: model, plan agent, session (set over ACP headless; its TUI takes them as they are)', () => {
    const args = opencodeSpawnArgs({ model: 'fake/fake-model', permissionMode: 'plan', resumeId: 'ses_db4517537ffe3RxbKIQZWM7MZC' });
    expect(planOpencodeLaunch(args)).toMatchObject({ args, model: 'fake/fake-model', permissionMode: 'plan', resumeId: 'ses_db4517537ffe3RxbKIQZWM7MZC', bypass: false });
    expect(planOpencodeLaunch(['--model=a/b'])).toMatchObject({ model: 'a/b', permissionMode: 'default' });
    // Its session id is known before its TUI names it (a resumed session keeps it on the hub).
    expect(planOpencodeLaunch(['--session', 'ses_db4517537ffe3RxbKIQZWM7MZC'])).toMatchObject({ resumeId: 'ses_db4517537ffe3RxbKIQZWM7MZC', resumeIdChecked: true });
  });

  it('refuses what `opencode acp` would silently lose', () => {
    expect(() => planOpencodeLaunch(['--auto'])).toThrow(LaunchArgsError);
    expect(() => planOpencodeLaunch(['--agent', 'yolo'])).toThrow(/build and plan/);
    expect(() => planOpencodeLaunch(['-m'])).toThrow(/needs a value/);
    expect(() => planOpencodeLaunch(['--session', '--dangerously-skip-permissions'])).toThrow(LaunchArgsError);
    expect(() => planOpencodeLaunch(['-s', '../x'])).toThrow(/agent session id/);
  });
});
