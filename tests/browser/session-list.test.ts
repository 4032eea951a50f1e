// session-list.test.ts: the list at 390×844: a search over title, folder and machine, and the mark
// of a session with news this device has not read (it goes once the session is opened).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { emitAck } from '../harness/hub.ts';

describe('session list', () => {
  const world = useBrowserWorld();

  async function say(runner: Socket, sessionId: string, text: string) {
    const now = Date.now();
    expect((await emitAck(runner, 'message:append', { sessionId, messages: [{ id: randomUUID(), role: 'assistant', content: [{ type: 'text', text }], createdAt: now }] })).ok).toBe(true);
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: search narrows the list; news marks a session unread until it is opened`, async () => {
      const token = await world.hub.createToken(`list-${viewport}`);
      const login = await world.runnerWithSession(token, { cwd: '/home/dev/src/web', launchKind: 'pty', title: 'Fix the login form', status: 'idle' });
      const notes = await world.runnerWithSession(token, { cwd: '/home/dev/src/docs', launchKind: 'headless', title: 'Write the release notes', status: 'idle' });
      const page = await world.signedInPage(viewport, token);
      const row = (id: string) => page.locator(`a[data-session-id="${id}"]`);
      await row(login.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });
      await row(notes.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });

      const search = page.getByRole('searchbox', { name: 'Search sessions' });
      await search.fill('release');
      await row(login.sessionId).waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      expect(await row(notes.sessionId).isVisible()).toBe(true);
      await search.fill('src/web');
      await row(notes.sessionId).waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      await search.fill('nothing like it');
      await page.getByRole('status').filter({ hasText: 'No session matches' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await search.fill('');
      await row(login.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });

      // What was there when the list first showed counts as read.
      expect(await page.locator('[data-unread="yes"]').count()).toBe(0);
      await say(notes.runner, notes.sessionId, 'The notes are drafted.');
      await page.locator(`a[data-session-id="${notes.sessionId}"][data-unread="yes"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(row(notes.sessionId).textContent()).resolves.toContain('(new activity)');
      expect(await row(login.sessionId).getAttribute('data-unread')).toBeNull();
      // The mark is drawn, not only in the markup.
      expect((await row(notes.sessionId).locator('.unread-dot').boundingBox())?.width ?? 0).toBeGreaterThan(4);
      await saveScreenshot(page, { name: 'session-list-unread', viewport });

      await row(notes.sessionId).click();
      await page.getByRole('log', { name: 'Chat' }).getByText('The notes are drafted.').waitFor({ timeout: UI_TIMEOUT_MS });
      // News while it is open is read too.
      await say(notes.runner, notes.sessionId, 'And proofread.');
      await page.getByRole('log', { name: 'Chat' }).getByText('And proofread.').waitFor({ timeout: UI_TIMEOUT_MS });
      if (viewport === 'phone') await page.getByRole('link', { name: 'Back to sessions' }).click();
      await row(notes.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await row(notes.sessionId).getAttribute('data-unread')).toBeNull();
      // A reload keeps what this device read.
      await page.reload();
      await row(notes.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await page.locator('[data-unread="yes"]').count()).toBe(0);
      await page.close();
    });
  }
});
