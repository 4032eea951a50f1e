// byte-meter.ts: what crossed the network in a window of a page's time, from the CDP Network events
// of the page and of its service workers (bench/phone/emulate.ts feeds it).
//
//   Network.responseReceived · dataReceived · loadingFinished · webSocketFrameReceived ─record─► ByteMeter ─between(from, to)─► Received
//
// Invariant: a response the page got from its service worker is never counted on the page's side;
// the worker's own fetch for it (if any) is, from the worker's events. Nothing is counted twice.

export type Params = Record<string, unknown> & { requestId?: string; timestamp?: number };

/** Counts what crossed the network, each item stamped with Chromium's monotonic clock (seconds). */
export class ByteMeter {
  private readonly finished = new Map<string, { timestamp: number; bytes: number }>();
  private readonly chunks: Array<{ id: string; timestamp: number; bytes: number }> = [];
  private readonly frames: Array<{ timestamp: number; bytes: number }> = [];
  /** Responses the page got from its service worker: the worker's own fetch (if any) is what went
   *  over the network, and it is counted from the worker's events. */
  private readonly fromWorker = new Set<string>();

  /** One Network event of a target; `source` keeps request ids of different targets apart. */
  record(source: string, method: string, params: Params): void {
    const id = `${source}:${params.requestId}`;
    const timestamp = params.timestamp ?? 0;
    if (method === 'Network.responseReceived' && (params.response as { fromServiceWorker?: boolean }).fromServiceWorker) this.fromWorker.add(id);
    else if (method === 'Network.loadingFinished') this.finished.set(id, { timestamp, bytes: params.encodedDataLength as number });
    else if (method === 'Network.dataReceived') this.chunks.push({ id, timestamp, bytes: params.encodedDataLength as number });
    else if (method === 'Network.webSocketFrameReceived') {
      const { opcode, payloadData } = params.response as { opcode: number; payloadData: string };
      // opcode 2 is binary, given base64; socket.io sends text frames (JSON).
      this.frames.push({ timestamp, bytes: opcode === 2 ? Math.floor((payloadData.length * 3) / 4) : Buffer.byteLength(payloadData) });
    }
  }

  /** Bytes received between `from` and `to` (monotonic seconds): a request finished inside the window
   *  counts whole (encoded body and headers); one still loading at `to` counts what had arrived; one
   *  finished before `from` counts nothing. Plus WebSocket payloads inside the window. `worker` is
   *  the part the service worker fetched, `webSocket` the socket's. */
  between(from: number, to: number): Received {
    const received = { total: 0, worker: 0, webSocket: 0 };
    const inside = (t: number) => t >= from && t <= to;
    const add = (id: string, bytes: number) => {
      received.total += bytes;
      if (id.startsWith(WORKER)) received.worker += bytes;
    };
    for (const [id, e] of this.finished) if (inside(e.timestamp) && !this.fromWorker.has(id)) add(id, e.bytes);
    for (const c of this.chunks) {
      const done = this.finished.get(c.id);
      if (inside(c.timestamp) && !(done && done.timestamp <= to) && !this.fromWorker.has(c.id)) add(c.id, c.bytes);
    }
    for (const f of this.frames) if (inside(f.timestamp)) received.webSocket += f.bytes;
    received.total += received.webSocket;
    return received;
  }
}

export type Received = { total: number; worker: number; webSocket: number };

/** The meter's source prefix for a service worker's events. */
export const WORKER = 'worker ';
