// prompt-queue.ts: prompts from the hub, typed into claude's TUI one at a time.
//
//   hub prompt:deliver ──enqueue──► [queued …] ──gate open──► paste text ─gap─► Enter (submitted)
//        ◄──prompt:status typing / waiting_for_desk / delivered / returned / dropped──┘
//   transcript user line ──matchPrompt(text)──► delivered (the chat message carries the prompt id)
//
// The gate opens only when claude's turn is idle (hooks / claude's status file) AND the screen shows
// the input box ready and EMPTY. There is no timeout that types anyway: a busy turn just waits.
// Text in the box means the desk user is typing: the sender is told waiting_for_desk.
// Invariants: a prompt is typed at most once (after Enter it is never retyped, whatever happens);
// prompts are typed in arrival order, the next only after the previous was confirmed by the
// transcript; a prompt id seen twice is ignored.
import type { PromptStatus } from '@tether/shared';
import type { PromptState } from '../screen/prompt-state.ts';
import { bracketedPaste, ESCAPE, SUBMIT } from '../pty/paste.ts';

/** Pause between the paste and Enter: claude must have taken the paste in first (CLAUDE-CODE.md §6:
 *  ~300 ms was reliable for typed text; the screen check below makes a shorter gap safe). */
const PASTE_SETTLE_MS = 150;
/** How often the gate is re-checked while something waits (screen changes also trigger a check). */
const RECHECK_MS = 100;

type Item =
  | { kind: 'prompt'; promptId: string; text: string; state: 'queued' | 'waiting_for_desk' | 'typing' | 'submitted' }
  | { kind: 'command'; text: string; state: 'queued' | 'typing' | 'submitted'; onDone?: () => void };

export type PromptQueueDeps = {
  /** What the screen shows once the output so far is parsed (the screen model answers on its own
   *  thread, so this may be a promise; see step()). */
  screen: () => PromptState | Promise<PromptState>;
  /** True when claude is between turns (Stop seen / status file idle), per hooks and status file. */
  turnIdle: () => boolean;
  write: (data: string) => void;
  report: (update: { promptId: string; status: Exclude<PromptStatus, 'queued'>; reason?: string }) => void;
  pasteSettleMs?: number;
};

export type PromptQueue = {
  enqueue(prompt: { promptId: string; text: string }): void;
  /** A slash command to type at an idle prompt (e.g. `/model sonnet`); not confirmed by transcript. */
  enqueueCommand(command: { text: string; onDone?: () => void }): void;
  /** A human user line appeared in the transcript: is it one of ours? */
  matchPrompt(text: string): string | null;
  /** Re-evaluate the gate (call on screen output, hook events). */
  poke(): void;
  /** claude finished a turn (Stop): no prompt is in flight any more. */
  turnEnded(): void;
  /** Esc from the hub: interrupts the turn; the prompt in flight is returned, the rest dropped. */
  abort(): void;
  /** The session ended: everything not delivered is dropped. */
  close(reason: string): void;
  pending(): number;
  stop(): void;
};

export function normalizePromptText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

