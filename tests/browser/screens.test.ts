// screens.test.ts: the other size of each screen added with the windowed chat, share links and
// notifications, so that every new screen has a 390×844 and a 1280×800 screenshot to look at
// (the journeys themselves run at the size that matters most for them).
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import { launchBrowser, loginWithQrLink, saveScreenshot, seedLongChat, UI_TIMEOUT_MS, type BrowserHandle } from '../harness/browser.ts';

const WEB_DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'web', 'dist');

describe('screens at the other size', () => {
  let hub: HubHandle;
  let browser: BrowserHandle;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error('web/dist is missing: build the web app first (cd web && bun run build).');
    hub = await startHub({ webDist: WEB_DIST });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await browser?.stop();
    await hub?.stop();
  });

  it('desktop long chat, share panel on a phone, the share page and the account menu on a desktop', async () => {
    const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
    sockets.push(runner);
    const sessionId = randomUUID();
    expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/home/dev/src/big', launchKind: 'pty', title: 'Ten thousand messages', status: 'idle', model: 'claude-opus-4-1-20250805' })).ok).toBe(true);
    const seeded = seedLongChat({ store: hub.store, namespace: hub.namespace, sessionId, count: 10_000 });

    const desk = await browser.newPage({ viewport: 'desktop' });
    await loginWithQrLink(desk, { hubUrl: hub.url, token: hub.token });
    await desk.getByRole('link', { name: /Ten thousand messages/ }).click();
    await desk.getByRole('log', { name: 'Chat' }).getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(desk, { name: 'chat-10k-end', viewport: 'desktop' });
    await desk.getByRole('button', { name: 'Account' }).click();
    await desk.getByRole('menuitemcheckbox', { name: /Notifications/ }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(desk, { name: 'account-menu-notifications', viewport: 'desktop' });
    await desk.keyboard.press('Escape');

    const phone = await browser.newPage({ viewport: 'phone' });
    await loginWithQrLink(phone, { hubUrl: hub.url, token: hub.token });
    await phone.getByRole('link', { name: /Ten thousand messages/ }).click();
    await phone.getByRole('button', { name: 'Share read-only' }).click();
    const panel = phone.getByRole('dialog', { name: 'Share read-only' });
    await panel.getByRole('button', { name: 'Create link' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(phone, { name: 'share-panel-choose', viewport: 'phone' });
    await panel.getByRole('button', { name: 'Create link' }).click();
    const url = await panel.getByRole('textbox', { name: 'Share link' }).inputValue();
    await saveScreenshot(phone, { name: 'share-panel', viewport: 'phone' });

    const viewer = await browser.newPage({ viewport: 'desktop' });
    await viewer.goto(url);
    await viewer.getByRole('log', { name: 'Chat' }).getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(viewer, { name: 'share-chat', viewport: 'desktop' });
    await viewer.goto(`${hub.url}/share/aaaa.bbbb.cccc`);
    await viewer.getByRole('heading', { name: 'Link not available' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(viewer, { name: 'share-expired', viewport: 'desktop' });
    for (const page of [desk, phone, viewer]) await page.close();
  });
});
