// A PTY Codex's patch on the phone, at a phone and a desktop: the approval sheet draws the files and
// their diffs (the FileChanges tether reads from Codex's apply_patch hook: tests/e2e/
// file-change-diffs.test.ts), and once applied the chat's card of the call unfolds to the same diff.
// A real hub; a /cli socket plays the runner, registering a Codex session with Codex's capabilities.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Answer } from '@tether/shared';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';

/** What tether's Codex hook dialect makes of `apply_patch` for the phone. */
const CHANGES = [
  { path: 'src/greeting.ts', kind: 'update', movePath: null, diff: '@@\n export function greeting(name: string) {\n-  return `hello ${name}`;\n+  return `Hello, ${name}!`;\n }' },
  { path: 'src/farewell.ts', kind: 'add', movePath: null, diff: '+export const farewell = (name: string) => `Bye, ${name}.`;' },
];

describe('a PTY Codex patch from the browser', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`at ${viewport}: asked as files and diffs, allowed, then the chat's card unfolds to the same diff; no serious axe findings in either theme`, async () => {
      const token = await world.hub.createToken(`codex-patch-${viewport}`);
      const title = 'Friendlier greeting';
      const { runner, sessionId } = await world.runnerWithSession(token, { agent: 'codex', cwd: '/home/dev/src/tether', launchKind: 'pty', title, status: 'idle' });
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: new RegExp(title) }).click();
      await page.getByRole('heading', { name: title, level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });

      const requestId = randomUUID();
      expect((await emitAck(runner, 'approval:request', { id: requestId, sessionId, kind: 'permission', toolName: 'FileChanges', toolInput: { changes: CHANGES }, toolUseId: 'call_patch1', createdAt: Date.now() })).ok).toBe(true);
      await emitAck(runner, 'session:update', { sessionId, patch: { status: 'waiting' } });
      const sheet = page.getByRole('dialog', { name: 'Allow these file changes?' });
      await sheet.waitFor({ timeout: UI_TIMEOUT_MS });
      await sheet.getByText('2 files: 1 new, 1 edited').waitFor({ timeout: UI_TIMEOUT_MS });
      const edit = sheet.getByRole('region', { name: 'Edit src/greeting.ts' });
      await expect(edit.locator('.diff-del').textContent()).resolves.toContain('return `hello ${name}`;');
      await expect(edit.locator('.diff-add').textContent()).resolves.toContain('return `Hello, ${name}!`;');
      await expect(sheet.textContent()).resolves.not.toContain('*** Begin Patch');
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'codex-patch-approval', viewport })).toEqual([]);
      const allowed = nextEvent<{ requestId: string; answer: Answer }>(runner, 'approval:answered');
      await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
      expect(await allowed).toMatchObject({ requestId, answer: { decision: 'allow' } });
      await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });

      // The applied patch in the chat, as Codex's rollout gives it (FileChanges, its result).
      const now = Date.now();
      await emitAck(runner, 'session:update', { sessionId, patch: { status: 'idle' } });
      const appended = await emitAck(runner, 'message:append', {
        sessionId,
        messages: [
          { id: randomUUID(), role: 'assistant', content: [{ type: 'tool_use', id: 'call_patch1', name: 'FileChanges', input: { changes: CHANGES } }], createdAt: now },
          { id: randomUUID(), role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_patch1', content: 'Success. Updated the following files:\nM src/greeting.ts\nA src/farewell.ts', isError: false }], createdAt: now + 1 },
          { id: randomUUID(), role: 'assistant', content: [{ type: 'text', text: 'The greeting is friendlier now.' }], createdAt: now + 2 },
        ],
      });
      expect(appended.ok).toBe(true);
      const chat = page.getByRole('log', { name: 'Chat' });
      const card = chat.locator('[data-tool="FileChanges"]');
      await card.waitFor({ timeout: UI_TIMEOUT_MS });
      // Folded, the card names the files, not the patch's JSON.
      await expect(card.locator('.tool-summary').textContent()).resolves.toBe('src/greeting.ts, src/farewell.ts');
      await card.getByRole('button', { expanded: false }).first().click();
      const changed = card.getByRole('region', { name: 'Edit src/greeting.ts' });
      await expect(changed.locator('.diff-add').textContent()).resolves.toContain('return `Hello, ${name}!`;');
      await card.getByRole('region', { name: 'Add src/farewell.ts' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await card.scrollIntoViewIfNeeded();
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'codex-patch-chat', viewport })).toEqual([]);
      await page.close();
    });
  }
});
