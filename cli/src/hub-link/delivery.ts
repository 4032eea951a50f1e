// delivery.ts: the outbox's way to the hub, for the link (link.ts) once it is registered.
//
//   outbox ──next batch (consecutive message:append merged)──► emit with ack ──► ackThrough
//
// Invariants: one batch in flight, strictly in order; an entry leaves the outbox only when acked,
// or refused for good by the hub (reported). No ack in time: resent at once (the hub dedupes);
// a transient failure (internal, rate_limited): retried after TRANSIENT_RETRY_MS; not_found: the
// link says whether the entry is dropped or held while it registers again.
import { MAX_MESSAGES_PER_BATCH, type Ack, type ChatMessageInput } from '@tether/shared';
import type { OutboxEntry, OutboxEventName, OutboxQueue } from './outbox.ts';

/** Wait before retrying a batch the hub failed on transiently (internal, rate_limited). */
const TRANSIENT_RETRY_MS = 1_000;
/** Hub error codes that will never succeed on resend: the entry is dropped and reported. */
const PERMANENT_CODES = new Set(['bad_request', 'too_large', 'forbidden', 'conflict', 'gone']);

export type Delivery = {
  /** Send what the outbox holds, if the link is ready; safe to call at any time. */
  flush(): void;
  /** Resolves when the outbox is empty, or false after `timeoutMs` (or on stop). */
  drain(timeoutMs: number): Promise<boolean>;
  stop(): void;
};

export function createDelivery(options: {
  outbox: OutboxQueue;
  /** The ack, or null when not connected or no ack came in time. */
  emitWithAck: (event: OutboxEventName, payload: unknown) => Promise<Ack<object> | null>;
  /** Registered and connected: entries may go. */
  ready: () => boolean;
  connected: () => boolean;
  onProblem?: (message: string) => void;
  /** The hub does not know what an entry names: drop it, or hold it (the link registers again). */
  onNotFound: () => 'drop' | 'hold';
}): Delivery {
  const { outbox } = options;
  let flushing = false;
  let kick = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  const drainWaiters = new Set<(drained: boolean) => void>();

  const notifyDrained = () => {
    if (outbox.size() > 0) return;
    for (const waiter of [...drainWaiters]) waiter(true);
  };

  /** The next batch: consecutive message:append entries merge into one event (≤ the hub's cap). */
  const nextBatch = (): { event: OutboxEventName; payload: unknown; lastSeq: number } | null => {
    const entries = outbox.peek(MAX_MESSAGES_PER_BATCH);
    const first = entries[0];
    if (!first) return null;
    if (first.event !== 'message:append') return { event: first.event, payload: first.payload, lastSeq: first.seq };
    const messages: ChatMessageInput[] = [];
    let lastSeq = first.seq;
    for (const entry of entries as OutboxEntry[]) {
      if (entry.event !== 'message:append' || entry.payload.sessionId !== first.payload.sessionId) break;
      if (messages.length + entry.payload.messages.length > MAX_MESSAGES_PER_BATCH && messages.length > 0) break;
      messages.push(...entry.payload.messages);
      lastSeq = entry.seq;
    }
    return { event: 'message:append', payload: { sessionId: first.payload.sessionId, messages }, lastSeq };
  };

  const flush = async (): Promise<void> => {
    if (flushing) {
      kick = true;
      return;
    }
    flushing = true;
    try {
      while (options.ready()) {
        kick = false;
        const batch = nextBatch();
        if (!batch) break;
        const ack = await options.emitWithAck(batch.event, batch.payload);
        if (!ack) {
          // Disconnected: the next connect resends. Still connected but no ack in time: resend now
          // (the hub dedupes, so a late ack of the first copy does no harm).
          if (options.connected()) retryTimer = setTimeout(() => void flush(), 0);
          break;
        }
        if (ack.ok) {
          outbox.ackThrough(batch.lastSeq);
          continue;
        }
        if (PERMANENT_CODES.has(ack.code)) {
          options.onProblem?.(`hub refused ${batch.event} (${ack.code}: ${ack.error}); dropped`);
          outbox.ackThrough(batch.lastSeq);
          continue;
        }
        if (ack.code === 'not_found') {
          if (options.onNotFound() === 'hold') break;
          outbox.ackThrough(batch.lastSeq);
          continue;
        }
        retryTimer = setTimeout(() => void flush(), TRANSIENT_RETRY_MS);
        break;
      }
    } finally {
      flushing = false;
      notifyDrained();
      if (kick && options.ready()) void flush();
    }
  };

  return {
    flush: () => void flush(),
    drain: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if (outbox.size() === 0) return resolve(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        const done = (drained: boolean) => {
          clearTimeout(timer);
          drainWaiters.delete(done);
          resolve(drained);
        };
        drainWaiters.add(done);
      }),
    stop: () => {
      if (retryTimer) clearTimeout(retryTimer);
      for (const waiter of [...drainWaiters]) waiter(false);
    },
  };
}
