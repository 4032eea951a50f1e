// emulate.ts: a Chromium page made to behave like a mid-tier phone on a slow mobile network, through
// CDP, with its and its service workers' Network events fed to a ByteMeter (byte-meter.ts).
//
//   page ──newCDPSession──► Emulation.setCPUThrottlingRate (4×)
//                          Network.emulateNetworkConditions (Slow 4G: +150 ms per request, 1.6/0.75 Mbps)
//                          Network.* events ──┐
//   browser ──CDP──► each service worker of the page's context (attached when it appears):
//                          Network.emulateNetworkConditions, Network.* events ──┴─► ByteMeter
//
// Why the worker too: a page's network conditions do not reach its service worker, which fetches
// the shell at install and chunks not yet cached; unthrottled, those would skip their round trips.
// The worker's CPU is not slowed (CDP has no CPU throttling for workers). The hub runs on the
// loopback, so the emulated latency is the whole round trip. Conditions stay across navigations.
import type { Browser, Page } from 'playwright-core';
import { ByteMeter, WORKER, type Params } from './byte-meter.ts';

/** Chrome's "Slow 4G" preset as issue 43 states it: 150 ms round trip, 1.6 Mbps down, 750 kbps up. */
export const SLOW_4G = { latencyMs: 150, downBitsPerSecond: 1_600_000, upBitsPerSecond: 750_000 } as const;
/** A mid-tier phone's CPU against this machine's (the DevTools "4× slowdown"). */
export const CPU_SLOWDOWN = 4;

const NETWORK_CONDITIONS = {
  offline: false,
  latency: SLOW_4G.latencyMs,
  downloadThroughput: SLOW_4G.downBitsPerSecond / 8,
  uploadThroughput: SLOW_4G.upBitsPerSecond / 8,
  connectionType: 'cellular4g',
} as const;

const METERED = ['Network.responseReceived', 'Network.loadingFinished', 'Network.dataReceived', 'Network.webSocketFrameReceived'];

export type PhonePage = {
  meter: ByteMeter;
  /** Chromium's monotonic clock (seconds) at the current document's navigation start: the zero of
   *  its performance.now(), which maps page times onto the meter's. */
  navigationStart(): Promise<number>;
  /** Resolves once every service worker seen so far runs on the phone's network. */
  workersThrottled(): Promise<void>;
  stop(): Promise<void>;
};

/** Slows the page's CPU and network, and its context's service workers' network, to the phone's,
 *  and starts counting the bytes they receive. */
export async function emulatePhone(page: Page, browser: Browser): Promise<PhonePage> {
  const meter = new ByteMeter();
  const cdp = await page.context().newCDPSession(page);
  for (const method of METERED) cdp.on(method as 'Network.dataReceived', (params) => meter.record('page', method, params as unknown as Params));
  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Network.emulateNetworkConditions', NETWORK_CONDITIONS);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  const workers = await throttleServiceWorkers({ browser, contextId: targetInfo.browserContextId, meter });
  return {
    meter,
    async navigationStart() {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const start = metrics.find((m) => m.name === 'NavigationStart')?.value;
      if (start === undefined) throw new Error('Performance.getMetrics gave no NavigationStart');
      return start;
    },
    workersThrottled: () => workers.settled(),
    async stop() {
      await workers.detach().catch(() => {});
      await cdp.detach().catch(() => {});
    },
  };
}

/** Attaches to every service worker of the browser context, now and as they start, and gives each
 *  the phone's network. Playwright's CDPSession cannot address a flattened child session, so the
 *  worker is driven through Target.sendMessageToTarget, and its answers come back as events. */
async function throttleServiceWorkers(o: { browser: Browser; contextId: string | undefined; meter: ByteMeter }): Promise<Workers> {
  const session = await o.browser.newBrowserCDPSession();
  const attached = new Map<string, Promise<void>>();
  const answers = new Map<number, (error?: string) => void>();
  let nextId = 1;
  const send = (sessionId: string, method: string, params: object) =>
    new Promise<void>((resolve, reject) => {
      const id = nextId++;
      answers.set(id, (error) => (error ? reject(new Error(`${method} in a service worker: ${error}`)) : resolve()));
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
  const attach = (info: { targetId: string; type: string; browserContextId?: string }) => {
    if (info.type !== 'service_worker' || info.browserContextId !== o.contextId || attached.has(info.targetId)) return;
    const done = (async () => {
      const { sessionId } = await session.send('Target.attachToTarget', { targetId: info.targetId, flatten: false });
      await send(sessionId, 'Network.enable', {});
      await send(sessionId, 'Network.emulateNetworkConditions', NETWORK_CONDITIONS);
    })();
    attached.set(info.targetId, done);
  };
  session.on('Target.receivedMessageFromTarget', ({ sessionId, message }) => {
    const parsed = JSON.parse(message) as { id?: number; error?: { message: string }; method?: string; params?: Params };
    if (parsed.id !== undefined) answers.get(parsed.id)?.(parsed.error?.message);
    else if (parsed.method && METERED.includes(parsed.method)) o.meter.record(`${WORKER}${sessionId}`, parsed.method, parsed.params ?? {});
  });
  session.on('Target.targetCreated', ({ targetInfo }) => attach(targetInfo));
  // A stopped worker (idle, or replaced) loses its target and the conditions with it; a restart
  // may reuse the id, so it is attached afresh.
  session.on('Target.targetDestroyed', ({ targetId }) => attached.delete(targetId));
  session.on('Target.detachedFromTarget', ({ targetId }) => void (targetId && attached.delete(targetId)));
  await session.send('Target.setDiscoverTargets', { discover: true });
  const { targetInfos } = await session.send('Target.getTargets');
  for (const info of targetInfos) attach(info);
  return {
    async settled() {
      await Promise.all(attached.values());
    },
    detach: () => session.detach(),
  };
}

type Workers = { settled(): Promise<void>; detach(): Promise<void> };
