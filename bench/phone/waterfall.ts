// waterfall.ts: `bun bench/phone/waterfall.ts [runs]`: the first visit's requests on the emulated phone
// (bench/phone/emulate.ts), one line each: when it was sent and when it ended (ms from navigation
// start), bytes as received, and the WebSocket's frames; then when the list's first row was drawn.
// What docs/decisions/web.md's first-visit round trips are read from. Needs web/dist built.
//
//   fresh profile ──/#token=…──► hub (in process) ; CDP Network.* of the page and its workers ─► lines
import type { CDPSession } from 'playwright-core';
import { connectSocket, startHub } from '../../tests/harness/hub.ts';
import { launchBrowser } from '../../tests/harness/browser.ts';
import { emulatePhone } from './emulate.ts';
import { DIST, seedSession } from '../web.bench.ts';

type Line = { id: string; what: string; sentAt: number; endAt?: number; bytes?: number; fromWorker?: boolean };

/** Records the page's requests and socket frames in Chromium's clock (seconds). */
function record(cdp: CDPSession): Line[] {
  const lines = new Map<string, Line>();
  const order: Line[] = [];
  const add = (line: Line) => {
    lines.set(line.id, line);
    order.push(line);
  };
  cdp.on('Network.requestWillBeSent', (e) => add({ id: e.requestId, what: `${e.request.method} ${new URL(e.request.url).pathname}`, sentAt: e.timestamp }));
  cdp.on('Network.responseReceived', (e) => {
    const line = lines.get(e.requestId);
    if (line && e.response.fromServiceWorker) line.fromWorker = true;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const line = lines.get(e.requestId);
    if (line) Object.assign(line, { endAt: e.timestamp, bytes: e.encodedDataLength });
  });
  cdp.on('Network.webSocketCreated', (e) => add({ id: e.requestId, what: `WS ${new URL(e.url).pathname}`, sentAt: Number.NaN }));
  cdp.on('Network.webSocketWillSendHandshakeRequest', (e) => {
    const line = lines.get(e.requestId);
    if (line) line.sentAt = e.timestamp;
  });
  cdp.on('Network.webSocketFrameSent', (e) => add({ id: `${e.requestId}:${e.timestamp}`, what: `  ws ↑ ${e.response.payloadData.slice(0, 60)}`, sentAt: e.timestamp }));
  cdp.on('Network.webSocketFrameReceived', (e) =>
    add({ id: `${e.requestId}:${e.timestamp}`, what: `  ws ↓ ${e.response.payloadData.slice(0, 60)}`, sentAt: e.timestamp, bytes: e.response.payloadData.length }),
  );
  return order;
}

const runs = Number(process.argv[2] ?? 1);
const hub = await startHub({ webDist: DIST });
const browser = await launchBrowser();
const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
try {
  await seedSession({ hub, runner, title: '200 messages', count: 200 });
  for (let run = 0; run < runs; run++) {
    const page = await browser.newPage({ viewport: 'phone' });
    const phone = await emulatePhone(page, browser.browser);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const lines = record(cdp);
    await page.goto(`${hub.url}/#token=${hub.token}`, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(() => (location.pathname === '/' && document.querySelector('a.session-row') ? performance.now() : false), null, {
      polling: 'raf',
      timeout: 30_000,
    });
    const drawnAt = (await handle.jsonValue()) as number;
    const start = await phone.navigationStart();
    const ms = (t: number | undefined) => (t === undefined || Number.isNaN(t) ? '   -  ' : String(Math.round((t - start) * 1000)).padStart(6));
    console.log(`run ${run + 1}: list drawn at ${Math.round(drawnAt)} ms`);
    for (const line of lines) {
      const kb = line.bytes === undefined ? '' : `${(line.bytes / 1024).toFixed(1)} KB`;
      console.log(`${ms(line.sentAt)} → ${ms(line.endAt)}  ${kb.padStart(9)}  ${line.fromWorker ? '(sw) ' : ''}${line.what}`);
    }
    await phone.stop();
    await page.context().close();
  }
} finally {
  runner.close();
  await browser.stop();
  await hub.stop();
}
