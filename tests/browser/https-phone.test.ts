// https-phone.test.ts: a phone gets in over real HTTPS, the way docs/deploy.md sets a hub up: the
// real `tether hub` behind Caddy, whose certificate an ACME CA (pebble) issued after validating
// the name over TLS-ALPN-01; Chromium at 390×844 trusts only that CA's root (an NSS db), never
// "ignore certificate errors". `tether hub --public-url` checks its URL through Caddy (the TLS gate)
// and prints a one-time `#pair=` link; the phone opens it (a second browser cannot); the page is a
// secure context with its service worker; Notifications go on from the account menu; with the screen off
// an approval is pushed; opened from that push it is answered, and the hub records the answer.
// A hub without pebble's root in its trust store shows no link, and says why.
//
//   chromium ─https://tether.test (MAP → 127.0.0.1)─► caddy ─http─► tether hub ◄─/cli socket─ test (runner)
//   hub ─web push (aes128gcm, VAPID)─► local push endpoint (push-endpoint.ts) ─► decrypted here
//
// Chromium here cannot subscribe to a real push service (offline; headless refuses with "permission
// denied"), so the page's PushManager is replaced by a stand-in that hands out a subscription to the
// suite's local push endpoint with keys this test holds. Everything around it is the app's own
// path: the switch, the permission, the hub's VAPID key, POST /api/push/subscribe through Caddy.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, WebSocket } from 'playwright-core';
import type { PushMessage, Resolution } from '@tether/shared';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { requireBuiltWeb } from '../harness/browser-world.ts';
import { connectSocket, emitAck } from '../harness/hub.ts';
import { createPushKeys, decryptPush, startPushEndpoint, type PushEndpoint, type PushKeys } from '../harness/push-endpoint.ts';
import { startTlsWorld, type TlsWorld } from '../harness/tls-world.ts';
import { allowCommandInSheet } from '../harness/approval-sheet.ts';

const STANDIN_KEY = '__tetherTestPushSubscription';

/** The browser's push service, replaced in the page: subscribe() returns a subscription to
 *  `endpoint` with the test's keys, remembered in localStorage so a later page sees it. */
