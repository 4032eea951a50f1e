// git-actions.test.ts: Commit and push in the Changes view, in Chromium at 390×844 and 1280×800.
// The session's runner is the runner's own code without an agent: a /cli socket that answers
// workspace:query and git:action with cli/src/workspace and cli/src/git-actions over a real git
// repository cloned from a local bare remote (an agent adds nothing to what is tested here).
//
// The journey: a changed file is staged with its toggle, a message typed, Commit; Push sends it to
// the bare remote (checked there); a push while the agent is thinking is refused until "Do it
// anyway"; a push to a remote that is gone fails with git's reason. The approval history lists the
// writes. Screenshots in both themes, axe over the open panel in both themes.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { GitQuerySchema, WorkspaceQuerySchema } from '@tether/shared';
import { createGitActions } from '../../cli/src/git-actions/git-actions.ts';
import { createWorkspaceReader } from '../../cli/src/workspace/workspace.ts';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { saveScreenshot, saveScreenshotsInBothThemes, UI_TIMEOUT_MS, useColorScheme } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';

const JOURNEY_TIMEOUT_MS = 90_000;

function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** The runner's answers to the hub's questions, from its own rooms, in `root`. */
function answerAsRunner(runner: Socket, root: string) {
  const reader = createWorkspaceReader({ root });
  const actions = createGitActions({ root, gh: join(root, 'no-gh-here') });
  runner.on('workspace:query', (raw: unknown, reply: (a: unknown) => void) => void reader.answer(WorkspaceQuerySchema.parse(raw)).then(reply));
  runner.on('git:action', (raw: unknown, reply: (a: unknown) => void) => void actions.answer(GitQuerySchema.parse(raw)).then(reply));
}

describe('Commit and push from the Changes view', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: stage with a toggle, commit with a message, push to the bare remote; mid-turn and failure states`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tether-git-browser-'));
      defer(() => rmSync(dir, { recursive: true, force: true }));
      const remote = join(dir, 'remote.git');
      const repo = join(dir, 'app');
      git(dir, 'init', '-q', '--bare', remote);
      git(dir, 'init', '-q', repo);
      for (const [k, v] of [['user.name', 'Desk Dev'], ['user.email', 'dev@example.com'], ['commit.gpgsign', 'false']]) git(repo, 'config', k!, v!);
      writeFileSync(join(repo, 'greet.ts'), "export const greet = () => 'hello';\n");
      writeFileSync(join(repo, 'README.md'), '# app\n');
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', 'first');
      git(repo, 'remote', 'add', 'origin', remote);
      git(repo, 'push', '-q', '-u', 'origin', 'main');
      writeFileSync(join(repo, 'greet.ts'), "export const greet = () => 'hello, phone';\n");
      writeFileSync(join(repo, 'notes.md'), 'a note, not for this commit\n');

      const token = await world.hub.createToken(`git-${viewport}`);
      const { runner, sessionId } = await world.runnerWithSession(token, { cwd: repo, launchKind: 'pty', status: 'idle' });
      answerAsRunner(runner, repo);

      const page = await world.signedInPage(viewport, token);
      defer(() => page.close());
      await page.goto(`${world.hub.url}/sessions/${sessionId}/changes`);
      const panel = page.locator('details.git-panel');
      await panel.locator('summary').click();
      const toggles = page.getByRole('list', { name: 'Stage files for the commit' });
      await toggles.waitFor({ timeout: UI_TIMEOUT_MS });
      const greet = toggles.getByRole('checkbox', { name: 'greet.ts' });
      await expect(greet.isChecked()).resolves.toBe(false);
      await greet.check();
      await page.getByRole('status').filter({ hasText: 'Staged greet.ts' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(git(repo, 'diff', '--cached', '--name-only')).toBe('greet.ts');
      await expect(toggles.getByRole('checkbox', { name: 'notes.md' }).isChecked()).resolves.toBe(false);
      await page.getByRole('textbox', { name: 'Commit message' }).fill('Friendlier greeting, from the phone');
      await saveScreenshotsInBothThemes(page, { name: 'git-panel-staged', viewport });
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        expect(seriousOnes(await axeViolations(page)), scheme).toEqual([]);
      }
      await useColorScheme(page, 'light');

      await page.getByRole('button', { name: 'Commit 1 file' }).click();
      await page.getByRole('status').filter({ hasText: /Committed [0-9a-f]{12} on main/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(page.getByRole('textbox', { name: 'Commit message' }).inputValue()).resolves.toBe('');
      expect(git(repo, 'log', '-1', '--format=%s')).toBe('Friendlier greeting, from the phone');
      await saveScreenshot(page, { name: 'git-panel-committed', viewport });

      // The agent starts a turn: a push is refused until the person confirms.
      await runner.timeout(5_000).emitWithAck('session:update', { sessionId, patch: { status: 'thinking' } });
      await page.getByRole('button', { name: 'Push to origin/main' }).click();
      const midTurn = page.getByRole('alert').filter({ hasText: 'The agent is mid-turn' });
      await midTurn.waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshotsInBothThemes(page, { name: 'git-panel-mid-turn', viewport });
      expect(git(remote, 'log', '-1', '--format=%s', 'main')).toBe('first');
      await midTurn.getByRole('button', { name: 'Do it anyway' }).click();
      await page.getByRole('status').filter({ hasText: /Pushed [0-9a-f]{12} to origin\/main/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(git(remote, 'log', '-1', '--format=%s', 'main')).toBe('Friendlier greeting, from the phone');
      await page.getByRole('button', { name: 'Push (up to date)' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'git-panel-pushed', viewport });
      await runner.timeout(5_000).emitWithAck('session:update', { sessionId, patch: { status: 'idle' } });

      // The remote is gone: the next push fails with git's reason, and says so.
      await toggles.getByRole('checkbox', { name: 'notes.md' }).check();
      await page.getByRole('status').filter({ hasText: 'Staged notes.md' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole('textbox', { name: 'Commit message' }).fill('A note');
      await page.getByRole('button', { name: 'Commit 1 file' }).click();
      await page.getByRole('status').filter({ hasText: /Committed/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      renameSync(remote, `${remote}.moved`);
      await page.getByRole('button', { name: 'Push to origin/main' }).click();
      const failed = page.getByRole('alert').filter({ hasText: 'Failed: git push failed' });
      await failed.waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshotsInBothThemes(page, { name: 'git-panel-failed', viewport });

      // The approval history lists the writes, newest first.
      await page.getByRole('link', { name: 'Chat', exact: true }).click();
      await page.getByRole('button', { name: 'Approval history' }).click();
      const history = page.getByRole('list', { name: 'Answered requests' });
      await history.waitFor({ timeout: UI_TIMEOUT_MS });
      await history.getByText(/Pushed [0-9a-f]{12} to origin\/main/).waitFor({ timeout: UI_TIMEOUT_MS });
      const texts = await history.locator('.activity-decision').allInnerTexts();
      expect(texts.filter((t) => t.startsWith('Committed')).length).toBe(2);
      expect(texts).toContain('Staged greet.ts');
      await saveScreenshot(page, { name: 'git-history', viewport });
    }, JOURNEY_TIMEOUT_MS);
  }
});

