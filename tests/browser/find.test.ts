// find.test.ts: Find in a session, in Chromium at 390×844 and 1280×800. The session's runner is the
// runner's own code without an agent: a /cli socket that answers workspace:query and find:files with
// cli/src/workspace and cli/src/find over a real folder, and the hub's snapshot requests with a
// terminal screen whose scrollback holds the word (tests/e2e/find.test.ts has a real agent).
//
// The journey: the header's Find, a word typed, places in three groups; the chat place pages older
// messages in (the word is in the first of 1,200) and outlines the message; the terminal place
// scrolls the scrollback to the line and lights it; the file place opens the file at its line.
// Screenshots of each, axe in both themes over the dialog with its results.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Socket } from 'socket.io-client';
import { FilesFindQuerySchema, WorkspaceQuerySchema } from '@tether/shared';
import { createFilesFinder } from '../../cli/src/find/find-files.ts';
import { createWorkspaceReader } from '../../cli/src/workspace/workspace.ts';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { saveScreenshot, saveScreenshotsInBothThemes, seedLongChat, UI_TIMEOUT_MS, useColorScheme } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';

const JOURNEY_TIMEOUT_MS = 120_000;

/** A screen with 200 lines of scrollback above it; the word is on line 40. */
const SCREEN = Array.from({ length: 240 }, (_, i) => (i === 40 ? '\x1b[33m⏺ The walrus test suite passed\x1b[0m' : `build step ${i}: ok`)).join('\r\n');

function answerAsRunner(runner: Socket, root: string, sessionId: string) {
  const reader = createWorkspaceReader({ root });
  const finder = createFilesFinder({ root });
  runner.on('workspace:query', (raw: unknown, reply: (a: unknown) => void) => void reader.answer(WorkspaceQuerySchema.parse(raw)).then(reply));
  runner.on('find:files', (raw: unknown, reply: (a: unknown) => void) => void finder.answer(FilesFindQuerySchema.parse(raw)).then(reply));
  runner.on('terminal:snapshot-request', () => void runner.timeout(5_000).emitWithAck('terminal:snapshot', { sessionId, offset: 0, cols: 80, rows: 24, data: SCREEN }).catch(() => {}));
}

async function openFind(page: Page) {
  await page.getByRole('button', { name: 'Find in session' }).click();
  const dialog = page.getByRole('dialog', { name: 'Find in session' });
  await dialog.waitFor({ timeout: UI_TIMEOUT_MS });
  return dialog;
}

describe('Find in a session', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: finds a word in the chat, the terminal and a file, and jumps to each`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'tether-find-browser-'));
      defer(() => rmSync(root, { recursive: true, force: true }));
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src', 'zoo.ts'), `${Array.from({ length: 120 }, (_, i) => `export const animal${i} = 'cat';`).join('\n')}\nexport const big = 'walrus';\n`);

      const namespace = `find-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const { runner, sessionId } = await world.runnerWithSession(token, { cwd: root, launchKind: 'pty', status: 'idle', title: 'Find journey' });
      answerAsRunner(runner, root, sessionId);
      const base = { sidechain: false, agentId: null, promptId: null, agentSessionId: null } as const;
      await world.hub.store.appendMessages({ namespace, sessionId, messages: [{ ...base, id: randomUUID(), role: 'user', createdAt: Date.now() - 86_400_000, content: [{ type: 'text', text: 'Where does the walrus live?' }] }] });
      await seedLongChat({ store: world.hub.store, namespace, sessionId, count: 1_200 });

      const page = await world.signedInPage(viewport, token);
      defer(() => page.close());
      await page.goto(`${world.hub.url}/sessions/${sessionId}`);
      await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });

      const dialog = await openFind(page);
      await dialog.getByRole('searchbox', { name: 'Text to find' }).fill('walrus');
      await dialog.getByRole('searchbox', { name: 'Text to find' }).press('Enter');
      await dialog.getByRole('status').filter({ hasText: 'places found' }).waitFor({ timeout: UI_TIMEOUT_MS });
      const chat = dialog.getByRole('region', { name: /Chat/ });
      const terminal = dialog.getByRole('region', { name: /Terminal/ });
      const files = dialog.getByRole('region', { name: /Files/ });
      await expect(chat.getByRole('link').first().textContent()).resolves.toContain('Where does the walrus live?');
      await expect(terminal.getByRole('link').first().textContent()).resolves.toContain('The walrus test suite passed');
      await expect(files.getByRole('link').first().textContent()).resolves.toContain('src/zoo.ts:121');
      await saveScreenshotsInBothThemes(page, { name: 'find-results', viewport });
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        expect(seriousOnes(await axeViolations(page)), scheme).toEqual([]);
      }
      await useColorScheme(page, 'light');

      // The chat: the first message of 1,201, paged in, scrolled to and outlined.
      await chat.getByRole('link').first().click();
      const found = page.locator('.chat-row-found');
      await found.waitFor({ timeout: 20_000 });
      await expect(found.textContent()).resolves.toContain('Where does the walrus live?');
      expect(await found.isVisible()).toBe(true);
      await saveScreenshot(page, { name: 'find-chat', viewport });

      // The terminal: the line in the scrollback, scrolled to and lit.
      await (await openFind(page)).getByRole('region', { name: /Terminal/ }).getByRole('link').first().click();
      await page.waitForURL(/\/terminal\?find=/, { timeout: UI_TIMEOUT_MS });
      await page.locator('.terminal-moment').first().waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(page.locator('.xterm-rows').textContent()).resolves.toContain('The walrus test suite passed');
      await saveScreenshot(page, { name: 'find-terminal', viewport });

      // The file: opened at the line, outlined.
      await (await openFind(page)).getByRole('region', { name: /Files/ }).getByRole('link').first().click();
      const line = page.locator('.code-row-found');
      await line.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(line.textContent()).resolves.toContain("export const big = 'walrus';");
      expect(await line.isVisible()).toBe(true);
      await saveScreenshot(page, { name: 'find-file', viewport });
    }, JOURNEY_TIMEOUT_MS);
  }
});
