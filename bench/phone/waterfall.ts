// waterfall.ts: `bun bench/phone/waterfall.ts [runs]`: the first visit's requests on the emulated phone
// (bench/phone/emulate.ts), one line each: when it was sent and when it ended (ms from navigation
// start), bytes as received, and the WebSocket's frames; then when the list's first row was drawn.
// What docs/decisions/web.md's first-visit round trips are read from. Needs web/dist built.
//
//   fresh profile ──/#token=…──► hub (in process) ; CDP Network.* of the page and its workers ─► lines
import { connectSocket, startHub } from '../../tests/harness/hub.ts';
import { launchBrowser } from '../../tests/harness/browser.ts';
import { emulatePhone } from './emulate.ts';
import { printLines, record } from './network-log.ts';
import { DIST, seedSession } from '../web.bench.ts';

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
    console.log(`run ${run + 1}: list drawn at ${Math.round(drawnAt)} ms`);
    printLines(lines, start);
    await phone.stop();
    await page.context().close();
  }
} finally {
  runner.close();
  await browser.stop();
  await hub.stop();
}
