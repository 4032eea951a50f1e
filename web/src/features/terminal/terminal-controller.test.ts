// The session terminal's controller without React or a browser: a stand-in hub, page and screen.
// Subscribing only while visible, drawing in order, acks batched, keys with sticky modifiers, the
// size, jumps to a moment, and a stop that leaves nothing subscribed or listening.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TERMINAL_ACK_BYTES } from '@tether/shared/wire';
import { SocketRequestError } from '../../lib/socket.ts';
import type { MomentPlace } from './moments.ts';
import { ACK_INTERVAL_MS, createTerminalController, MOMENT_GONE, TEXT_GONE, type TerminalHub, type TerminalPhase } from './terminal-controller.ts';
import type { TerminalScreen } from './terminal-screen.ts';

const SESSION = '6f1c2d3e-0000-4000-8000-000000000001';
const flush = () => new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => Promise.resolve());

function world(options: { hidden?: boolean; readOnly?: boolean; place?: MomentPlace; refuseInput?: string } = {}) {
  const requests: Array<{ event: string; payload: Record<string, unknown> }> = [];
  const handlers = new Map<string, (payload: never) => void>();
  const hub: TerminalHub = {
    request: ((event: string, payload: Record<string, unknown>) => {
      requests.push({ event, payload });
      if (event === 'terminal:subscribe') return Promise.resolve({ mode: 'snapshot' });
      if (event === 'terminal:input' && options.refuseInput) return Promise.reject(new SocketRequestError(options.refuseInput, 'no'));
      return Promise.resolve({});
    }) as TerminalHub['request'],
    on: (event, handler) => void handlers.set(event, handler as never),
    off: (event) => void handlers.delete(event),
  };
  let hidden = options.hidden ?? false;
  const visibility = new Set<() => void>();
  const page = { hidden: () => hidden, onChange: (l: () => void) => (visibility.add(l), () => visibility.delete(l)) };
  const drawn: string[] = [];
  const keys = new Set<(data: string) => void>();
  const shown: number[] = [];
  const found: string[] = [];
  let disposed = false;
  const screen: TerminalScreen = {
    // xterm calls back once it has parsed, never inside write itself.
    reset: (snapshot, done) => (drawn.push(`reset ${snapshot.cols}x${snapshot.rows} ${snapshot.data}`), queueMicrotask(done)),
    write: (data, done) => (drawn.push(new TextDecoder().decode(data)), queueMicrotask(done)),
    resize: (cols, rows) => void drawn.push(`resize ${cols}x${rows}`),
    fitting: () => ({ cols: 80, rows: 24 }),
    onKeys: (l) => (keys.add(l), () => keys.delete(l)),
    onResized: () => () => {},
    moments: { snapshot: () => {}, drew: () => {}, locate: () => options.place ?? { kind: 'later' } },
    showMoment: ({ line }) => (shown.push(line), () => {}),
    showText: (text) => (drawn.join('').includes(text) ? (found.push(text), () => {}) : null),
    focus: () => {},
    dispose: () => void (disposed = true),
  };
  const phases: TerminalPhase[] = [];
  const notices: Array<string | null> = [];
  let modifiers = { ctrl: false, alt: false };
  const controller = createTerminalController({
    sessionId: SESSION,
    readOnly: options.readOnly ?? false,
    hub,
    page,
    openScreen: () => screen,
    modifiers: () => modifiers,
    report: { phase: (p) => phases.push(p), size: () => {}, notice: (n) => notices.push(n), still: () => {}, modifiersUsed: () => (modifiers = { ctrl: false, alt: false }) },
  });
  const emit = (event: string, payload: unknown) => handlers.get(event)?.(payload as never);
  return {
    controller, requests, handlers, drawn, phases, notices, shown, found, emit,
    events: (name: string) => requests.filter((r) => r.event === name).map((r) => r.payload),
    type: (data: string) => keys.forEach((l) => l(data)),
    setModifiers: (next: { ctrl: boolean; alt: boolean }) => (modifiers = next),
    setHidden: (next: boolean) => ((hidden = next), visibility.forEach((l) => l())),
    disposed: () => disposed,
  };
}

