// file-edits.test.ts: editing a file from the Files view, in Chromium at 390×844 and 1280×800. The
// session's runner is the runner's own code without an agent: a /cli socket that answers
// workspace:query and file:write with cli/src/workspace and cli/src/file-edits over a real folder
// (an agent adds nothing to what is tested here; tests/e2e/file-edits.test.ts has a real one).
//
// The journey: a CRLF file opened, Edit, a line changed, Save: on disk with its CRLF, a chat line
// says so. Edited again while the desk changes it: the save is refused, the difference shown (the
// desk's line removed, the person's added); "Save mine anyway" writes. Mid-turn, "Save anyway". A
// protected file says why it cannot be edited. Screenshots in both themes, axe in both themes over
// the editor and over the stale-save question.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { FileWriteQuerySchema, WorkspaceQuerySchema } from '@tether/shared';
import { createEditedFiles } from '../../cli/src/file-edits/edited-note.ts';
import { createFileEditor } from '../../cli/src/file-edits/file-edits.ts';
import { createWorkspaceReader } from '../../cli/src/workspace/workspace.ts';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { saveScreenshot, saveScreenshotsInBothThemes, UI_TIMEOUT_MS, useColorScheme } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';

const JOURNEY_TIMEOUT_MS = 90_000;

/** The runner's answers to the hub's reads and saves, from its own rooms, in `root`. */
function answerAsRunner(runner: Socket, root: string) {
  const reader = createWorkspaceReader({ root });
  const editor = createFileEditor({ root, edited: createEditedFiles() });
  runner.on('workspace:query', (raw: unknown, reply: (a: unknown) => void) => void reader.answer(WorkspaceQuerySchema.parse(raw)).then(reply));
  runner.on('file:write', (raw: unknown, reply: (a: unknown) => void) => void editor.answer(FileWriteQuerySchema.parse(raw)).then(reply));
}

const GREET = ['export function greet(name: string) {', "  return 'hello ' + name;", '}', '', 'export const shout = (s: string) => s.toUpperCase();', ''].join('\r\n');

describe('Editing a file from the Files view', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: edit and save keeping CRLF, a stale save shows the difference, mid-turn asks, a protected file says why`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'tether-edit-browser-'));
      defer(() => rmSync(root, { recursive: true, force: true }));
      mkdirSync(join(root, 'src'));
      const file = join(root, 'src', 'greet.ts');
      writeFileSync(file, GREET);
      writeFileSync(join(root, '.mcp.json'), '{}\n');

      const token = await world.hub.createToken(`edit-${viewport}`);
      const { runner, sessionId } = await world.runnerWithSession(token, { cwd: root, launchKind: 'pty', status: 'idle' });
      answerAsRunner(runner, root);
      const page = await world.signedInPage(viewport, token);
      defer(() => page.close());

      // Edit and save: on disk with its CRLF.
      await page.goto(`${world.hub.url}/sessions/${sessionId}/files?file=src/greet.ts`);
      await page.getByRole('button', { name: 'Edit', exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'file-view-edit', viewport });
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const text = page.getByRole('textbox', { name: 'Edit src/greet.ts' });
      await text.waitFor({ timeout: UI_TIMEOUT_MS });
      await text.fill((await text.inputValue()).replace("'hello ' + name", '`hello, ${name}`'));
      await saveScreenshotsInBothThemes(page, { name: 'file-editor', viewport });
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        expect(seriousOnes(await axeViolations(page)), scheme).toEqual([]);
      }
      await useColorScheme(page, 'light');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('button', { name: 'Edit', exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(readFileSync(file, 'utf8')).toBe(GREET.replace("'hello ' + name", '`hello, ${name}`'));
      await page.getByText('`hello, ${name}`').waitFor({ timeout: UI_TIMEOUT_MS });

      // Edited again while the desk changes the file: refused, the difference shown.
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await text.fill((await text.inputValue()).replace('toUpperCase()', 'toUpperCase() + "!"'));
      writeFileSync(file, readFileSync(file, 'utf8').replace('export function greet', '/** Says hello. */\r\nexport function greet'));
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const question = page.getByRole('alertdialog', { name: 'This file changed since you opened it' });
      await question.waitFor({ timeout: UI_TIMEOUT_MS });
      const diff = question.getByRole('group', { name: 'Diff of src/greet.ts' });
      await expect(diff.textContent()).resolves.toContain('/** Says hello. */');
      await expect(diff.textContent()).resolves.toContain('toUpperCase() + "!"');
      expect(readFileSync(file, 'utf8')).toContain("toUpperCase();");
      await saveScreenshotsInBothThemes(page, { name: 'file-editor-stale', viewport });
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        expect(seriousOnes(await axeViolations(page)), scheme).toEqual([]);
      }
      await useColorScheme(page, 'light');
      // Mid-turn: "Save mine anyway" is refused until the person confirms again.
      await runner.timeout(5_000).emitWithAck('session:update', { sessionId, patch: { status: 'thinking' } });
      await question.getByRole('button', { name: 'Save mine anyway' }).click();
      const midTurn = page.getByRole('alert').filter({ hasText: 'The agent is mid-turn' });
      await midTurn.waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'file-editor-mid-turn', viewport });
      expect(readFileSync(file, 'utf8')).toContain("toUpperCase();");
      await midTurn.getByRole('button', { name: 'Save anyway' }).click();
      await page.getByRole('button', { name: 'Edit', exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(readFileSync(file, 'utf8')).toBe(GREET.replace("'hello ' + name", '`hello, ${name}`').replace('toUpperCase()', 'toUpperCase() + "!"'));
      await runner.timeout(5_000).emitWithAck('session:update', { sessionId, patch: { status: 'idle' } });

      // A protected file: no Edit, and why.
      await page.goto(`${world.hub.url}/sessions/${sessionId}/files?file=.mcp.json`);
      await page.getByText('names MCP servers').waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'file-view-protected', viewport });
      expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);

      // The chat says what was edited.
      await page.goto(`${world.hub.url}/sessions/${sessionId}`);
      await page.getByText('Edited src/greet.ts from the web app').first().waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'file-editor-chat', viewport });
    }, JOURNEY_TIMEOUT_MS);
  }
});
