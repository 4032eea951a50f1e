// rebinding.test.ts: a DNS rebinding attack in a real Chromium against a real hub. The attacker's page
// is served at http://rebind.test:<hub port>/ (playwright answers that first navigation, as the
// attacker's server would); then the name resolves to 127.0.0.1 (`--host-resolver-rules`), so the
// page's same-origin requests reach the hub with `Host: rebind.test:<port>` and a matching Origin.
// The hub must answer 421 to all of them (its Host allowlist) and the page reads nothing; the same
// requests from the hub's own origin work. Chromium's Private Network Access checks are switched off:
// they are Chromium's defence, not the hub's, and Firefox and Safari do not have them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from '../harness/browser.ts';
import { WEB_DIST } from '../harness/browser-world.ts';
import { startHub, type HubHandle } from '../harness/hub.ts';

const EVIL = 'rebind.test';
let hub: HubHandle;
let browser: Browser;

beforeAll(async () => {
  hub = await startHub({ webDist: WEB_DIST });
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      `--host-resolver-rules=MAP ${EVIL} 127.0.0.1`,
      // Chromium's own guard (a public page may not call a loopback address) would stop the attack
      // before the hub sees it; other browsers have none, and the hub must not rely on it.
      '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,LocalNetworkAccessChecks,LocalNetworkAccessChecksWebSockets',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await hub?.stop();
});

/** What a page at `origin` can read from its own origin: /healthz, the app's `/`, a socket handshake. */
async function probe(origin: string, options: { attackerPage: boolean }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (options.attackerPage) {
    // The attacker's server answers the first load; everything after goes to wherever the name points.
    await page.route(`${origin}/`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>evil</title>' }), { times: 1 });
  }
  await page.goto(`${origin}/`);
  const result = await page.evaluate(async () => {
    const read = async (path: string) => {
      const res = await fetch(path, { cache: 'no-store' });
      return { status: res.status, text: (await res.text()).slice(0, 200) };
    };
    const socket = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
      ws.onmessage = (e) => {
        resolve(`open: ${String(e.data).slice(0, 1)}`);
        ws.close();
      };
      ws.onerror = () => resolve('error');
    });
    return { healthz: await read('/healthz'), app: await read('/'), socket };
  });
  await context.close();
  return result;
}

describe('DNS rebinding in a real browser', () => {
  it('a page on a name the hub does not serve reads nothing: 421 for every request, no socket', async () => {
    const port = new URL(hub.url).port;
    const seen = await probe(`http://${EVIL}:${port}`, { attackerPage: true });
    expect(seen.healthz.status).toBe(421);
    expect(seen.healthz.text).toContain('Misdirected Request');
    expect(seen.app.status).toBe(421);
    expect(seen.socket).toBe('error');
  });

  it('the hub\'s own origin still works (the control)', async () => {
    const seen = await probe(hub.url, { attackerPage: false });
    expect(seen.healthz.status).toBe(200);
    expect(seen.healthz.text).toContain('"ok":true');
    expect(seen.app.status).toBe(200);
    expect(seen.socket).toBe('open: 0');
  });
});
