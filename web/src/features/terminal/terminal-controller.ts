// terminal-controller.ts: what the session terminal does while it is open, without React: it
// subscribes to the hub's terminal stream (and only while the page is visible), writes it to the
// screen in order (terminal-stream.ts), acks what was drawn, sends keys, reports and takes the size,
// and scrolls to a tool call's moment. TerminalView (terminal-view.tsx) renders what it reports.
//
//   start ─terminal:subscribe {since}─► hub ─snapshot | bytes(offset)─► stream ─► screen ─► ack
//   page hidden ─terminal:unsubscribe─► hub; visible / reconnect ─terminal:subscribe {next}─► hub
//   keys / quick keys ─terminal:input─► hub;  fitToScreen ─terminal:resize {fit: true}─► hub
//
// Invariant: between start and stop it holds at most one subscription, and after stop it reports
// nothing and sends nothing but its unsubscribe.
import type { TerminalMoment, TerminalSizeNotice, TerminalSnapshotMarks, WebAcks, WebEventName, WebPayload } from '@tether/shared';
import { TERMINAL_ACK_BYTES, toBytes } from '@tether/shared/wire';
import { SocketRequestError } from '../../lib/socket.ts';
import { applyModifiers, type Modifiers } from './keys.ts';
import type { MomentStill } from './moments.ts';
import { createTerminalStream } from './terminal-stream.ts';
import type { TerminalScreen } from './terminal-screen.ts';

/** Acks tell the hub how far this viewer has drawn (its flow control). Batched: one per chunk would
 *  double the messages on a busy build log. At once past TERMINAL_ACK_BYTES unacked, else after this
 *  (timer-only acks capped a fast stream at 1 MiB of high water per 100 ms). */
export const ACK_INTERVAL_MS = 100;

export const MOMENT_GONE = "That moment is no longer in the terminal's scrollback.";

export const TEXT_GONE = "That line is no longer in the terminal's scrollback.";
/** How long Find's line may take to be drawn (a snapshot on a slow phone) before it is called gone. */
const TEXT_WAIT_MS = 3_000;

/** A tool call to show: its moment, and text to find its row by (claude draws `● Bash(ls)`); or
 *  Find's line: the newest row holding `text`. */
export type TerminalJump = { moment: TerminalMoment; tool: string; hint: string } | { text: string };

export type TerminalPhase = { kind: 'connecting' } | { kind: 'live' } | { kind: 'gone'; reason: string } | { kind: 'error'; reason: string };

type Snapshot = { sessionId: string; offset: number; cols: number; rows: number; data: string; marks?: TerminalSnapshotMarks };
type Output = { sessionId: string; offset: number; data: Uint8Array | ArrayBuffer };
type Handlers = { 'terminal:snapshot': (p: Snapshot) => void; 'terminal:output': (p: Output) => void; 'terminal:size': (p: TerminalSizeNotice) => void; connect: () => void };

/** The hub as the controller uses it: requests with acks, and the socket's terminal events. */
export type TerminalHub = {
  request<E extends WebEventName>(event: E, payload: WebPayload<E>): Promise<WebAcks[E]>;
  on<K extends keyof Handlers>(event: K, handler: Handlers[K]): void;
  off<K extends keyof Handlers>(event: K, handler: Handlers[K]): void;
};

/** Whether anyone can see the page, and when that changes. */
export type PageVisibility = { hidden(): boolean; onChange(listener: () => void): () => void };

/** What the view shows, reported as it changes. */
export type TerminalReports = {
  phase(phase: TerminalPhase): void;
  /** The PTY's size, and who holds it (`owner` undefined: unchanged, as a snapshot does not say). */
  size(size: { cols: number; rows: number; owner?: TerminalSizeNotice['owner'] }): void;
  notice(text: string | null): void;
  still(still: { still: MomentStill; tool: string; hint: string } | null): void;
  /** A sticky Ctrl/Alt was used by a key: the view lets go of it. */
  modifiersUsed(): void;
};