async function installPushStandIn(page: Page, options: { endpoint: string; keys: PushKeys }): Promise<void> {
  await page.context().addInitScript(
    ({ endpoint, p256dh, auth, storageKey }) => {
      type Saved = { endpoint: string; applicationServerKey: string };
      const subscription = (saved: Saved) => ({
        endpoint: saved.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: Uint8Array.from(atob(saved.applicationServerKey), (c) => c.charCodeAt(0)).buffer },
        getKey: () => null,
        toJSON: () => ({ endpoint: saved.endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => {
          localStorage.removeItem(storageKey);
          return true;
        },
      });
      const manager = PushManager.prototype as unknown as Record<string, unknown>;
      manager.getSubscription = async () => {
        const saved = localStorage.getItem(storageKey);
        return saved ? subscription(JSON.parse(saved) as Saved) : null;
      };
      manager.subscribe = async (init: { applicationServerKey: ArrayBuffer | Uint8Array }) => {
        if (Notification.permission !== 'granted') throw new DOMException('Registration failed - permission denied', 'NotAllowedError');
        const bytes = new Uint8Array(init.applicationServerKey instanceof ArrayBuffer ? init.applicationServerKey : init.applicationServerKey.buffer);
        const saved: Saved = { endpoint, applicationServerKey: btoa(String.fromCharCode(...bytes)) };
        localStorage.setItem(storageKey, JSON.stringify(saved));
        return subscription(saved);
      };
    },
    { endpoint: options.endpoint, p256dh: options.keys.p256dh, auth: options.keys.auth, storageKey: STANDIN_KEY },
  );
}

/** The page's WebSockets (socket.io's), for screenOff. */
const sockets = new WeakMap<Page, WebSocket[]>();
function trackSockets(page: Page): void {
  sockets.set(page, []);
  page.on('websocket', (ws) => sockets.get(page)!.push(ws));
}

/** The screen goes off: the app reports `client:visibility {visible:false}`; resolves once the hub
 *  acked it (read from the WebSocket frames), so the hub's push decision cannot race it. */
async function screenOff(page: Page): Promise<void> {
  const acked = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the hub never acked client:visibility hidden')), UI_TIMEOUT_MS);
    let ackId: string | null = null;
    for (const ws of sockets.get(page) ?? []) {
      ws.on('framesent', ({ payload }) => {
        const match = /^42\/web,(\d+)\["client:visibility",\{"visible":false\}\]$/.exec(String(payload));
        if (match) ackId = match[1]!;
      });
      ws.on('framereceived', ({ payload }) => {
        if (ackId !== null && String(payload).startsWith(`43/web,${ackId}[`)) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
  });
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await acked;
}


describe('a phone over real HTTPS behind Caddy', () => {
  let world: TlsWorld;
  let endpoint: PushEndpoint;

  beforeAll(async () => {
    requireBuiltWeb('sw.js');
    endpoint = startPushEndpoint();
    world = await startTlsWorld({ hubArgs: ({ publicUrl }) => ['--public-url', publicUrl, '--trust-proxy', '--dev-push-endpoints'] });
  }, 60_000);

  afterAll(async () => {
    await world?.stop();
    await endpoint?.stop();
  });

  it('logs in from the printed link, is a secure context, turns Notifications on, and answers a pushed approval', async () => {
    // What `tether hub` printed: the TLS gate's verdict on its public URL, then the phone's link
    // (a one-time pairing code in the fragment). The access token is for the runner (tether auth login).
    const printed = world.hub.output();
    expect(printed).toContain(`checked ${world.publicUrl}: certificate trusted, answered by this hub`);
    const phoneUrl = /open on your phone \(or scan\): (\S+)/.exec(printed)?.[1] ?? '';
    expect(phoneUrl.startsWith(`${world.publicUrl}/#pair=`), `the printed phone link: ${printed}`).toBe(true);
    const token = world.hub.token;
    if (!token) throw new Error(`tether hub printed no token on its first start:\n${printed}`);

    const runner = await connectSocket({ url: world.hub.url, nsp: '/cli', token });
    try {
      const sessionId = randomUUID();
      expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/srv/app', launchKind: 'pty', title: 'Deploy the hub', status: 'idle' })).ok).toBe(true);

      const keys = createPushKeys();
      const page = await world.browser.newPage({ viewport: 'phone' });
      trackSockets(page);
      await page.context().grantPermissions(['notifications'], { origin: world.publicUrl });
      await installPushStandIn(page, { endpoint: `${endpoint.url}/sub/https-phone`, keys });

      // 1. The printed link: HTTPS with pebble's certificate for tether.test; the code is redeemed, signed in.
      const response = await page.goto(phoneUrl);
      const security = await response!.securityDetails();
      expect(security).toMatchObject({ subjectName: 'tether.test', issuer: expect.stringMatching(/^Pebble Intermediate CA/) });
      await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByText('Live').first().waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole('link', { name: /Deploy the hub/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'https-signed-in', viewport: 'phone' });
      expect(await page.evaluate(() => ({ secure: window.isSecureContext, origin: location.origin, fragment: location.hash }))).toEqual({ secure: true, origin: world.publicUrl, fragment: '' });
      expect(seriousOnes(await axeViolations(page))).toEqual([]);

      // Plain http to the name is sent to https (what a phone that was given http:// meets).
      const plain = await fetch(`http://127.0.0.1:${world.caddy.httpPort}/sessions`, { headers: { host: 'tether.test' }, redirect: 'manual' });
      // (Caddy 2.6 leaves its https_port out of the Location, as it would 443: the port is not checked.)
      const location = new URL(plain.headers.get('location') ?? 'about:blank');
      expect({ status: plain.status, to: `${location.protocol}//${location.hostname}${location.pathname}` }).toEqual({ status: 308, to: 'https://tether.test/sessions' });

      // The link was one use: the same link in another browser is refused (through the same proxy).
      const again = await world.browser.newPage({ viewport: 'phone' });
      await again.goto(phoneUrl);
      await again.getByRole('alert').filter({ hasText: 'This pairing code has expired or was already used' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await again.close();

      // 2. The service worker is registered and active, from the https origin.
      const worker = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null);
      expect(worker).toBe(`${world.publicUrl}/sw.js`);

      // 3. Notifications on, from the account menu: subscribed with the hub's VAPID key.
      await page.getByRole('button', { name: 'Account' }).click();
      const toggle = page.getByRole('menuitemcheckbox', { name: /Notifications/ });
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: UI_TIMEOUT_MS }).toBe('true');
      await saveScreenshot(page, { name: 'https-notifications-on', viewport: 'phone' });
      const vapid = (await (await fetch(`${world.hub.url}/api/push/vapid`, { headers: { authorization: `Bearer ${token}` } })).json()) as { publicKey: string };
      const subscribedKey = await page.evaluate((key) => (JSON.parse(localStorage.getItem(key) ?? 'null') as { applicationServerKey: string } | null)?.applicationServerKey ?? null, STANDIN_KEY);
      expect(subscribedKey && Buffer.from(subscribedKey, 'base64').toString('base64url')).toBe(vapid.publicKey);
      await page.keyboard.press('Escape');

      // 4. The screen goes off; claude asks to run a command: the hub pushes it to this phone.
      await screenOff(page);
      const requestId = randomUUID();
      expect((await emitAck(runner, 'approval:request', { id: requestId, sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'systemctl restart tether-hub' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
      await emitAck(runner, 'session:update', { sessionId, patch: { status: 'waiting' } });
      const push = await endpoint.next();
      expect(push.path).toBe('/sub/https-phone');
      const message = JSON.parse(decryptPush({ body: push.body, keys })) as PushMessage;
      expect(message).toMatchObject({ kind: 'approval', sessionId, url: `/sessions/${sessionId}`, request: { id: requestId } });

      // 5. Opened from the push: the approval sheet, answered over the same HTTPS origin.
      await page.goto(`${world.publicUrl}${message.url}`);
      await allowCommandInSheet(page, { runner, requestId, command: 'systemctl restart tether-hub', screenshot: 'https-approval' });
      await saveScreenshot(page, { name: 'https-approval-answered', viewport: 'phone' });

      // 6. The hub recorded it: answered, allowed, from this login.
      const detail = (await (await fetch(`${world.hub.url}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { audit: Resolution[] };
      expect(detail.audit).toEqual([expect.objectContaining({ requestId, answer: { decision: 'allow' } })]);
      await page.close();
    } finally {
      runner.close();
    }
  }, 90_000);

  it('a hub that does not trust the certificate shows no link: the TLS gate says why', async () => {
    // Same name, same Caddy, pebble's root left out: what a phone without that root would meet.
    const hub = await world.startHub({ args: ['--public-url', world.publicUrl], trustRoot: false });
    const printed = hub.output();
    expect(printed).toContain(`checked ${world.publicUrl}: certificate not trusted`);
    expect(printed).toContain('phone: no QR (the https URL did not pass the check above)');
    expect(printed).not.toContain(`${world.publicUrl}/#pair=`);
    await hub.stop();
  }, 30_000);
});
