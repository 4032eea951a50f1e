// screen-worker.ts: the screen model's thread. PTY bytes arrive in order (transferred, not copied),
// interleaved with resizes and read requests; each read is answered at exactly the byte offset it
// was asked at, because it is queued behind the bytes sent before it (screen-parser whenParsed).
//
//   runner thread ──write / resize / state / snapshot──► here ──parsed {offset} / state / snapshot──►
//
// Invariant: `offset` in every reply counts the bytes parsed when the reply was made, and a reply
// to a request reflects every byte sent before that request and none sent after it.
import { createScreenParser, type ScreenParser } from './screen-parser.ts';
import type { PromptState, ScreenRow } from './prompt-state.ts';

export type ScreenRequest =
  | { type: 'init'; cols: number; rows: number }
  | { type: 'write'; data: Uint8Array }
  | { type: 'resize'; cols: number; rows: number }
  | { type: 'state'; id: number }
  | { type: 'snapshot'; id: number; scrollback: number; maxChars: number }
  | { type: 'stop' };

export type ScreenReply =
  | { type: 'parsed'; offset: number }
  | { type: 'state'; id: number; offset: number; cols: number; rows: number; lines: ScreenRow[]; promptState: PromptState }
  | { type: 'snapshot'; id: number; offset: number; cols: number; rows: number; data: string };

declare const self: Worker;

let parser: ScreenParser | null = null;
let parsed = 0;
let ackQueued = false;
const post = (reply: ScreenReply) => self.postMessage(reply);
/** One `parsed` report per parser slice (xterm runs many write callbacks in one task), not per chunk. */
const ack = () => {
  ackQueued = false;
  post({ type: 'parsed', offset: parsed });
};

self.onmessage = (event: MessageEvent<ScreenRequest>) => {
  const m = event.data;
  if (m.type === 'init') {
    parser = createScreenParser({ cols: m.cols, rows: m.rows });
    return;
  }
  const p = parser;
  if (!p) return;
  switch (m.type) {
    case 'write': {
      const n = m.data.length;
      p.write(m.data, () => {
        parsed += n;
        if (!ackQueued) {
          ackQueued = true;
          queueMicrotask(ack);
        }
      });
      return;
    }
    case 'resize':
      // After the bytes before it: they were drawn at the old size.
      p.whenParsed(() => p.resize(m));
      return;
    case 'state':
      p.whenParsed(() => {
        const lines = p.rows();
        post({ type: 'state', id: m.id, offset: parsed, cols: p.cols(), rows: p.rowsCount(), lines, promptState: p.promptState(lines) });
      });
      return;
    case 'snapshot':
      p.whenParsed(() => {
        post({ type: 'snapshot', id: m.id, offset: parsed, cols: p.cols(), rows: p.rowsCount(), data: p.serialize(m) });
      });
      return;
    case 'stop':
      p.stop();
      parser = null;
      return;
    default: {
      const never: never = m;
      return never;
    }
  }
};
