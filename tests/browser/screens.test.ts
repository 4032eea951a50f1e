// screens.test.ts: the other size of each screen added with the windowed chat, share links and
// notifications, so that every new screen has a 390×844 and a 1280×800 screenshot to look at
// (the journeys themselves run at the size that matters most for them).
import { describe, it } from 'vitest';
import { saveScreenshot, seedLongChat, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('screens at the other size', () => {
  const world = useBrowserWorld();

  it('desktop long chat, share panel on a phone, the share page and the account menu on a desktop', async () => {
    const { sessionId } = await world.runnerWithSession(world.hub.token, { cwd: '/home/dev/src/big', launchKind: 'pty', title: 'Ten thousand messages', status: 'idle', model: 'claude-opus-4-1-20250805' });
    const seeded = await seedLongChat({ store: world.hub.store, namespace: world.hub.namespace, sessionId, count: 10_000 });

    const desk = await world.signedInPage('desktop', world.hub.token);
    await desk.getByRole('link', { name: /Ten thousand messages/ }).click();
    await desk.getByRole('log', { name: 'Chat' }).getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(desk, { name: 'chat-10k-end', viewport: 'desktop' });
    await desk.getByRole('button', { name: 'Account' }).click();
    await desk.getByRole('menuitemcheckbox', { name: /Notifications/ }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(desk, { name: 'account-menu-notifications', viewport: 'desktop' });
    await desk.keyboard.press('Escape');

    const phone = await world.signedInPage('phone', world.hub.token);
    await phone.getByRole('link', { name: /Ten thousand messages/ }).click();
    await phone.getByRole('button', { name: 'Share read-only' }).click();
    const panel = phone.getByRole('dialog', { name: 'Share read-only' });
    await panel.getByRole('button', { name: 'Create link' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(phone, { name: 'share-panel-choose', viewport: 'phone' });
    await panel.getByRole('button', { name: 'Create link' }).click();
    const url = await panel.getByRole('textbox', { name: 'Share link' }).inputValue();
    await saveScreenshot(phone, { name: 'share-panel', viewport: 'phone' });

    const viewer = await world.browser.newPage({ viewport: 'desktop' });
    await viewer.goto(url);
    await viewer.getByRole('log', { name: 'Chat' }).getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(viewer, { name: 'share-chat', viewport: 'desktop' });
    await viewer.goto(`${world.hub.url}/share/aaaa.bbbb.cccc`);
    await viewer.getByRole('heading', { name: 'Link not available' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(viewer, { name: 'share-expired', viewport: 'desktop' });
    for (const page of [desk, phone, viewer]) await page.close();
  });
});
