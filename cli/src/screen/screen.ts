// screen.ts: an @xterm/headless model of claude's screen, fed with the same bytes the PTY emits and
// parsed on its own thread (screen-worker.ts), so reading the PTY and relaying it never wait for
// the parser. It answers "what is the TUI doing, and is the input box empty?" (prompt-state.ts) and
// produces snapshots for viewers whose bytes are gone.
//
//   runner: write(bytes) ──copy once, transfer──► worker: xterm parse ──parsed {offset}──► backlog()
//           state() / snapshot() ──queued behind the bytes──► answered at exactly that offset
//
// Invariants: offsets count bytes written here (the runner writes every PTY byte, so they are PTY
// offsets); `state()` and `snapshot()` reflect every byte written before the call and none after;
// a resize applies after the bytes written before it. After stop() pending reads never settle.
import type { PromptState, ScreenRow } from './prompt-state.ts';
import type { ScreenReply, ScreenRequest } from './screen-worker.ts';

export type ScreenState = {
  /** Bytes written to the model before this read (the state is exactly theirs). */
  offset: number;
  cols: number;
  rows: number;
  lines: ScreenRow[];
  /** The visible screen as plain text, one line per row (trailing spaces trimmed). */
  text: string;
  promptState: PromptState;
};

export type ScreenSnapshot = { offset: number; cols: number; rows: number; data: string };

export type ScreenModel = {
  /** PTY output, as bytes (xterm decodes UTF-8 across chunks) or text (counted as UTF-8 bytes).
   *  The caller may reuse or keep `data`: it is copied once, then moved to the worker. */
  write(data: string | Uint8Array): void;
  /** Bytes written so far: the offset the next read will be at. */
  written(): number;
  /** Bytes written but not parsed yet (as last reported by the worker). */
  backlog(): number;
  resize(size: { cols: number; rows: number }): void;
  /** Resolves once every byte written so far has been parsed. */
  settled(): Promise<void>;
  /** The screen after exactly the bytes written so far. */
  state(): Promise<ScreenState>;
  /** ANSI that redraws the screen after exactly the bytes written so far in a fresh terminal of its
   *  size, with up to `scrollback` lines of history (default none), halved until it fits `maxChars`. */
  snapshot(options?: { scrollback?: number; maxChars?: number }): Promise<ScreenSnapshot>;
  /** The size as last set (the worker applies it in order with the bytes). */
  cols(): number;
  rowsCount(): number;
  stop(): void;
};

export function createScreenModel(options: { cols: number; rows: number; onError?: (message: string) => void }): ScreenModel {
  const worker = new Worker(new URL('./screen-worker.ts', import.meta.url));
  const send = (request: ScreenRequest, transfer?: Transferable[]) => worker.postMessage(request, transfer ?? []);
  const encoder = new TextEncoder();
  let cols = options.cols;
  let rows = options.rows;
  let written = 0;
  let parsed = 0;
  let stopped = false;
  /** The worker died: reads never settle, and the backlog no longer holds the PTY. */
  let broken = false;
  let nextId = 1;
  const states = new Map<number, (state: ScreenState) => void>();
  const snapshots = new Map<number, (snapshot: ScreenSnapshot) => void>();
  /** settled() callers, each with the offset it waits for (ascending: offsets only grow). */
  let waiters: Array<{ offset: number; resolve: () => void }> = [];

  const reached = (offset: number) => {
    if (offset > parsed) parsed = offset;
    if (waiters.length === 0 || waiters[0]!.offset > parsed) return;
    const due = waiters.filter((w) => w.offset <= parsed);
    waiters = waiters.filter((w) => w.offset > parsed);
    for (const w of due) w.resolve();
  };

  worker.onmessage = (event: MessageEvent<ScreenReply>) => {
    const m = event.data;
    switch (m.type) {
      case 'parsed':
        reached(m.offset);
        return;
      case 'state': {
        reached(m.offset);
        const resolve = states.get(m.id);
        states.delete(m.id);
        const text = m.lines.map((r) => r.text).join('\n');
        resolve?.({ offset: m.offset, cols: m.cols, rows: m.rows, lines: m.lines, text, promptState: m.promptState });
        return;
      }
      case 'snapshot': {
        reached(m.offset);
        const resolve = snapshots.get(m.id);
        snapshots.delete(m.id);
        resolve?.({ offset: m.offset, cols: m.cols, rows: m.rows, data: m.data });
        return;
      }
      default: {
        const never: never = m;
        return never;
      }
    }
  };
  worker.onerror = (event) => {
    broken = true;
    options.onError?.(`screen worker: ${event.message}`);
    reached(Number.MAX_SAFE_INTEGER);
  };
  send({ type: 'init', cols, rows });

  return {
    write: (data) => {
      if (stopped || broken) return;
      // One copy, then the copy's buffer moves to the worker: the caller's array stays theirs
      // (the terminal stream still holds it), and the worker gets it without a second copy.
      const bytes = typeof data === 'string' ? encoder.encode(data) : data.slice();
      if (bytes.length === 0) return;
      written += bytes.length;
      send({ type: 'write', data: bytes }, [bytes.buffer]);
    },
    written: () => written,
    backlog: () => (broken ? 0 : written - parsed),
    resize: (size) => {
      if (stopped || (size.cols === cols && size.rows === rows)) return;
      cols = size.cols;
      rows = size.rows;
      send({ type: 'resize', cols, rows });
    },
    settled: () => {
      if (broken || parsed >= written) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ offset: written, resolve }));
    },
    state: () =>
      new Promise<ScreenState>((resolve) => {
        if (stopped) return;
        const id = nextId++;
        states.set(id, resolve);
        send({ type: 'state', id });
      }),
    snapshot: (snapshotOptions = {}) =>
      new Promise<ScreenSnapshot>((resolve) => {
        if (stopped) return;
        const id = nextId++;
        snapshots.set(id, resolve);
        send({ type: 'snapshot', id, scrollback: snapshotOptions.scrollback ?? 0, maxChars: snapshotOptions.maxChars ?? Number.MAX_SAFE_INTEGER });
      }),
    cols: () => cols,
    rowsCount: () => rows,
    stop: () => {
      if (stopped) return;
      stopped = true;
      states.clear();
      snapshots.clear();
      waiters = [];
      worker.terminate();
    },
  };
}
