// network-log.ts: a page's requests and WebSocket frames, as CDP reports them, one line each in
// Chromium's clock (seconds), and how to print them against a zero. Read by waterfall.ts (the first
// visit) and open-trace.ts (a tap and a URL load).
import type { CDPSession } from 'playwright-core';

export type Line = { id: string; what: string; sentAt: number; endAt?: number; bytes?: number; fromWorker?: boolean };

/** Records the page's requests and socket frames in Chromium's clock (seconds). */
export function record(cdp: CDPSession): Line[] {
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

/** One printed line per request or frame: sent → ended (ms from `zero`), bytes, what. */
export function printLines(lines: Line[], zero: number): void {
  const ms = (t: number | undefined) => (t === undefined || Number.isNaN(t) ? '   -  ' : String(Math.round((t - zero) * 1000)).padStart(6));
  for (const line of lines) {
    const kb = line.bytes === undefined ? '' : `${(line.bytes / 1024).toFixed(1)} KB`;
    console.log(`${ms(line.sentAt)} → ${ms(line.endAt)}  ${kb.padStart(9)}  ${line.fromWorker ? '(sw) ' : ''}${line.what}`);
  }
}
