// web-phone.bench.ts: the web app on an emulated mid-tier phone (issue 43): Chromium at 390×844 with
// its CPU slowed 4× and the Slow 4G network (150 ms round trip, 1.6 Mbps down, 750 kbps up), against
// a real hub on the loopback over plain http (a real phone also pays TLS). Medians of RUNS.
//   web_phone_tap_{200,10k}_ms: on the session list, tap a session (200 or 10k stored messages) →
//     the first frame with one of its messages on screen. Warm cache (the list loaded just before).
//   web_phone_load_{200,10k}_ms: open the session's URL, as from a notification (navigation start →
//     that frame). Warm cache: the same page loaded the app before, so its service worker answers
//     the navigation from its cache.
//   web_phone_first_visit_ms: a fresh browser profile (cold cache, no service worker) opens the pair
//     link `/#token=…` → the first frame with a row of the session list.
//   web_phone_*_kb: the bytes received in the same window, in KB: HTTP as sent (headers included; the
//     hub does not compress, a proxy in front may), by the page and by its service worker (its
//     precache competes for the link on a first visit: service_worker_kb), plus WebSocket payloads
//     as decoded (websocket_kb): what had to cross the network before that frame.
//
//   web/dist ─► hub (in process, SQLite) ◄── Chromium (playwright-core) ◄─CDP─ bench/phone/emulate.ts
import type { Page } from 'playwright-core';
import { connectSocket, startHub, type HubHandle } from '../tests/harness/hub.ts';
import { launchBrowser, type BrowserHandle } from '../tests/harness/browser.ts';
import { percentile, round } from './load/fleet.ts';
import type { Received } from './phone/byte-meter.ts';
import { CPU_SLOWDOWN, emulatePhone, SLOW_4G, type PhonePage } from './phone/emulate.ts';
import { buildWeb, DIST, seedSession } from './web.bench.ts';

/** Samples per measurement; the median smooths a GC pause or a neighbour's burst on 2 shared cores. */
const RUNS = 5;
/** A draw that takes longer is broken, not slow (the slowest here is a cold first visit, ~5 s). */
const DRAW_TIMEOUT_MS = 30_000;
/** Message counts of the two sessions: an ordinary one and a long one (history must not cost time). */
const SIZES = { '200': 200, '10k': 10_000 } as const;
type Size = keyof typeof SIZES;

type Sample = { ms: number; bytes: Received };
type Measurement = { name: string; value: number; unit: string } & Record<string, unknown>;

/** A chat message of the open session is in the DOM: the frame that paints it has been drawn. */
const MESSAGE_SELECTOR = '.chat-row .msg';

/** Waits, frame by frame, for the first frame where `ready` holds; its performance.now(). */
async function firstFrameWhere(page: Page, ready: { path: string; selector: string }): Promise<number> {
  const handle = await page.waitForFunction(
    ({ path, selector }) => (location.pathname === path && document.querySelector(selector) ? performance.now() : false),
    ready,
    { polling: 'raf', timeout: DRAW_TIMEOUT_MS },
  );
  return (await handle.jsonValue()) as number;
}

/** Fails when the emulated round trip did not reach the page's requests: every number would then be
 *  a fast network's. The document itself proves nothing on a warm load: the service worker answers it
 *  from its cache, with no round trip at all (docs/decisions/web.md, "App shell"); an API call always
 *  goes to the hub. */
async function assertThrottled(page: Page): Promise<void> {
  const handle = await page.waitForFunction(
    () => {
      const api = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => new URL(e.name).pathname.startsWith('/api/') && e.responseEnd > 0);
      return api.length > 0 ? Math.max(...api.map((e) => e.responseEnd - e.startTime)) : false;
    },
    null,
    { timeout: DRAW_TIMEOUT_MS },
  );
  const slowest = (await handle.jsonValue()) as number;
  if (slowest < SLOW_4G.latencyMs) throw new Error(`the page's slowest API call took ${Math.round(slowest)} ms: Slow 4G not applied`);
}

/** Page-time window [fromMs, toMs] (performance.now() of the current document) → bytes received in it. */
async function bytesBetween(phone: PhonePage, fromMs: number, toMs: number): Promise<Received> {
  const origin = await phone.navigationStart();
  return phone.meter.between(origin + fromMs / 1000, origin + toMs / 1000);
}

async function openList(page: Page, hubUrl: string, sessionId: string): Promise<void> {
  await page.goto(`${hubUrl}/`);
  await page.locator(`a.session-row[href="/sessions/${sessionId}"]`).waitFor({ state: 'visible', timeout: DRAW_TIMEOUT_MS });
}

/** From the list, a tap on the session's row → its first message drawn. The page reloads the list
 *  first, so no session data is left in memory from the run before. */
