// workspace.test.ts: the phone as a workbench: Changes and Files against the real thing. A hub
// serving web/dist, a real `tether claude` runner in a git repository, the pinned claude editing a
// file for the fake Messages API, and Chromium at 390×844 and 1280×800, light and dark.
//
//   tab ─GET /api/sessions/:id/changes|files|file─► hub ─workspace:query─► tether claude ─► git, fs
//
// The journey: claude edits src/greet.ts; the Edit's tool card opens that file's diff in Changes;
// a second turn (sent from another device) writes a new file while Changes is open, and the view
// refreshes itself when the turn ends; the tool card's path opens the file in Files; the Files tab
// browses down to it; a link out of the directory is shown but not opened.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasToolResult, startFakeAnthropic, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { saveScreenshot, saveScreenshotsInBothThemes, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startRunner, watchSession } from '../harness/runner.ts';

/** A real claude turn (runner → PTY → claude → fake API → transcript → hub → tab) on a loaded box. */
const CLAUDE_UI_TIMEOUT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 120_000;
/** claude's input box idle again, whatever its footer says in accept-edits mode. */
const IDLE_BOX = /❯[\s\u00a0]*\n─+/;

const GREET_BEFORE = [
  '// greet.ts: how the app says hello.',
  "import { format } from './format.ts';",
  '',
  '/** The greeting shown on the first screen. */',
  'export function greet(name: string): string {',
  "  const who = name.trim() || 'world';",
  "  return format('hello', who);",
  '}',
  '',
].join('\n');

function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
}