export type TerminalController = {
  start(): void;
  stop(): void;
  /** Scroll to a tool call's moment now, or once its bytes are drawn. */
  jump(jump: TerminalJump): void;
  /** Take the size: the PTY resizes to what fits here. */
  fitToScreen(): void;
  /** A quick key (Esc, Tab, arrows…), with the sticky Alt if it is on. */
  quickKey(data: string): void;
};

export function createTerminalController(options: {
  sessionId: string;
  readOnly: boolean;
  hub: TerminalHub;
  page: PageVisibility;
  /** Opens the screen at start (terminal-screen.ts's xterm in the app). */
  openScreen: () => TerminalScreen;
  report: TerminalReports;
  /** The sticky modifiers as they are now. */
  modifiers: () => Modifiers;
  /** The jump asked for before start. */
  jump?: TerminalJump | null;
}): TerminalController {
  const { sessionId, readOnly, hub, report } = options;
  let screen: TerminalScreen | null = null;
  let alive = false;
  let subscribed = false;
  const jumps = createJumps({ report, screen: () => screen, first: options.jump ?? null });
  const teardown: Array<() => void> = [];

  function send(data: string) {
    hub.request('terminal:input', { sessionId, data }).catch((error: unknown) => {
      if (error instanceof SocketRequestError && error.code === 'forbidden') report.notice('This device can only watch this terminal.');
      else if (error instanceof SocketRequestError && error.code === 'gone') report.notice('The session has ended.');
    });
  }

  const stream = createTerminalStream({
    reset: (snapshot) => {
      screen?.reset(snapshot, () => {
        screen?.moments.snapshot(snapshot);
        jumps.retry();
      });
      report.size({ cols: snapshot.cols, rows: snapshot.rows });
    },
    write: (data, end) =>
      screen?.write(data, () => {
        screen?.moments.drew(end);
        jumps.retry();
        acks.schedule();
      }),
    resync: (since) => void subscribe(since),
  });
  const acks = createAcks({ hub, sessionId, next: () => stream.next(), open: () => alive && subscribed });

  async function subscribe(since: number | null) {
    stream.begin(since);
    try {
      const ack = await hub.request('terminal:subscribe', since === null ? { sessionId } : { sessionId, since });
      if (!alive) return;
      subscribed = true;
      if (ack.mode === 'bytes' && stream.next() === null) stream.begin(ack.offset);
      report.phase({ kind: 'live' });
      reportSize();
    } catch (error) {
      if (!alive) return;
      if (error instanceof SocketRequestError && error.code === 'gone') report.phase({ kind: 'gone', reason: error.message });
      else report.phase({ kind: 'error', reason: error instanceof Error ? error.message : String(error) });
    }
  }

  function unsubscribe() {
    if (!subscribed) return;
    subscribed = false;
    hub.request('terminal:unsubscribe', { sessionId }).catch(() => {});
  }

  /** Tells the hub what would fit here, without taking control: used once this viewer types. */
  function reportSize() {
    if (readOnly) return; // a watcher never proposes a size
    const dims = screen?.fitting();
    if (!dims || !subscribed) return;
    hub.request('terminal:resize', { sessionId, ...dims, fit: false }).catch(() => {});
  }

  /** Takes the sticky modifiers a key used, and lets go of them. */
  function takeModifiers(): Modifiers {
    const mods = options.modifiers();
    if (mods.ctrl || mods.alt) report.modifiersUsed();
    return mods;
  }

  const handlers: Handlers = {
    'terminal:snapshot': (payload) => {
      if (payload.sessionId === sessionId) stream.snapshot(payload);
    },
    'terminal:output': (payload) => {
      if (payload.sessionId === sessionId) stream.bytes(payload.offset, toBytes(payload.data));
    },
    'terminal:size': (payload) => {
      if (payload.sessionId !== sessionId) return;
      screen?.resize(payload.cols, payload.rows);
      report.size({ cols: payload.cols, rows: payload.rows, owner: payload.owner });
    },
    connect: () => void subscribe(stream.next()),
  };

  function on<K extends keyof Handlers>(event: K) {
    hub.on(event, handlers[event]);
    teardown.push(() => hub.off(event, handlers[event]));
  }

  return {
    start() {
      if (alive) return;
      alive = true;
      const opened = options.openScreen();
      screen = opened;
      for (const event of Object.keys(handlers) as Array<keyof Handlers>) on(event);
      teardown.push(
        options.page.onChange(() => {
          if (options.page.hidden()) unsubscribe();
          else if (!subscribed) void subscribe(stream.next());
        }),
      );
      teardown.push(
        opened.onKeys((typed) => {
          if (readOnly) return;
          send(applyModifiers(typed, takeModifiers()));
        }),
      );
      teardown.push(opened.onResized(reportSize));
      if (!options.page.hidden()) void subscribe(null);
    },
    stop() {
      if (!alive) return;
      alive = false;
      acks.cancel();
      for (const undo of teardown.splice(0)) undo();
      unsubscribe();
      jumps.stop();
      screen?.dispose();
      screen = null;
    },
    jump: (next) => jumps.want(next),
    fitToScreen() {
      const dims = screen?.fitting();
      if (!dims) return;
      hub.request('terminal:resize', { sessionId, ...dims, fit: true }).catch((error: unknown) => {
        report.notice(error instanceof Error ? `Couldn't resize: ${error.message}` : "Couldn't resize");
      });
      screen?.focus();
    },
    quickKey(data) {
      const mods = takeModifiers();
      send(mods.alt ? `\x1b${data}` : data);
    },
  };
}

