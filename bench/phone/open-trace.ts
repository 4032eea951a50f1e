// open-trace.ts: `bun bench/phone/open-trace.ts [runs]`: what sits between a tap on a session's row
// (or the load of its URL) and its first message drawn, on the emulated phone (emulate.ts): every
// request and socket frame (network-log.ts) and a CPU profile of the page, printed as the main
// thread's busiest functions and, window by window, where its time went. What docs/decisions/web.md's
// "Opening a session" is read from. Needs web/dist built.
//
//   signed-in phone ──tap / goto──► hub (in process) ; CDP Network.* + Profiler ─► lines, CPU windows
import type { CDPSession, Page } from 'playwright-core';
import { connectSocket, startHub } from '../../tests/harness/hub.ts';
import { launchBrowser } from '../../tests/harness/browser.ts';
import { emulatePhone, type PhonePage } from './emulate.ts';
import { printLines, record, type Line } from './network-log.ts';
import { DIST, seedSession } from '../web.bench.ts';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type Profile = { nodes: Array<{ id: number; callFrame: CallFrame }>; startTime: number; samples: number[]; timeDeltas: number[] };

/** Where a sample's time went: the function and the file it runs in (a chunk's name, or a phase). */
function label(frame: CallFrame): string {
  const file = frame.url ? (frame.url.split('/').pop() ?? '').replace(/-[\w-]{8}\.js$/, '') : '';
  return file ? `${frame.functionName || '(anonymous)'} @ ${file}` : frame.functionName;
}

/** Prints the busiest functions in [from, to] (Chromium seconds) and the top one per window. */
function printCpu(o: { profile: Profile; from: number; to: number; windowMs: number }): void {
  const frames = new Map(o.profile.nodes.map((n) => [n.id, n.callFrame]));
  const total = new Map<string, number>();
  const windows = new Map<number, Map<string, number>>();
  let t = o.profile.startTime; // µs, the same monotonic clock as CDP's Network timestamps
  o.profile.samples.forEach((node, i) => {
    t += o.profile.timeDeltas[i] ?? 0;
    const at = t / 1e6;
    if (at < o.from || at > o.to) return;
    const name = label(frames.get(node)!);
    const ms = (o.profile.timeDeltas[i + 1] ?? 0) / 1000;
    total.set(name, (total.get(name) ?? 0) + ms);
    const w = Math.floor(((at - o.from) * 1000) / o.windowMs);
    const bucket = windows.get(w) ?? new Map<string, number>();
    bucket.set(name, (bucket.get(name) ?? 0) + ms);
    windows.set(w, bucket);
  });
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log('  busiest (self ms):');
  for (const [name, ms] of top(total, 18)) console.log(`    ${ms.toFixed(1).padStart(7)}  ${name}`);
  console.log(`  per ${o.windowMs} ms window (top three, self ms):`);
  for (const [w, bucket] of [...windows].sort((a, b) => a[0] - b[0])) {
    console.log(`    ${String(w * o.windowMs).padStart(5)}  ${top(bucket, 3).map(([n, ms]) => `${ms.toFixed(0)} ${n}`).join(' | ')}`);
  }
}

/** With NOPROFILE=1 no CPU profile is taken: the profiler itself costs a navigation ~300 ms (its
 *  start in the new document and the old one's teardown), so a load's timing is read without it. */
const EMPTY_PROFILE: Profile = { nodes: [], startTime: 0, samples: [], timeDeltas: [] };

async function traced<T>(cdp: CDPSession, act: () => Promise<T>): Promise<{ value: T; profile: Profile }> {
  if (process.env.NOPROFILE === '1') return { value: await act(), profile: EMPTY_PROFILE };
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  const value = await act();
  const { profile } = await cdp.send('Profiler.stop');
  return { value, profile: profile as unknown as Profile };
}

const drawn = (page: Page, sessionId: string) =>
  page
    .waitForFunction((path) => (location.pathname === path && document.querySelector('.chat-row .msg') ? performance.now() : false), `/sessions/${sessionId}`, { polling: 'raf', timeout: 30_000 })
    .then((h) => h.jsonValue() as Promise<number>);

async function report(o: { what: string; phone: PhonePage; lines: Line[]; profile: Profile; fromMs: number; toMs: number }): Promise<void> {
  const origin = await o.phone.navigationStart();
  const from = origin + o.fromMs / 1000;
  const to = origin + o.toMs / 1000;
  console.log(`${o.what}: first message drawn ${Math.round(o.toMs - o.fromMs)} ms after`);
  printLines(o.lines.filter((l) => l.sentAt >= from - 0.001 && l.sentAt <= to), from);
  printCpu({ profile: o.profile, from, to, windowMs: 25 });
}