export function createPromptQueue(deps: PromptQueueDeps): PromptQueue {
  const settleMs = deps.pasteSettleMs ?? PASTE_SETTLE_MS;
  const items: Item[] = [];
  const seen = new Set<string>();
  /** The delivered prompt whose turn may still be running: the one an abort returns. */
  let inFlight: { promptId: string } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let busyWriting = false;

  const schedule = (ms: number) => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      step();
    }, ms);
  };

  const head = (): Item | undefined => items[0];

  /** A screen read is on its way; a poke meanwhile (new output, a hook) makes it stale. */
  let reading = false;
  let pokedWhileReading = false;

  function step(): void {
    if (stopped || busyWriting) return;
    if (reading) {
      pokedWhileReading = true;
      return;
    }
    const item = head();
    if (!item || item.state === 'typing') return;
    if (item.state === 'submitted' && item.kind === 'prompt') {
      // Prompt: waits for matchPrompt.
      schedule(RECHECK_MS);
      return;
    }
    const stateAtRead = item.state;
    reading = true;
    pokedWhileReading = false;
    void Promise.resolve(deps.screen()).then((screen) => {
      reading = false;
      // Something happened after the read was asked for (output, a hook, the queue changed):
      // decide on a fresh read, never on this one.
      if (pokedWhileReading || head() !== item || item.state !== stateAtRead) {
        pokedWhileReading = false;
        step();
        return;
      }
      decide(item, screen);
    });
  }

  function decide(item: Item, screen: PromptState): void {
    if (stopped || busyWriting) return;
    if (item.state === 'submitted') {
      // Command: done when the screen is ready again.
      if (screen.kind === 'ready') {
        items.shift();
        if (item.kind === 'command') item.onDone?.();
        step();
        return;
      }
      schedule(RECHECK_MS);
      return;
    }
    if (screen.kind !== 'ready' || !deps.turnIdle()) {
      schedule(RECHECK_MS);
      return;
    }
    if (!screen.inputEmpty) {
      if (item.kind === 'prompt' && item.state === 'queued') {
        item.state = 'waiting_for_desk';
        deps.report({ promptId: item.promptId, status: 'waiting_for_desk', reason: 'someone is typing at the desk' });
      }
      schedule(RECHECK_MS);
      return;
    }
    void type(item);
  }

  async function type(item: Item): Promise<void> {
    busyWriting = true;
    item.state = 'typing';
    if (item.kind === 'prompt') deps.report({ promptId: item.promptId, status: 'typing' });
    deps.write(bracketedPaste(item.text));
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    // Enter only once the paste is in the box; the box can take a moment to redraw.
    for (;;) {
      if (stopped || items[0] !== item) {
        busyWriting = false;
        return;
      }
      const screen = await deps.screen();
      if (stopped || items[0] !== item) continue;
      if (screen.kind === 'ready' && !screen.inputEmpty) break;
      await new Promise((resolve) => setTimeout(resolve, RECHECK_MS));
    }
    deps.write(SUBMIT);
    item.state = 'submitted';
    if (item.kind === 'prompt') inFlight = { promptId: item.promptId };
    busyWriting = false;
    schedule(RECHECK_MS);
  }

  const finish = (status: 'returned' | 'dropped', reason: string) => {
    for (const item of items.splice(0)) {
      if (item.kind !== 'prompt') continue;
      const wasInFlight = item.state === 'typing' || item.state === 'submitted';
      deps.report({ promptId: item.promptId, status: wasInFlight ? status : 'dropped', reason: wasInFlight ? reason : `not typed: ${reason}` });
    }
  };

  return {
    enqueue: ({ promptId, text }) => {
      if (stopped || seen.has(promptId)) return;
      seen.add(promptId);
      items.push({ kind: 'prompt', promptId, text, state: 'queued' });
      step();
    },
    enqueueCommand: ({ text, onDone }) => {
      if (stopped) return;
      items.push({ kind: 'command', text, state: 'queued', onDone });
      step();
    },
    matchPrompt: (text) => {
      const wanted = normalizePromptText(text);
      const item = items.find(
        (i): i is Extract<Item, { kind: 'prompt' }> =>
          i.kind === 'prompt' && (i.state === 'submitted' || i.state === 'typing') && normalizePromptText(i.text) === wanted,
      );
      if (!item) return null;
      items.splice(items.indexOf(item), 1);
      inFlight = { promptId: item.promptId };
      deps.report({ promptId: item.promptId, status: 'delivered' });
      schedule(RECHECK_MS);
      return item.promptId;
    },
    poke: () => step(),
    turnEnded: () => {
      if (!items.some((i) => i.state === 'submitted' || i.state === 'typing')) inFlight = null;
      step();
    },
    abort: () => {
      deps.write(ESCAPE);
      const current = head();
      const typingNow = current && current.kind === 'prompt' && (current.state === 'typing' || current.state === 'submitted');
      if (!typingNow && inFlight && !deps.turnIdle()) {
        // Its text reached claude and its turn is being interrupted: give it back to the sender.
        deps.report({ promptId: inFlight.promptId, status: 'returned', reason: 'aborted' });
      }
      inFlight = null;
      finish('returned', 'aborted');
    },
    close: (reason) => finish('dropped', reason),
    pending: () => items.length,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