/** Acks of what was drawn: at once past TERMINAL_ACK_BYTES unacked, else one per ACK_INTERVAL_MS. */
function createAcks(options: { hub: TerminalHub; sessionId: string; next: () => number | null; open: () => boolean }) {
  let acked = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const send = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const next = options.next();
    if (!options.open() || next === null || next <= acked) return;
    acked = next;
    options.hub.request('terminal:ack', { sessionId: options.sessionId, offset: next }).catch(() => {});
  };
  return {
    schedule() {
      const next = options.next();
      if (next !== null && next - acked >= TERMINAL_ACK_BYTES) send();
      else timer ??= setTimeout(send, ACK_INTERVAL_MS);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** "Show in terminal": the jump asked for, done once its moment is drawn (a row lit up, the screen
 *  the runner kept, or a notice that it is gone). */
function createJumps(options: { report: TerminalReports; screen: () => TerminalScreen | null; first: TerminalJump | null }) {
  const { report } = options;
  /** The jump asked for and not done yet (its bytes may still be on the way). */
  let wanted = options.first;
  let stopHighlight = () => {};
  let giveUp: ReturnType<typeof setTimeout> | null = null;
  const shown = (stop: () => void) => {
    report.notice(null);
    report.still(null);
    stopHighlight();
    stopHighlight = stop;
  };
  /** Find's line: shown once drawn; still missing TEXT_WAIT_MS after the first try, it is gone. */
  const retryText = (screen: TerminalScreen, text: string) => {
    const stop = screen.showText(text);
    if (stop) {
      wanted = null;
      if (giveUp) clearTimeout(giveUp);
      giveUp = null;
      return shown(stop);
    }
    giveUp ??= setTimeout(() => {
      giveUp = null;
      if (!wanted || !('text' in wanted)) return;
      const last = options.screen()?.showText(wanted.text) ?? null;
      wanted = null;
      if (last) shown(last);
      else report.notice(TEXT_GONE);
    }, TEXT_WAIT_MS);
  };
  const retry = () => {
    const screen = options.screen();
    if (!wanted || !screen) return;
    if ('text' in wanted) return retryText(screen, wanted.text);
    const place = screen.moments.locate(wanted.moment, wanted.hint);
    if (place.kind === 'later') return;
    const { tool, hint } = wanted;
    wanted = null;
    if (place.kind === 'gone') {
      report.notice(MOMENT_GONE);
      return;
    }
    report.notice(null);
    if (place.kind === 'still') {
      report.still({ still: place.still, tool, hint });
      return;
    }
    shown(screen.showMoment({ line: place.line, tool, hint }));
  };
  return {
    want(jump: TerminalJump) {
      wanted = jump;
      retry();
    },
    /** After bytes were drawn: the moment may be there now. */
    retry,
    stop() {
      if (giveUp) clearTimeout(giveUp);
      giveUp = null;
      stopHighlight();
      stopHighlight = () => {};
    },
  };
}