/** The document's own milestones (ms from navigation start), and when the main script arrived. */
async function navigationTiming(page: Page): Promise<string> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const main = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => /\/assets\/main-.*\.js$/.test(e.name));
    const fields = ['workerStart', 'fetchStart', 'responseStart', 'responseEnd', 'domInteractive', 'domContentLoadedEventEnd', 'loadEventEnd'] as const;
    const at = fields.map((f) => `${f} ${Math.round(nav[f])}`).join(', ');
    return `${at}; main.js ${main ? `${Math.round(main.startTime)} → ${Math.round(main.responseEnd)}` : 'not fetched'}`;
  });
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string } };

/** With TRACE=1: Chromium's own timeline of the renderer's main thread over [from, to] (Chromium
 *  seconds): the time of each kind of task (script compile, style, layout, parse…), self time. */
function printTimeline(o: { trace: Buffer; from: number; to: number }): void {
  const events = (JSON.parse(o.trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`);
  const inWindow = events
    .filter((e) => e.ph === 'X' && main.includes(`${e.pid}:${e.tid}`) && e.ts / 1e6 >= o.from && e.ts / 1e6 <= o.to)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: TraceEvent[] = [];
  for (const e of inWindow) {
    while (stack.length && stack[stack.length - 1]!.ts + (stack[stack.length - 1]!.dur ?? 0) <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - (e.dur ?? 0) / 1000);
    self.set(e.name, (self.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    stack.push(e);
  }
  console.log('  main thread tasks of 4 ms or more (start ms, duration, what ran in them):');
  for (const e of inWindow.filter((x) => x.name === 'RunTask' && (x.dur ?? 0) >= 4000)) {
    const inside = inWindow.filter((x) => x !== e && x.ts >= e.ts && x.ts < e.ts + (e.dur ?? 0) && (x.dur ?? 0) >= 1000 && x.name !== 'RunTask');
    const names = [...new Set(inside.map((x) => x.name))].slice(0, 5).join(', ');
    console.log(`    ${String(Math.round((e.ts / 1e6 - o.from) * 1000)).padStart(5)}  ${((e.dur ?? 0) / 1000).toFixed(1).padStart(6)}  ${names}`);
  }
  console.log('  main thread by task kind (self ms):');
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 16)) console.log(`    ${ms.toFixed(1).padStart(7)}  ${name}`);
}

const TRACE_CATEGORIES = ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline', 'blink', 'loading', 'v8'];

const runs = Number(process.argv[2] ?? 1);
const size = Number(process.argv[3] ?? 200);
const timeline = process.env.TRACE === '1';
const hub = await startHub({ webDist: DIST });
const browser = await launchBrowser();
const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
try {
  const sessionId = await seedSession({ hub, runner, title: `${size} messages`, count: size });
  const page = await browser.newPage({ viewport: 'phone' });
  const phone = await emulatePhone(page, browser.browser);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await page.goto(`${hub.url}/#token=${hub.token}`);
  await page.locator('a.session-row').first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await phone.workersThrottled();
  await page.goto(`${hub.url}/sessions/${sessionId}`);
  await drawn(page, sessionId); // fills the phone cache and the HTTP cache, as a warm phone has them
  const row = page.locator(`a.session-row[href="/sessions/${sessionId}"]`);
  for (let run = 1; run <= runs; run++) {
    await page.goto(`${hub.url}/`);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForTimeout(500);
    await page.evaluate(() => document.addEventListener('pointerdown', () => ((window as unknown as { tappedAt: number }).tappedAt = performance.now()), { capture: true, once: true }));
    let lines = record(cdp);
    if (timeline) await browser.browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const tap = await traced(cdp, async () => {
      await row.tap();
      return drawn(page, sessionId);
    });
    const tapTrace = timeline ? await browser.browser.stopTracing() : null;
    const tappedAt = await page.evaluate(() => (window as unknown as { tappedAt: number }).tappedAt);
    await report({ what: `run ${run}, tap`, phone, lines, profile: tap.profile, fromMs: tappedAt, toMs: tap.value });
    if (tapTrace) printTimeline({ trace: tapTrace, from: (await phone.navigationStart()) + tappedAt / 1000, to: (await phone.navigationStart()) + tap.value / 1000 });

    lines = record(cdp);
    if (timeline) await browser.browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const load = await traced(cdp, async () => {
      await page.goto(`${hub.url}/sessions/${sessionId}`, { waitUntil: 'commit' });
      return drawn(page, sessionId);
    });
    const loadTrace = timeline ? await browser.browser.stopTracing() : null;
    if (loadTrace) printTimeline({ trace: loadTrace, from: (await phone.navigationStart()) - 0.5, to: (await phone.navigationStart()) + load.value / 1000 });
    await report({ what: `run ${run}, load`, phone, lines, profile: load.profile, fromMs: 0, toMs: load.value });
    console.log(`  navigation timing: ${await navigationTiming(page)}`);
  }
  await phone.stop();
} finally {
  runner.close();
  await browser.stop();
  await hub.stop();
}
