// `tether spawn --worktree BRANCH` and `--agent A`: a value the hub and the daemon would refuse is refused here first,
// with the reason and usage's exit code, before any hub is asked (no credentials are set).
import { describe, expect, it } from 'vitest';
import { runTether as tether } from '../testing/run-tether.ts';

describe('tether spawn --worktree', () => {
  it('refuses a branch name with `..` or shell characters before asking the hub', async () => {
    for (const branch of ['../escape', 'x;id']) {
      const run = await tether('spawn', '--machine', 'box', '--dir', '/src/app', '--worktree', branch);
      expect(run.status, branch).toBe(2);
      expect(run.stderr, branch).toContain('--worktree:');
      expect(run.stderr, branch).toMatch(/branch name/);
    }
  });
});

describe('tether spawn --agent', () => {
  it('refuses an agent tether does not run, naming the three it does, before asking the hub', async () => {
    const run = await tether('spawn', '--machine', 'box', '--dir', '/src/app', '--agent', 'copilot');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--agent must be one of claude, codex, gemini, opencode');
  });
});
