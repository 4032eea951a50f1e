import { describe, expect, it } from 'vitest';
import { ByteMeter, WORKER } from './byte-meter.ts';

/** A request of `source` that finished at `end` (seconds) with `bytes`, its body arriving at `chunks`. */
function request(meter: ByteMeter, o: { source: string; id: string; chunks: Array<[number, number]>; end: number; bytes: number; fromServiceWorker?: boolean }): void {
  meter.record(o.source, 'Network.responseReceived', { requestId: o.id, timestamp: o.chunks[0]?.[0] ?? o.end, response: { fromServiceWorker: o.fromServiceWorker ?? false } });
  for (const [timestamp, bytes] of o.chunks) meter.record(o.source, 'Network.dataReceived', { requestId: o.id, timestamp, encodedDataLength: bytes });
  meter.record(o.source, 'Network.loadingFinished', { requestId: o.id, timestamp: o.end, encodedDataLength: o.bytes });
}

describe('ByteMeter', () => {
  it('counts a request finished in the window whole, one still loading by what arrived, one finished before not at all', () => {
    const meter = new ByteMeter();
    request(meter, { source: 'page', id: 'before', chunks: [[0.5, 900]], end: 0.6, bytes: 1_000 });
    request(meter, { source: 'page', id: 'inside', chunks: [[0.9, 100], [1.1, 200]], end: 1.2, bytes: 700 });
    request(meter, { source: 'page', id: 'open', chunks: [[1.5, 300], [2.5, 400]], end: 2.6, bytes: 900 });
    expect(meter.between(1, 2)).toEqual({ total: 700 + 300, worker: 0, webSocket: 0 });
  });

  it("counts a service worker's fetch once: on the worker's side, not the page's copy of its answer", () => {
    const meter = new ByteMeter();
    request(meter, { source: 'page', id: '1', chunks: [[1.3, 1_449]], end: 1.3, bytes: 1_449, fromServiceWorker: true });
    request(meter, { source: `${WORKER}s1`, id: '1', chunks: [[1.2, 1_449]], end: 1.2, bytes: 2_211 });
    expect(meter.between(1, 2)).toEqual({ total: 2_211, worker: 2_211, webSocket: 0 });
  });

  it('adds WebSocket payloads in the window: text by its UTF-8 length, binary by its decoded length', () => {
    const meter = new ByteMeter();
    meter.record('page', 'Network.webSocketFrameReceived', { requestId: 'ws', timestamp: 1.1, response: { opcode: 1, payloadData: '42/web,["é"]' } });
    meter.record('page', 'Network.webSocketFrameReceived', { requestId: 'ws', timestamp: 1.2, response: { opcode: 2, payloadData: Buffer.alloc(30).toString('base64') } });
    meter.record('page', 'Network.webSocketFrameReceived', { requestId: 'ws', timestamp: 2.1, response: { opcode: 1, payloadData: 'late' } });
    expect(meter.between(1, 2)).toEqual({ total: 13 + 30, worker: 0, webSocket: 13 + 30 });
  });
});