describe('Changes and Files from the browser', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: an Edit's diff in Changes, refreshed after the next turn; files opened from the chat and the Files tab`, async () => {
      const token = await world.hub.createToken(`workspace-${viewport}`);
      const fake = await startFakeAnthropic({});
      defer(() => fake.stop());
      const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
      defer(() => sandbox.stop());
      const greet = join(sandbox.cwd, 'src', 'greet.ts');
      const farewell = join(sandbox.cwd, 'src', 'farewell.ts');
      fake.setScript([
        when(userSays(/greeting/), toolUse('Read', { file_path: greet }, { id: 'toolu_read' })),
        when(hasToolResult({ id: 'toolu_read', isError: false }), toolUse('Edit', { file_path: greet, old_string: "  return format('hello', who);", new_string: "  // Friendlier on a phone.\n  return format('hello there', who);" }, { id: 'toolu_edit' })),
        when(hasToolResult({ id: 'toolu_edit', isError: false }), text('I changed the greeting.')),
        when(userSays(/farewell/), toolUse('Write', { file_path: farewell, content: "export function farewell(): string {\n  return 'goodbye';\n}\n" }, { id: 'toolu_write' })),
        when(hasToolResult({ id: 'toolu_write', isError: false }), text('Farewell written.')),
      ]);
      git(sandbox.cwd, 'init', '-q');
      mkdirSync(join(sandbox.cwd, 'src'));
      writeFileSync(greet, GREET_BEFORE);
      writeFileSync(join(sandbox.cwd, 'src', 'format.ts'), "export const format = (word: string, who: string) => `${word}, ${who}!`;\n");
      writeFileSync(join(sandbox.cwd, 'README.md'), '# demo\n\nA small app.\n');
      git(sandbox.cwd, 'add', '-A');
      git(sandbox.cwd, 'commit', '-q', '-m', 'first');
      symlinkSync('/etc', join(sandbox.cwd, 'system-config'));

      const runner = startRunner({ hub: { url: world.hub.url, token }, sandbox, args: ['--permission-mode', 'acceptEdits'] });
      defer(() => runner.stop());
      await runner.waitForScreen(IDLE_BOX, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });

      const page = await world.signedInPage(viewport, token);
      defer(() => page.close());
      await page.locator(`a[data-session-id="${runner.sessionId}"]`).click();
      const chat = page.getByRole('log', { name: 'Chat' });
      await chat.waitFor({ timeout: UI_TIMEOUT_MS });
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Please make the greeting friendlier');
      await page.getByRole('button', { name: 'Send' }).click();
      await chat.getByText('I changed the greeting.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });

      // The Edit's card links to its file's diff.
      const showDiff = chat.getByRole('link', { name: 'Show the diff of src/greet.ts' });
      await showDiff.waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'workspace-chat-card', viewport });
      await showDiff.click();
      await page.waitForURL(/\/changes\?file=src%2Fgreet\.ts$/, { timeout: UI_TIMEOUT_MS });
      const diff = page.getByRole('group', { name: 'Diff of src/greet.ts' });
      await diff.waitFor({ timeout: UI_TIMEOUT_MS });
      const rows = await diff.locator('.diff-row').allInnerTexts();
      const flat = rows.map((r) => r.replace(/\s+/g, ' ').trim());
      expect(flat).toContain("7 − removed: return format('hello', who);");
      expect(flat).toContain('7 + added: // Friendlier on a phone.');
      expect(flat).toContain("8 + added: return format('hello there', who);");
      // Syntax colour: the grammar chunk loaded and coloured the keywords.
      await diff.locator('.hljs-keyword').first().waitFor({ timeout: UI_TIMEOUT_MS });
      const summary = page.locator('.workspace-summary');
      await expect(summary.textContent()).resolves.toMatch(/main · [0-9a-f]{7,} · 2 files \+3 −1/);
      await saveScreenshotsInBothThemes(page, { name: 'workspace-changes', viewport });

      // Another device sends the next prompt; the open Changes view refreshes when the turn ends.
      const other = await watchSession({ hub: { url: world.hub.url, token }, sessionId: runner.sessionId });
      defer(() => other.stop());
      expect((await other.send('Now add a farewell')).ok).toBe(true);
      await page.getByRole('group', { name: 'Diff of src/farewell.ts' }).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
      await expect(summary.textContent()).resolves.toMatch(/3 files/);
      await page.getByRole('navigation', { name: 'Changed files' }).getByRole('link', { name: /src\/farewell\.ts/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'workspace-changes-refreshed', viewport });

      // Back in the chat, the Edit card's path opens the file.
      await page.getByRole('link', { name: 'Chat', exact: true }).click();
      await chat.getByText('Farewell written.').waitFor({ timeout: UI_TIMEOUT_MS });
      await chat.locator('.tool-card[data-tool="Edit"] .tool-head').click();
      await chat.getByRole('link', { name: 'Open src/greet.ts' }).click();
      await page.waitForURL(/\/files\?file=src%2Fgreet\.ts$/, { timeout: UI_TIMEOUT_MS });
      const code = page.getByRole('group', { name: 'Contents of src/greet.ts' });
      await code.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(code.innerText()).resolves.toContain("return format('hello there', who);");
      await code.locator('.hljs-comment').first().waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshotsInBothThemes(page, { name: 'workspace-file', viewport });

      // The Files tab from the top: folders first; the link to /etc is named, not opened.
      await page.getByRole('navigation', { name: 'File path' }).getByRole('link', { name: sandboxName(sandbox.cwd) }).click();
      const top = page.getByRole('list', { name: `Contents of ${sandboxName(sandbox.cwd)}` });
      await top.waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await top.locator('.file-name').allInnerTexts()).map((t) => t.trim())).toEqual(['src', 'README.md', 'system-config (link)']);
      await top.getByText("Leads outside the session's folder: not opened").waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(top.getByRole('link', { name: /system-config/ }).count()).resolves.toBe(0);
      await saveScreenshotsInBothThemes(page, { name: 'workspace-files', viewport });
      await top.getByRole('link', { name: /^src/ }).click();
      await page.getByRole('list', { name: 'Contents of src' }).getByRole('link', { name: /farewell\.ts/ }).click();
      await page.getByRole('group', { name: 'Contents of src/farewell.ts' }).getByText("return 'goodbye';").waitFor({ timeout: UI_TIMEOUT_MS });

      // A path that leads out, typed into the address bar: the runner refuses, the page says why.
      await page.goto(`${world.hub.url}/sessions/${runner.sessionId}/files?file=system-config%2Fpasswd`);
      const refused = page.getByRole('alert').filter({ hasText: 'File unavailable' });
      await refused.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(refused.textContent()).resolves.toContain("leads outside the session's directory");
      await saveScreenshot(page, { name: 'workspace-refused', viewport });
    }, JOURNEY_TIMEOUT_MS);
  }
});

function sandboxName(cwd: string): string {
  return cwd.split('/').pop()!;
}