describe('terminal controller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("jumps to Find's line once it is drawn, and says it is gone when it never is", async () => {
    const w = world();
    w.controller.jump({ text: 'walrus' });
    w.controller.start();
    await flush();
    w.emit('terminal:snapshot', { sessionId: SESSION, offset: 0, cols: 80, rows: 24, data: 'screen' });
    await flush();
    expect(w.found).toEqual([]);
    w.emit('terminal:output', { sessionId: SESSION, offset: 0, data: new TextEncoder().encode('a walrus line') });
    await flush();
    expect(w.found).toEqual(['walrus']);
    w.controller.jump({ text: 'narwhal' });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(w.found).toEqual(['walrus']);
    expect(w.notices.at(-1)).toBe(TEXT_GONE);
    w.controller.stop();
  });

  it('subscribes on start, draws the snapshot then bytes in order, and acks once per interval', async () => {
    const w = world();
    w.controller.start();
    await flush();
    expect(w.events('terminal:subscribe')).toEqual([{ sessionId: SESSION }]);
    expect(w.phases.at(-1)).toEqual({ kind: 'live' });
    expect(w.events('terminal:resize')).toEqual([{ sessionId: SESSION, cols: 80, rows: 24, fit: false }]);
    w.emit('terminal:snapshot', { sessionId: SESSION, offset: 10, cols: 100, rows: 30, data: 'screen' });
    w.emit('terminal:output', { sessionId: SESSION, offset: 10, data: new TextEncoder().encode('abc') });
    w.emit('terminal:output', { sessionId: SESSION, offset: 10, data: new TextEncoder().encode('abc') });
    w.emit('terminal:output', { sessionId: SESSION, offset: 13, data: new TextEncoder().encode('def') });
    w.emit('terminal:output', { sessionId: 'another', offset: 16, data: new TextEncoder().encode('zzz') });
    expect(w.drawn).toEqual(['reset 100x30 screen', 'abc', 'def']);
    await flush();
    expect(w.events('terminal:ack')).toEqual([]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(w.events('terminal:ack')).toEqual([{ sessionId: SESSION, offset: 16 }]);
    // Past TERMINAL_ACK_BYTES unacked, the ack goes at once.
    w.emit('terminal:output', { sessionId: SESSION, offset: 16, data: new Uint8Array(TERMINAL_ACK_BYTES) });
    await flush();
    expect(w.events('terminal:ack').at(-1)).toEqual({ sessionId: SESSION, offset: 16 + TERMINAL_ACK_BYTES });
    // A hole (bytes past the next expected one) subscribes again from the last byte drawn.
    w.emit('terminal:output', { sessionId: SESSION, offset: 16 + TERMINAL_ACK_BYTES + 5, data: new TextEncoder().encode('late') });
    expect(w.events('terminal:subscribe').at(-1)).toEqual({ sessionId: SESSION, since: 16 + TERMINAL_ACK_BYTES });
  });

  it('holds no subscription while the page is hidden and picks up where it was when it shows again', async () => {
    const w = world({ hidden: true });
    w.controller.start();
    await flush();
    expect(w.events('terminal:subscribe')).toEqual([]);
    w.setHidden(false);
    await flush();
    w.emit('terminal:snapshot', { sessionId: SESSION, offset: 0, cols: 80, rows: 24, data: 'hi' });
    w.setHidden(true);
    expect(w.events('terminal:unsubscribe')).toEqual([{ sessionId: SESSION }]);
    w.setHidden(false);
    await flush();
    expect(w.events('terminal:subscribe')).toEqual([{ sessionId: SESSION }, { sessionId: SESSION, since: 0 }]);
  });

  it('sends keys with the sticky modifiers once, says when this device may only watch, and types nothing read-only', async () => {
    const w = world({ refuseInput: 'forbidden' });
    w.controller.start();
    await flush();
    w.setModifiers({ ctrl: true, alt: false });
    w.type('c');
    w.type('c');
    w.controller.quickKey('\x1b[A');
    expect(w.events('terminal:input').map((p) => p.data)).toEqual(['\x03', 'c', '\x1b[A']);
    await flush();
    expect(w.notices).toContain('This device can only watch this terminal.');

    const watcher = world({ readOnly: true });
    watcher.controller.start();
    await flush();
    watcher.type('x');
    expect(watcher.events('terminal:input')).toEqual([]);
    expect(watcher.events('terminal:resize')).toEqual([]);
  });

  it('follows the size the hub announces and takes it on fitToScreen', async () => {
    const w = world();
    w.controller.start();
    await flush();
    w.emit('terminal:size', { sessionId: SESSION, cols: 120, rows: 40, owner: 'desk' });
    expect(w.drawn).toEqual(['resize 120x40']);
    w.controller.fitToScreen();
    expect(w.events('terminal:resize').at(-1)).toEqual({ sessionId: SESSION, cols: 80, rows: 24, fit: true });
  });

  it('jumps to a moment found on the screen, and says so when it is gone', async () => {
    const found = world({ place: { kind: 'found', line: 42 } });
    found.controller.start();
    found.controller.jump({ moment: { run: 'r', start: 1 }, tool: 'Bash', hint: 'ls' });
    expect(found.shown).toEqual([42]);

    const gone = world({ place: { kind: 'gone' } });
    gone.controller.start();
    gone.controller.jump({ moment: { run: 'r', start: 1 }, tool: 'Bash', hint: 'ls' });
    expect(gone.notices).toEqual([MOMENT_GONE]);
  });

  it('stop unsubscribes, stops listening, disposes the screen, and reports nothing after', async () => {
    const w = world();
    w.controller.start();
    await flush();
    w.controller.stop();
    expect(w.events('terminal:unsubscribe')).toEqual([{ sessionId: SESSION }]);
    expect([...w.handlers.keys()]).toEqual([]);
    expect(w.disposed()).toBe(true);
    const phases = w.phases.length;
    w.setHidden(false);
    await flush();
    expect(w.phases.length).toBe(phases);
  });
});