async function tap(o: { page: Page; phone: PhonePage; hubUrl: string; sessionId: string }): Promise<Sample> {
  await openList(o.page, o.hubUrl, o.sessionId);
  await o.page.evaluate(() => {
    const mark = () => ((window as unknown as { tappedAt: number }).tappedAt = performance.now());
    document.addEventListener('pointerdown', mark, { capture: true, once: true });
  });
  await o.page.locator(`a.session-row[href="/sessions/${o.sessionId}"]`).tap();
  const drawnAt = await firstFrameWhere(o.page, { path: `/sessions/${o.sessionId}`, selector: MESSAGE_SELECTOR });
  const tappedAt = await o.page.evaluate(() => (window as unknown as { tappedAt: number }).tappedAt);
  return { ms: drawnAt - tappedAt, bytes: await bytesBetween(o.phone, tappedAt, drawnAt) };
}

/** The session's URL opened in a page that has loaded the app before → its first message drawn. */
async function load(o: { page: Page; phone: PhonePage; hubUrl: string; sessionId: string }): Promise<Sample> {
  await o.page.goto(`${o.hubUrl}/sessions/${o.sessionId}`, { waitUntil: 'commit' });
  const drawnAt = await firstFrameWhere(o.page, { path: `/sessions/${o.sessionId}`, selector: MESSAGE_SELECTOR });
  await assertThrottled(o.page);
  return { ms: drawnAt, bytes: await bytesBetween(o.phone, 0, drawnAt) };
}

/** A new profile (nothing cached, no service worker, not signed in) opens the pair link → the list. */
async function firstVisit(o: { browser: BrowserHandle; hub: HubHandle }): Promise<Sample> {
  const page = await o.browser.newPage({ viewport: 'phone' });
  const phone = await emulatePhone(page, o.browser.browser);
  try {
    await page.goto(`${o.hub.url}/#token=${o.hub.token}`, { waitUntil: 'commit' });
    // The list's heading with its rows under it: what a person looks at to know they are in.
    const drawnAt = await firstFrameWhere(page, { path: '/', selector: 'a.session-row' });
    await assertThrottled(page);
    return { ms: drawnAt, bytes: await bytesBetween(phone, 0, drawnAt) };
  } finally {
    await phone.stop();
    await page.context().close();
  }
}

async function sample(name: string, run: number, measure: () => Promise<Sample>): Promise<Sample> {
  try {
    return await measure();
  } catch (error) {
    throw new Error(`${name}, run ${run + 1}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function samples(name: string, measure: () => Promise<Sample>): Promise<Sample[]> {
  const out: Sample[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await sample(name, i, measure));
  return out;
}

function summarise(name: string, taken: Sample[]): Measurement[] {
  const ms = taken.map((s) => s.ms);
  const kb = (part: keyof Received) => taken.map((s) => s.bytes[part] / 1024);
  const medianKb = (part: keyof Received) => round(percentile(kb(part), 50), 1);
  return [
    { name: `${name}_ms`, value: Math.round(percentile(ms, 50)), unit: 'ms', samples: ms.map(Math.round), cpu_slowdown: CPU_SLOWDOWN, rtt_ms: SLOW_4G.latencyMs },
    { name: `${name}_kb`, value: medianKb('total'), unit: 'KB', samples: kb('total').map((k) => round(k, 1)), service_worker_kb: medianKb('worker'), websocket_kb: medianKb('webSocket') },
  ];
}

export async function run(): Promise<Measurement[]> {
  buildWeb();
  const hub = await startHub({ webDist: DIST });
  const browser = await launchBrowser();
  const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  try {
    const ids = {} as Record<Size, string>;
    for (const [size, count] of Object.entries(SIZES) as Array<[Size, number]>) {
      ids[size] = await seedSession({ hub, runner, title: `${size} messages`, count });
    }
    const out: Measurement[] = [];
    out.push(...summarise('web_phone_first_visit', await samples('web_phone_first_visit', () => firstVisit({ browser, hub }))));

    // One signed-in phone for the warm runs: the service worker and HTTP cache fill on its first loads.
    const page = await browser.newPage({ viewport: 'phone' });
    const phone = await emulatePhone(page, browser.browser);
    await page.goto(`${hub.url}/#token=${hub.token}`);
    await page.locator('a.session-row').first().waitFor({ state: 'visible', timeout: DRAW_TIMEOUT_MS });
    // The service worker (installed by the sign-in) answers every later navigation: it must be on
    // the phone's network before the first of them.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await phone.workersThrottled();
    for (const size of Object.keys(SIZES) as Size[]) await load({ page, phone, hubUrl: hub.url, sessionId: ids[size] });
    // Round by round, each size and kind in turn: a page's later runs are faster (its code cache and
    // JIT warm up), so measuring all of one size first would flatter the other.
    const taken = new Map<string, Sample[]>();
    for (let i = 0; i < RUNS; i++) {
      for (const size of Object.keys(SIZES) as Size[]) {
        const at = { page, phone, hubUrl: hub.url, sessionId: ids[size] };
        for (const [kind, measure] of [['tap', tap], ['load', load]] as const) {
          const name = `web_phone_${kind}_${size}`;
          taken.set(name, [...(taken.get(name) ?? []), await sample(name, i, () => measure(at))]);
        }
      }
    }
    for (const [name, list] of taken) out.push(...summarise(name, list));
    return out;
  } finally {
    runner.close();
    await browser.stop();
    await hub.stop();
  }
}
