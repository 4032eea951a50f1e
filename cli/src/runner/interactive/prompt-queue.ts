// prompt-queue.ts: prompts from the hub, typed into claude's TUI one at a time.
//
//   hub prompt:deliver ──enqueue──► [queued …] ──gate open──► paste text ─gap─► Enter (submitted)
//        ◄──prompt:status typing / waiting_for_desk / delivered / returned / dropped──┘
//   transcript user line ──matchPrompt(text)──► delivered (the chat message carries the prompt id)
//
// The gate (prompt-typing.ts, with the paste writer) opens only when claude's turn is idle (hooks /
// claude's status file) AND the screen shows the input box ready and EMPTY. There is no timeout that
// types anyway: a busy turn just waits.
// Text in the box means the desk user is typing: the sender is told waiting_for_desk.
// Invariants: a prompt is typed at most once (after Enter it is never retyped, whatever happens; only
// Enter is pressed again, at most twice, when the turn never started and the box still holds text);
// prompts are typed in arrival order, the next only after the previous was confirmed by the
// transcript; a prompt id seen twice is ignored.
import type { PromptStatus } from '@tether/shared';
import type { PromptState } from '../../screen/prompt-state.ts';
import { ESCAPE, SUBMIT } from '../../pty/paste.ts';
import { gateFor, pasteAndSubmit, PASTE_SETTLE_MS, RECHECK_MS } from './prompt-typing.ts';
import { normalizePromptText } from '../session/prompt-text.ts';

type Item =
  | { kind: 'prompt'; promptId: string; text: string; attach?: readonly string[]; state: 'queued' | 'waiting_for_desk' | 'typing' | 'submitted'; enterAt?: number; enters?: number }
  | { kind: 'command'; text: string; state: 'queued' | 'typing' | 'submitted'; onDone?: () => void }
  | { kind: 'action'; run: () => Promise<void>; state: 'queued' | 'typing' | 'submitted' };

/** How long a submitted prompt may sit in an idle agent's box before Enter is pressed again... */
const ENTER_RETRY_MS = 2_000;
/** ...and how many Enters it gets in all. */
const MAX_ENTERS = 3;

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
  /** `attach`: pasted alone before the text, each (image paths the agent's composer attaches). */
  enqueue(prompt: { promptId: string; text: string; attach?: readonly string[] }): void;
  /** A slash command to type at an idle prompt (e.g. `/model sonnet`); not confirmed by transcript. */
  enqueueCommand(command: { text: string; onDone?: () => void }): void;
  /** Keys of its own (a picker driven by reading the screen between keys) at an idle, empty prompt,
   *  in turn with the prompts: nothing else is typed until `run` settles. */
  enqueueAction(action: { run: () => Promise<void> }): void;
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

/** Prompt ids remembered to ignore a second delivery (the hub re-sends after a reconnect): the
 *  newest this many. All of them were kept before, one id per turn for the session's life (the
 *  runner soak's heap samples counted one more string a turn). */
export const SEEN_PROMPTS_KEPT = 1024;

/** Adds an id, letting the oldest go past SEEN_PROMPTS_KEPT (a Set keeps insertion order). */
function remember(seen: Set<string>, promptId: string): void {
  seen.add(promptId);
  if (seen.size > SEEN_PROMPTS_KEPT) seen.delete(seen.values().next().value!);
}

/** Items taken off the queue unfinished: a prompt in flight is `status`, one never typed dropped. */
function reportFinished(o: { items: Item[]; status: 'returned' | 'dropped'; reason: string; report: PromptQueueDeps['report'] }): void {
  for (const item of o.items) {
    if (item.kind !== 'prompt') continue;
    const wasInFlight = item.state === 'typing' || item.state === 'submitted';
    o.report({ promptId: item.promptId, status: wasInFlight ? o.status : 'dropped', reason: wasInFlight ? o.reason : `not typed: ${o.reason}` });
  }
}

/** The Enter after our paste was dropped: the turn never started and our text still fills the box
 *  (Gemini 0.58.0 on a loaded box, its paste window's timer late). Enter again, never the text: an
 *  Enter that was taken after all left the box empty, so a late one submits nothing. */
function enterDue(item: Extract<Item, { kind: 'prompt' }>, deps: PromptQueueDeps): boolean {
  item.enterAt ??= Date.now(); // first seen submitted: its Enter was just pressed
  return deps.turnIdle() && Date.now() - item.enterAt >= ENTER_RETRY_MS && (item.enters ?? 1) < MAX_ENTERS;
}

function enterAgain(item: Extract<Item, { kind: 'prompt' }>, screen: PromptState, deps: PromptQueueDeps): void {
  item.enterAt = Date.now();
  if (screen.kind !== 'ready' || screen.inputEmpty || !deps.turnIdle()) return;
  item.enters = (item.enters ?? 1) + 1;
  deps.write(SUBMIT);
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
    // A submitted prompt waits for matchPrompt; the screen is read only when Enter may be due again.
    if (item.state === 'submitted' && item.kind === 'prompt' && !enterDue(item, deps)) return void schedule(RECHECK_MS);
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
    if (item.kind === 'prompt' && item.state === 'submitted') return void (enterAgain(item, screen, deps), schedule(RECHECK_MS));
    const gate = gateFor({ submitted: item.state === 'submitted', screen, turnIdle: () => deps.turnIdle() });
    if (gate === 'type') return void type(item);
    if (gate === 'done') {
      items.shift();
      if (item.kind === 'command') item.onDone?.();
      step();
      return;
    }
    if (gate === 'desk-typing' && item.kind === 'prompt' && item.state === 'queued') {
      item.state = 'waiting_for_desk';
      deps.report({ promptId: item.promptId, status: 'waiting_for_desk', reason: 'someone is typing at the desk' });
    }
    schedule(RECHECK_MS);
  }

  async function type(item: Item): Promise<void> {
    if (item.kind === 'action') return act(item);
    busyWriting = true;
    item.state = 'typing';
    if (item.kind === 'prompt') deps.report({ promptId: item.promptId, status: 'typing' });
    const submitted = await pasteAndSubmit({ text: item.text, attach: item.kind === 'prompt' ? item.attach : undefined, write: (data) => deps.write(data), screen: () => deps.screen(), settleMs, current: () => !stopped && items[0] === item });
    if (!submitted) {
      busyWriting = false;
      return;
    }
    item.state = 'submitted';
    if (item.kind === 'prompt') inFlight = { promptId: item.promptId };
    busyWriting = false;
    schedule(RECHECK_MS);
  }

  /** An action runs alone; `push` queues a command or an action (a prompt checks its id first). */
  async function act(item: Extract<Item, { kind: 'action' }>): Promise<void> {
    busyWriting = true;
    item.state = 'typing';
    await item.run().catch(() => {}); // it tells its own failure (model-control); the queue goes on
    if (items[0] === item) items.shift();
    busyWriting = false;
    step();
  }

  const push = (item: Item) => {
    if (stopped) return;
    items.push(item);
    step();
  };

  const finish = (status: 'returned' | 'dropped', reason: string) => reportFinished({ items: items.splice(0), status, reason, report: deps.report });

  return {
    enqueue: ({ promptId, text, attach }) => {
      if (stopped || seen.has(promptId)) return;
      remember(seen, promptId);
      items.push({ kind: 'prompt', promptId, text, ...(attach?.length ? { attach } : {}), state: 'queued' });
      step();
    },
    enqueueCommand: ({ text, onDone }) => push({ kind: 'command', text, state: 'queued', onDone }),
    enqueueAction: ({ run }) => push({ kind: 'action', run, state: 'queued' }),
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
