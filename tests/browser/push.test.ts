// push.test.ts: the web app's side of web push. The tab tells the hub when it is on screen (so an
// approval while it is open is not pushed, and a turn that ends after it closed is); the service
// worker turns a push into a notification that opens the session; the account menu has the
// Notifications switch. (Chromium here has no push service to subscribe with, so the subscription
// is made over the API with test keys, as tests/e2e/web-push.test.ts does in detail.)
//
//   tab ─client:visibility─► hub ─(no visible tab)─► local push endpoint ─► decrypt
//   CDP ServiceWorker.deliverPushMessage ─► sw.ts push ─► showNotification
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '@tether/shared';
import { emitAck } from '../harness/hub.ts';
import { loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { createPushKeys, decryptPush, startPushEndpoint, type PushEndpoint } from '../harness/push-endpoint.ts';

describe('web push in the app', () => {
  const world = useBrowserWorld({ requires: 'sw.js' });
  let endpoint: PushEndpoint;

  beforeAll(() => {
    endpoint = startPushEndpoint();
  });

  afterAll(async () => {
    await endpoint?.stop();
  });

  it('phone: an open tab holds pushes back, a closed one lets them through; a push becomes a notification; the menu has the switch', async () => {
    const token = await world.hub.createToken('push-app');
    const keys = createPushKeys();
    const subscribed = await fetch(`${world.hub.url}/api/push/subscribe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subscription: { endpoint: `${endpoint.url}/sub/phone`, keys: { p256dh: keys.p256dh, auth: keys.auth } } }),
    });
    expect(subscribed.status).toBe(201);
    const { runner, sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/app', launchKind: 'headless', title: 'Release notes', status: 'idle' });

    const page = await world.browser.newPage({ viewport: 'phone' });
    await page.context().grantPermissions(['notifications'], { origin: world.hub.url });
    await loginWithQrLink(page, { hubUrl: world.hub.url, token });
    await page.getByText('Live').first().waitFor({ timeout: UI_TIMEOUT_MS });

    // The account menu's switch (Chromium here cannot reach a push service, so only its presence).
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemcheckbox', { name: /Notifications/ }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'account-menu-notifications', viewport: 'phone' });
    await page.keyboard.press('Escape');

    // The tab is on screen: an approval is not pushed.
    expect((await emitAck(runner, 'approval:request', { id: randomUUID(), sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'git push' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
    await page.getByRole('link', { name: /Release notes/ }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { status: 'thinking' } })).ok).toBe(true);

    // The service worker shows a hub push as a notification.
    const cdp = await page.context().newCDPSession(page);
    const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: Array<{ registrationId: string; scopeURL: string }> }) => registrations.push(...event.registrations));
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await cdp.send('ServiceWorker.enable');
    for (let i = 0; registrations.length === 0; i++) {
      if (i > 200) throw new Error('no service worker registration reported');
      await new Promise((r) => setTimeout(r, 10));
    }
    const message: PushMessage = { title: 'Release notes: allow Bash?', body: 'git push', url: `/sessions/${sessionId}`, tag: 'request:test', sessionId, kind: 'approval' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: world.hub.url, registrationId: registrations[0]!.registrationId, data: JSON.stringify(message) });
    // Poll with page.evaluate: waitForFunction treats the async predicate's Promise as truthy and
    // would return at once, before the service worker has shown anything.
    const readNotification = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        const list = await registration.getNotifications();
        return list.length > 0 ? { title: list[0]!.title, body: list[0]!.body, tag: list[0]!.tag, data: list[0]!.data as unknown } : null;
      });
    await expect.poll(readNotification, { timeout: UI_TIMEOUT_MS, interval: 50 }).not.toBeNull();
    expect(await readNotification()).toEqual({ title: message.title, body: 'git push', tag: 'request:test', data: { url: `/sessions/${sessionId}` } });

    // The tab closes; the turn ends: now the hub pushes, and the first push it sent is this one.
    await page.close();
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { status: 'idle' } })).ok).toBe(true);
    const push = await endpoint.next();
    expect(JSON.parse(decryptPush({ body: push.body, keys })) as PushMessage).toMatchObject({ kind: 'turn-ended', url: `/sessions/${sessionId}` });
  });
});
