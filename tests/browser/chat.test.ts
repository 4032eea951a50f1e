// chat.test.ts: writing to claude from the browser. A real hub; a /cli socket plays the runner,
// which receives prompt:deliver and answers the way the real runner does (prompt:status, then the
// transcript's user line carrying the prompt id, then the reply).
//
//   composer ─prompt:send─► hub ─prompt:deliver─► runner ─prompt:status/message:append─► hub ─► tab
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Page } from 'playwright-core';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

type Delivery = { sessionId: string; promptId: string; text: string };

describe('chat: sending, delivery, stop', () => {
  const world = useBrowserWorld();

  async function openSession(viewport: ViewportName, title: string) {
    const token = await world.hub.createToken(`chat-${viewport}`);
    const { runner, sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/tether', launchKind: 'headless', title, status: 'idle' });
    const page = await world.signedInPage(viewport, token);
    await page.getByRole('link', { name: new RegExp(title) }).click();
    await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
    return { runner, sessionId, page };
  }

  /** What the real runner does once claude has the prompt: confirm it, then the transcript shows it. */
  async function deliver(runner: Socket, delivery: Delivery, reply: string) {
    expect((await emitAck(runner, 'prompt:status', { sessionId: delivery.sessionId, promptId: delivery.promptId, status: 'delivered' })).ok).toBe(true);
    const now = Date.now();
    const appended = await emitAck(runner, 'message:append', {
      sessionId: delivery.sessionId,
      messages: [
        { id: randomUUID(), role: 'user', content: [{ type: 'text', text: delivery.text }], createdAt: now, promptId: delivery.promptId },
        { id: randomUUID(), role: 'assistant', content: [{ type: 'text', text: reply }], createdAt: now + 1 },
      ],
    });
    expect(appended.ok).toBe(true);
  }

  function composer(page: Page) {
    return page.getByRole('textbox', { name: 'Message' });
  }

  it('phone: Enter is a newline, Send sends one multi-line prompt, it is delivered once', async () => {
    const { runner, sessionId, page } = await openSession('phone', 'Write the changelog');
    const box = composer(page);
    await box.click();
    await box.pressSequentially('Summarize the changes since v0.1');
    await box.press('Enter');
    await box.pressSequentially('- group them by package');
    await expect(box.inputValue()).resolves.toBe('Summarize the changes since v0.1\n- group them by package');
    const delivered = nextEvent<Delivery>(runner, 'prompt:deliver');
    await page.getByRole('button', { name: 'Send' }).click();
    const delivery = await delivered;
    expect(delivery).toMatchObject({ sessionId, text: 'Summarize the changes since v0.1\n- group them by package' });
    await expect(box.inputValue()).resolves.toBe('');
    // Until the transcript shows it, the message waits in a "Queued" bubble.
    const log = page.getByRole('log', { name: 'Chat' });
    await log.getByText('Queued').waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'chat-queued', viewport: 'phone' });

    await deliver(runner, delivery, 'Here is the changelog, grouped by package:\n\n- **hub**: login rate limit\n- **web**: approval sheet');
    await log.getByText('Here is the changelog, grouped by package:').waitFor({ timeout: UI_TIMEOUT_MS });
    await log.getByText('Queued').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await expect(log.getByText('Summarize the changes since v0.1', { exact: false }).count()).resolves.toBe(1);
    await saveScreenshot(page, { name: 'chat-delivered', viewport: 'phone' });
    await page.close();
  });

  it('desktop: Enter sends, Shift+Enter is a newline; Stop aborts the running turn; a returned prompt can be edited', async () => {
    const { runner, sessionId, page } = await openSession('desktop', 'Refactor the store');
    const box = composer(page);
    await box.click();
    await box.pressSequentially('Rename Store to SessionStore');
    await box.press('Shift+Enter');
    await box.pressSequentially('and update the imports');
    const delivered = nextEvent<Delivery>(runner, 'prompt:deliver');
    await box.press('Enter');
    const delivery = await delivered;
    expect(delivery.text).toBe('Rename Store to SessionStore\nand update the imports');
    await deliver(runner, delivery, 'Renaming now.');

    // A turn runs: Stop appears and sends session:abort.
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { status: 'thinking' } })).ok).toBe(true);
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor({ timeout: UI_TIMEOUT_MS });
    const aborted = nextEvent<{ sessionId: string }>(runner, 'session:abort');
    await stop.click();
    expect(await aborted).toEqual({ sessionId });

    // A prompt queued behind the aborted turn comes back: the user can edit and resend it.
    const second = nextEvent<Delivery>(runner, 'prompt:deliver');
    await box.fill('Also rename the tests');
    await box.press('Enter');
    const queued = await second;
    expect((await emitAck(runner, 'prompt:status', { sessionId, promptId: queued.promptId, status: 'returned', reason: 'turn stopped' })).ok).toBe(true);
    const log = page.getByRole('log', { name: 'Chat' });
    await log.getByText(/Not sent: the turn was stopped/).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'chat-returned', viewport: 'desktop' });
    await log.getByRole('button', { name: 'Edit' }).click();
    await expect(box.inputValue()).resolves.toBe('Also rename the tests');
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { status: 'idle' } })).ok).toBe(true);
    await stop.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await page.close();
  });
});
