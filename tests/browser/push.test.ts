// push.test.ts: the web app's side of web push. The tab tells the hub when it is on screen (so an
// approval while it is open is not pushed, and a turn that ends after it closed is); the service
// worker turns a push into a notification that opens the session; the account menu has the
// Notifications switch. (Chromium here has no push service to subscribe with, so the subscription
// is made over the API with test keys, as tests/e2e/web-push.test.ts does in detail.)
// A notification's buttons: the hub's real payload (decrypted from the local push endpoint) is
// delivered to the service worker, and a NotificationEvent is dispatched there for each button.
//
//   tab ─client:visibility─► hub ─(no visible tab)─► local push endpoint ─► decrypt
//   PushEvent dispatched in the worker ─► sw.ts push ─► showNotification
//   hub payload ─► PushEvent in the worker ─► notification ─► NotificationEvent (a button)
//     ─POST /api/push/action─► hub ─► runner: approval:answered
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Worker } from 'playwright-core';
import type { PushMessage, PushPayload, Resolution } from '@tether/shared';
import { emitAck } from '../harness/hub.ts';
import { loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { createPushKeys, decryptPush, startPushEndpoint, type PushEndpoint, type PushKeys } from '../harness/push-endpoint.ts';

/** The page's service worker, once active: Playwright's handle to evaluate in it. */
async function serviceWorkerOf(page: Page): Promise<{ worker: Worker }> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const worker = page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent('serviceworker', { timeout: UI_TIMEOUT_MS }));
  return { worker };
}

/** A push event as the browser fires it for a delivered message, dispatched in the worker itself
 *  (with CDP's deliverPushMessage a notification now and then never showed on a loaded box; the cause was not found). A synthetic
 *  event may not extend itself (waitUntil needs a trusted event), so its promises are awaited here. */
async function dispatchPush(worker: Worker, payload: PushPayload): Promise<void> {
  await worker.evaluate(async (data) => {
    const Ctor = (self as unknown as { PushEvent: new (type: string, init: { data: string }) => Event }).PushEvent;
    const event = new Ctor('push', { data });
    const pending: Array<Promise<unknown>> = [];
    Object.defineProperty(event, 'waitUntil', { value: (promise: Promise<unknown>) => pending.push(promise) });
    self.dispatchEvent(event);
    await Promise.all(pending);
  }, JSON.stringify(payload));
}

