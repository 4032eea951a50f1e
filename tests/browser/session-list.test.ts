// session-list.test.ts: the list at 390×844 and 1280×800: a search over title, folder and machine,
// the mark of a session with news this device has not read (it goes once the session is opened),
// and triage: a pinned session stays on top of its group on every device of the namespace, an
// archived one leaves the list for the Archived section and comes back (Unarchive, or Undo).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
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

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: a pinned session stays on top on every device; an archived one leaves the list and comes back`, async () => {
      const token = await world.hub.createToken(`triage-${viewport}`);
      const login = await world.runnerWithSession(token, { cwd: '/home/dev/src/web', launchKind: 'pty', title: 'Fix the login form', status: 'idle' });
      const notes = await world.runnerWithSession(token, { cwd: '/home/dev/src/docs', launchKind: 'headless', title: 'Write the release notes', status: 'idle' });
      const old = await world.runnerWithSession(token, { cwd: '/home/dev/src/lab', launchKind: 'pty', title: 'Old experiment', status: 'idle' });
      expect((await emitAck(old.runner, 'session:end', { sessionId: old.sessionId, status: 'ended', exitCode: 0 })).ok).toBe(true);
      const phone = await world.signedInPage(viewport, token);
      // The same person on another device (and in the dark theme): it follows every change live.
      const other = await world.browser.newPage({ viewport, colorScheme: 'dark' });
      await loginWithQrLink(other, { hubUrl: world.hub.url, token });
      const firstRowId = (page: typeof phone) => page.locator('.session-rows').first().locator('a[data-session-id]').first().getAttribute('data-session-id');
      const row = (page: typeof phone, id: string) => page.locator(`a[data-session-id="${id}"]`);
      for (const page of [phone, other]) await row(page, old.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });
      // Newest live first before any pin.
      expect(await firstRowId(phone)).toBe(notes.sessionId);

      await phone.getByRole('button', { name: 'Actions for Fix the login form' }).click();
      const menu = phone.getByRole('menu', { name: 'Actions for Fix the login form' });
      // A running session cannot be archived, and says why.
      const archiveLive = menu.getByRole('menuitem', { name: 'Archive' });
      expect(await archiveLive.getAttribute('aria-disabled')).toBe('true');
      await menu.getByText('End it first').waitFor({ timeout: UI_TIMEOUT_MS });
      // Opened with focus on its first item.
      expect(await phone.evaluate(() => document.activeElement?.textContent)).toBe('Pin to top');
      await saveScreenshot(phone, { name: 'session-list-row-menu', viewport });
      await menu.getByRole('menuitem', { name: 'Pin to top' }).click();
      await phone.locator(`a[data-session-id="${login.sessionId}"][data-pinned="yes"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await firstRowId(phone)).toBe(login.sessionId);
      await expect(row(phone, login.sessionId).textContent()).resolves.toContain('(pinned)');
      expect((await row(phone, login.sessionId).locator('.pin-mark').boundingBox())?.width ?? 0).toBeGreaterThan(8);
      await other.locator(`a[data-session-id="${login.sessionId}"][data-pinned="yes"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await firstRowId(other)).toBe(login.sessionId);

      // News in another session does not move the pinned one off the top.
      await say(notes.runner, notes.sessionId, 'The notes are drafted.');
      await phone.locator(`a[data-session-id="${notes.sessionId}"][data-unread="yes"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await firstRowId(phone)).toBe(login.sessionId);
      await saveScreenshot(phone, { name: 'session-list-pinned', viewport });
      await saveScreenshot(other, { name: 'session-list-pinned-dark', viewport });

      // Archive the ended session: it leaves the list on both devices, Undo is offered and focused.
      await phone.getByRole('button', { name: 'Actions for Old experiment' }).click();
      await phone.getByRole('menu', { name: 'Actions for Old experiment' }).getByRole('menuitem', { name: 'Archive' }).click();
      for (const page of [phone, other]) await row(page, old.sessionId).waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      await phone.getByRole('status').filter({ hasText: 'Archived “Old experiment”.' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await phone.evaluate(() => document.activeElement?.textContent)).toBe('Undo');
      const toggle = (page: typeof phone) => page.getByRole('button', { name: /^Archived/ });
      await expect(toggle(other).getAttribute('aria-expanded')).resolves.toBe('false');
      await saveScreenshot(phone, { name: 'session-list-archived-notice', viewport });

      // Undo brings it back; archive it again from the other device.
      await phone.getByRole('button', { name: 'Undo' }).click();
      for (const page of [phone, other]) await row(page, old.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });
      await other.getByRole('button', { name: 'Actions for Old experiment' }).click();
      await other.getByRole('menu', { name: 'Actions for Old experiment' }).getByRole('menuitem', { name: 'Archive' }).click();
      for (const page of [phone, other]) await row(page, old.sessionId).waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });

      // The Archived section shows it, with Unarchive.
      await toggle(phone).click();
      await row(phone, old.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await phone.locator('#archived-rows a[data-session-id]').count()).toBe(1);
      await toggle(other).click();
      await row(other, old.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(phone, { name: 'session-list-archived', viewport });
      await saveScreenshot(other, { name: 'session-list-archived-dark', viewport });
      await phone.getByRole('button', { name: 'Actions for Old experiment' }).click();
      await phone.getByRole('menu', { name: 'Actions for Old experiment' }).getByRole('menuitem', { name: 'Unarchive' }).click();
      for (const page of [phone, other]) {
        await toggle(page).waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
        // Back in its group, below the live sessions (it ended).
        await page.locator(`.session-group:not(.archived-group) a[data-session-id="${old.sessionId}"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      }

      // A reload keeps every mark: they live on the hub, not in this tab.
      await phone.reload();
      await row(phone, login.sessionId).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await firstRowId(phone)).toBe(login.sessionId);
      expect(await row(phone, login.sessionId).getAttribute('data-pinned')).toBe('yes');
      await phone.close();
      await other.close();
    });
  }
});
