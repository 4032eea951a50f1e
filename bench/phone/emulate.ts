// emulate.ts: a Chromium page made to behave like a mid-tier phone on a slow mobile network, through
// its own CDP session, and a meter of the bytes it receives in a window of its time.
//
//   page ──newCDPSession──► Emulation.setCPUThrottlingRate (4×)
//                          Network.emulateNetworkConditions (Slow 4G: +150 ms per request, 1.6/0.75 Mbps)
//                          Network.* events ──► ByteMeter (HTTP encoded bytes + WebSocket payloads)
//
// The hub runs on the loopback, so the emulated latency is the whole round trip. The conditions
// stay on the page across its navigations (same target); a new context needs emulatePhone again.
import type { CDPSession, Page } from 'playwright-core';

/** Chrome's "Slow 4G" preset as issue 43 states it: 150 ms round trip, 1.6 Mbps down, 750 kbps up. */
export const SLOW_4G = { latencyMs: 150, downBitsPerSecond: 1_600_000, upBitsPerSecond: 750_000 } as const;
/** A mid-tier phone's CPU against this machine's (the DevTools "4× slowdown"). */
export const CPU_SLOWDOWN = 4;

type NetworkEvent = { requestId: string; timestamp: number };
type Finished = NetworkEvent & { encodedDataLength: number };
type Chunk = NetworkEvent & { encodedDataLength: number };
type Frame = NetworkEvent & { response: { opcode: number; payloadData: string } };

/** Counts what the page received, each item stamped with Chromium's monotonic clock (seconds). */
export class ByteMeter {
  private readonly finished = new Map<string, Finished>();
  private readonly chunks: Chunk[] = [];
  private readonly frames: Array<{ timestamp: number; bytes: number }> = [];

  constructor(cdp: CDPSession) {
    cdp.on('Network.loadingFinished', (e) => this.finished.set(e.requestId, e as Finished));
    cdp.on('Network.dataReceived', (e) => this.chunks.push(e as Chunk));
    cdp.on('Network.webSocketFrameReceived', (e) => {
      const { timestamp, response } = e as Frame;
      // opcode 2 is binary, given base64; text frames are what socket.io sends (ASCII JSON mostly).
      const bytes = response.opcode === 2 ? Math.floor((response.payloadData.length * 3) / 4) : Buffer.byteLength(response.payloadData);
      this.frames.push({ timestamp, bytes });
    });
  }

  /** Bytes received between `from` and `to` (monotonic seconds): a request finished inside the window
   *  counts whole (its encoded body and headers); one still loading at `to` counts what arrived;
   *  one finished before `from` counts nothing. Plus WebSocket payloads inside the window. */
  between(from: number, to: number): number {
    let bytes = 0;
    for (const e of this.finished.values()) if (e.timestamp >= from && e.timestamp <= to) bytes += e.encodedDataLength;
    for (const c of this.chunks) {
      if (c.timestamp < from || c.timestamp > to) continue;
      const done = this.finished.get(c.requestId);
      if (done && done.timestamp <= to) continue;
      bytes += c.encodedDataLength;
    }
    for (const f of this.frames) if (f.timestamp >= from && f.timestamp <= to) bytes += f.bytes;
    return bytes;
  }
}

export type PhonePage = {
  cdp: CDPSession;
  meter: ByteMeter;
  /** Chromium's monotonic clock (seconds) at the current document's navigation start: the zero of
   *  its performance.now(), which maps page times onto the meter's. */
  navigationStart(): Promise<number>;
};

/** Slows the page's CPU and network to the phone's and starts counting its bytes. */
export async function emulatePhone(page: Page): Promise<PhonePage> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_4G.latencyMs,
    downloadThroughput: SLOW_4G.downBitsPerSecond / 8,
    uploadThroughput: SLOW_4G.upBitsPerSecond / 8,
    connectionType: 'cellular4g',
  });
  const meter = new ByteMeter(cdp);
  return {
    cdp,
    meter,
    async navigationStart() {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const start = metrics.find((m) => m.name === 'NavigationStart')?.value;
      if (start === undefined) throw new Error('Performance.getMetrics gave no NavigationStart');
      return start;
    },
  };
}