describe('web push in the app', () => {
  const world = useBrowserWorld({ requires: 'sw.js', hub: { devPushEndpoints: true } });
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
    const { worker } = await serviceWorkerOf(page);
    const message: PushMessage = { title: 'Release notes: allow Bash?', body: 'git push', url: `/sessions/${sessionId}`, tag: 'request:test', sessionId, kind: 'approval' };
    await dispatchPush(worker, message);
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

  for (const viewport of ['phone', 'desktop'] as const satisfies readonly ViewportName[]) {
    it(`${viewport}: Allow and Deny, a question's options, a plan's Accept / Keep planning and a dialog's options answer from the notification without opening the app; replays and stale tokens change nothing; Open and iOS open the app; answering elsewhere closes it`, async () => {
      const namespace = `push-actions-${viewport}`;
      const token = await world.hub.createToken(namespace, 'my phone');
      const keys: PushKeys = createPushKeys();
      const path = `/sub/actions-${viewport}`;
      const subscribed = await fetch(`${world.hub.url}/api/push/subscribe`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subscription: { endpoint: `${endpoint.url}${path}`, keys: { p256dh: keys.p256dh, auth: keys.auth } }, device: 'Chrome on Android' }),
      });
      expect(subscribed.status).toBe(201);
      const { runner, sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/api', launchKind: 'pty', title: 'API server', status: 'idle' });
      const answered: Array<{ requestId: string; answer: { decision: string } }> = [];
      runner.on('approval:answered', (event: { requestId: string; answer: { decision: string } }) => answered.push(event));

      const page = await world.browser.newPage({ viewport });
      await page.context().grantPermissions(['notifications'], { origin: world.hub.url });
      await loginWithQrLink(page, { hubUrl: world.hub.url, token });
      await page.getByRole('link', { name: /API server/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      const sw = await serviceWorkerOf(page);
      // The app leaves (same origin, so the worker and its notifications stay): no tab on screen now.
      await page.goto(`${world.hub.url}/healthz`);

      // No user gesture here, so the worker's window calls are recorded instead of made.
      await sw.worker.evaluate(() => {
        const scope = self as unknown as { opened: string[]; clients: { matchAll: unknown; openWindow: unknown } };
        scope.opened = [];
        scope.clients.matchAll = async () => [];
        scope.clients.openWindow = async (url: string) => {
          scope.opened.push(url);
          return null;
        };
      });
      const opened = () => sw.worker.evaluate(() => [...(self as unknown as { opened: string[] }).opened]);
      const shown = () =>
        sw.worker.evaluate(async () =>
          (await (self as unknown as ServiceWorkerGlobalScopeLike).registration.getNotifications()).map((n) => ({
            tag: n.tag,
            title: n.title,
            actions: (n as Notification & { actions: Array<{ action: string; title: string }> }).actions.map((a) => `${a.action}:${a.title}`),
          })),
        );
      type ServiceWorkerGlobalScopeLike = { registration: { getNotifications(filter?: { tag?: string }): Promise<Notification[]> } };
      const nextPush = async (): Promise<PushPayload> => {
        for (;;) {
          const push = await endpoint.next();
          if (push.path === path) return JSON.parse(decryptPush({ body: push.body, keys })) as PushPayload;
        }
      };
      const deliver = (payload: PushPayload) => dispatchPush(sw.worker, payload);
      /** A tap on `action` ('' = the notification itself), as the browser would dispatch it. */
      const tap = (tag: string, action: string) =>
        sw.worker.evaluate(
          async ({ tag, action }) => {
            const scope = self as unknown as ServiceWorkerGlobalScopeLike & EventTarget;
            const [notification] = await scope.registration.getNotifications({ tag });
            if (!notification) throw new Error(`no notification ${tag}`);
            const Ctor = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event }).NotificationEvent;
            const event = new Ctor('notificationclick', { notification, action });
            // A synthetic event may not extend itself (waitUntil needs a trusted event): collect instead.
            const pending: Array<Promise<unknown>> = [];
            Object.defineProperty(event, 'waitUntil', { value: (promise: Promise<unknown>) => pending.push(promise) });
            scope.dispatchEvent(event);
            await Promise.all(pending);
          },
          { tag, action },
        );
      const ask = async (toolName: string, toolInput: Record<string, unknown>, kind: 'permission' | 'question' | 'plan' | 'dialog' = 'permission') => {
        const id = randomUUID();
        expect((await emitAck(runner, 'approval:request', { id, sessionId, kind, toolName, toolInput, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
        const push = (await nextPush()) as PushMessage;
        expect(push.request?.id).toBe(id);
        await deliver(push);
        await expect
          .poll(async () => (await shown()).map((n) => n.tag), { timeout: UI_TIMEOUT_MS, interval: 50, message: `the ${toolName} notification is shown` })
          .toContain(push.tag);
        return { id, push };
      };
      const audit = async () => ((await (await fetch(`${world.hub.url}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { audit: Resolution[] }).audit;

      // 1. Allow on a Bash approval: answered, the notification gone, no app opened.
      const bash = await ask('Bash', { command: 'npm run migrate' });
      expect((await shown()).find((n) => n.tag === bash.push.tag)).toEqual({ tag: bash.push.tag, title: 'API server: allow Bash?', actions: ['allow:Allow', 'deny:Deny'] });
      await tap(bash.push.tag, 'allow');
      // The tap waited for the hub's answer; the runner hears it over its socket just after.
      await expect.poll(() => answered, { timeout: UI_TIMEOUT_MS }).toEqual([{ sessionId, requestId: bash.id, answer: { decision: 'allow' } }]);
      expect(await shown()).toEqual([]);
      expect(await opened()).toEqual([]);
      const [allowedEntry] = await audit();
      expect(allowedEntry).toMatchObject({ requestId: bash.id, answer: { decision: 'allow' }, answeredBy: 'my phone', device: 'notification@Chrome on Android' });

      // 2. The same push again (a replayed token): refused, nothing changed; the app opens instead.
      await deliver(bash.push);
      await expect.poll(async () => (await shown()).length, { timeout: UI_TIMEOUT_MS, interval: 50 }).toBe(1);
      await tap(bash.push.tag, 'allow');
      expect(answered).toHaveLength(1);
      expect(await audit()).toEqual([allowedEntry]);
      expect(await opened()).toEqual([`/sessions/${sessionId}`]);

      // 3. Deny on a Write approval.
      const write = await ask('Write', { file_path: '/home/dev/src/api/schema.sql' });
      await tap(write.push.tag, 'deny');
      await expect.poll(() => answered.at(-1), { timeout: UI_TIMEOUT_MS }).toEqual({ sessionId, requestId: write.id, answer: { decision: 'deny' } });
      expect(await opened()).toHaveLength(1);

      // 4. Answered on another device: a close push (same tag) closes the stale notification; its
      //    token, tapped anyway (the close push lost the race), is refused with nothing changed.
      const edit = await ask('Edit', { file_path: '/home/dev/src/api/server.ts' });
      const laptop = await world.connect({ nsp: '/web', token, device: 'Firefox on Linux' });
      const elsewhere = await emitAck<{ resolution: Resolution }>(laptop, 'approval:answer', { requestId: edit.id, answer: { decision: 'deny' } });
      if (!elsewhere.ok) throw new Error(elsewhere.error);
      const close = await nextPush();
      expect(close).toEqual({ kind: 'close', tag: edit.push.tag });
      await deliver(close);
      await expect.poll(async () => (await shown()).length, { timeout: UI_TIMEOUT_MS, interval: 50 }).toBe(0);
      await deliver(edit.push);
      await expect.poll(async () => (await shown()).length, { timeout: UI_TIMEOUT_MS, interval: 50 }).toBe(1);
      await tap(edit.push.tag, 'allow');
      expect((await audit()).find((r) => r.requestId === edit.id)).toEqual(elsewhere.resolution);
      expect(answered.filter((a) => a.requestId === edit.id)).toEqual([{ sessionId, requestId: edit.id, answer: { decision: 'deny' } }]);
      expect(await opened()).toHaveLength(2);

      // 5. A single-choice question answers from its options; one whose options do not all fit
      //    (Chromium shows 2 buttons) offers Open alone, which opens the app and answers nothing.
      const question = await ask('AskUserQuestion', { questions: [{ question: 'Which database?', header: 'DB', options: [{ label: 'Postgres' }, { label: 'SQLite' }], multiSelect: false }] }, 'question');
      expect((await shown()).find((n) => n.tag === question.push.tag)?.actions).toEqual(['option-1:Postgres', 'option-2:SQLite']);
      await tap(question.push.tag, 'option-2');
      await expect.poll(() => answered.at(-1), { timeout: UI_TIMEOUT_MS }).toEqual({ sessionId, requestId: question.id, answer: { decision: 'allow', answers: { 'Which database?': 'SQLite' } } });
      const wide = await ask('AskUserQuestion', { questions: [{ question: 'Which region?', header: 'Region', options: [{ label: 'us-east' }, { label: 'eu-west' }, { label: 'ap-south' }], multiSelect: false }] }, 'question');
      expect((await shown()).find((n) => n.tag === wide.push.tag)?.actions).toEqual(['open:Open']);
      await tap(wide.push.tag, 'open');
      expect(await opened()).toEqual([`/sessions/${sessionId}`, `/sessions/${sessionId}`, `/sessions/${sessionId}`]);
      expect(answered.some((a) => a.requestId === wide.id)).toBe(false);

      // A plan: Accept (edits still asked) or Keep planning. A dialog: its options.
      const plan = await ask('ExitPlanMode', { plan: '1. Add the index\n2. Run the migration' }, 'plan');
      expect((await shown()).find((n) => n.tag === plan.push.tag)?.actions).toEqual(['accept:Accept', 'keep-planning:Keep planning']);
      await tap(plan.push.tag, 'keep-planning');
      await expect.poll(() => answered.at(-1), { timeout: UI_TIMEOUT_MS }).toEqual({ sessionId, requestId: plan.id, answer: { decision: 'deny' } });
      const dialog = await ask('Dialog', { title: 'Use this MCP server?', text: ['Use this MCP server?'], options: [{ key: '1', label: 'Use it' }, { key: '2', label: 'Continue without it' }] }, 'dialog');
      expect((await shown()).find((n) => n.tag === dialog.push.tag)?.actions).toEqual(['option-1:Use it', 'option-2:Continue without it']);
      await tap(dialog.push.tag, 'option-1');
      await expect.poll(() => answered.at(-1), { timeout: UI_TIMEOUT_MS }).toEqual({ sessionId, requestId: dialog.id, answer: { decision: 'allow', choice: '1' } });
      expect(await opened()).toHaveLength(3);

      // 6. A browser without notification buttons (iOS: maxActions 0): no buttons, a tap opens the app.
      await sw.worker.evaluate(() => Object.defineProperty((self as unknown as { Notification: object }).Notification, 'maxActions', { get: () => 0, configurable: true }));
      const ios = await ask('Bash', { command: 'make deploy' });
      expect((await shown()).find((n) => n.tag === ios.push.tag)?.actions).toEqual([]);
      await tap(ios.push.tag, '');
      expect(await opened()).toHaveLength(4);
      expect(answered.some((a) => a.requestId === ios.id)).toBe(false);

      // The app's approval history says which answers came from a notification.
      await page.goto(`${world.hub.url}/sessions/${sessionId}`);
      await page.getByRole('button', { name: 'Approval history' }).click();
      const rows = page.getByRole('dialog', { name: 'Approval history' }).getByRole('listitem');
      await rows.nth(5).waitFor({ timeout: UI_TIMEOUT_MS });
      const texts = await rows.allTextContents();
      for (const row of texts.slice(0, 3)) expect(row).toMatch(/my phone.*from a notification · Chrome on Android/);
      expect(texts[3]).toMatch(/Edit.*Denied.*my phone.*Firefox on Linux/);
      expect(texts[4]).toMatch(/Write.*Denied.*my phone.*from a notification · Chrome on Android/);
      expect(texts[5]).toMatch(/Bash.*Allowed.*my phone.*from a notification · Chrome on Android/);
      await saveScreenshot(page, { name: 'push-history-from-notification', viewport });
      await page.close();
    });
  }
});
