// desk-prompt.ts: the desk's side of an approval. While a PreToolUse hook waits for an answer, the
// person at the terminal gets a small tether panel over the bottom rows and can answer there with
// one key; the phone can answer at the same time, and the first answer wins.
//
//   PTY bytes ──► screen model (always) ──► desk (paused while a panel is up; held bytes dropped)
//   desk keys ──► panel (y / a / n / c) or, for Esc and Ctrl-C, straight to claude (it interrupts)
//   panel closed ──► desk repainted from the screen model at an exact parsed point, then bytes flow
//
// Why a panel and not claude's own dialog: the hook's JSON is the only channel that carries a deny
// reason, session rules, AskUserQuestion answers and plan feedback to claude exactly. Claude's own
// dialog is one key away ([c]); choosing it hands the request to the desk for good.
// Invariant: the desk always ends up showing exactly what the screen model holds, and no byte that
// came after the repaint point is lost.
import type { PendingRequest } from '@tether/shared';
import type { ScreenModel } from '../screen/screen.ts';

export type DeskChoice = 'allow' | 'allow-session' | 'deny' | 'dialog';

export type DeskPrompt = {
  /** PTY output meant for the desk terminal. */
  output(data: string): void;
  /** Keys typed at the desk. */
  input(data: string): void;
  /** The desk was resized (the screen model already was). */
  resized(): void;
  /** Shows a panel for `request`; resolves with the desk's choice, or null when `signal` aborts. */
  ask(options: { request: PendingRequest; signal: AbortSignal }): Promise<DeskChoice | null>;
  stop(): void;
};

const ESC = '\x1b';
const CTRL_C = '\x03';

type Entry = { request: PendingRequest; resolve: (choice: DeskChoice | null) => void };

function oneLine(value: unknown): string {
  return String(value ?? '').replace(/\s+/g, ' ').trim();
}

function summary(request: PendingRequest): string {
  const input = request.toolInput;
  switch (request.kind) {
    case 'question': {
      const questions = Array.isArray(input.questions) ? (input.questions as Array<{ question?: unknown }>) : [];
      const first = oneLine(questions[0]?.question);
      return `claude asks: ${first}${questions.length > 1 ? ` (+${questions.length - 1} more)` : ''}`;
    }
    case 'plan':
      return 'claude has a plan ready and wants to start (the plan is in the chat)';
    case 'permission': {
      const detail = input.command ?? input.file_path ?? input.notebook_path ?? input.url ?? input.pattern ?? JSON.stringify(input);
      return `${request.toolName}: ${oneLine(detail)}`;
    }
    default: {
      const never: never = request.kind;
      return String(never);
    }
  }
}

function keysLine(request: PendingRequest): string {
  switch (request.kind) {
    case 'question':
      return "[c] answer in claude's picker   [n] decline   [esc] interrupt";
    case 'plan':
      return "[y] approve   [n] keep planning   [c] claude's dialog   [esc] interrupt";
    case 'permission':
      return "[y] yes   [a] yes, and don't ask again this session   [n] no   [c] claude's dialog   [esc] interrupt";
    default: {
      const never: never = request.kind;
      return String(never);
    }
  }
}

function choiceForKey(request: PendingRequest, key: string): DeskChoice | null {
  switch (key.toLowerCase()) {
    case 'y':
      return request.kind === 'question' ? null : 'allow';
    case 'a':
      return request.kind === 'permission' ? 'allow-session' : null;
    case 'n':
      return 'deny';
    case 'c':
    case '\r':
      return 'dialog';
    default:
      return null;
  }
}

export function createDeskPrompt(options: {
  screen: Pick<ScreenModel, 'snapshot' | 'cols' | 'rowsCount'>;
  /** Writes to the desk terminal. */
  write: (data: string) => void;
  /** Writes to claude's PTY. */
  forward: (data: string) => void;
}): DeskPrompt {
  const queue: Entry[] = [];
  let paused = false;
  let held: string[] = [];
  let stopped = false;

  const fit = (text: string, cols: number) => (text.length > cols ? `${text.slice(0, Math.max(0, cols - 1))}…` : text);
  const draw = () => {
    const entry = queue[0];
    if (!entry || stopped) return;
    const cols = options.screen.cols();
    const rows = options.screen.rowsCount();
    const more = queue.length > 1 ? ` (${queue.length - 1} more waiting)` : '';
    const lines = [
      `\x1b[1;33m${fit(`── tether: claude is waiting for an answer (here or on your phone)${more} `, cols).padEnd(cols, '─')}\x1b[0m`,
      `\x1b[1m${fit(` ${summary(entry.request)}`, cols)}\x1b[0m`,
      fit(` ${keysLine(entry.request)}`, cols),
    ].slice(-Math.max(1, rows));
    const top = rows - lines.length + 1;
    options.write(`\x1b[?25l${lines.map((line, i) => `\x1b[${top + i};1H\x1b[0m\x1b[2K${line}`).join('')}`);
  };
  /** Back to claude's screen: repaint from the model at the point every earlier byte is parsed;
   *  bytes that arrive meanwhile are held and written after the repaint. */
  const repaint = () => {
    held = [];
    void options.screen.snapshot().then((snapshot) => {
      if (queue.length > 0 && !stopped) {
        draw(); // another request came in meanwhile
        return;
      }
      const after = held.join('');
      held = [];
      paused = false;
      if (!stopped) options.write(`\x1b[0m\x1b[H\x1b[2J${snapshot.data}${after}`);
    });
  };
  const finish = (entry: Entry, choice: DeskChoice | null) => {
    const index = queue.indexOf(entry);
    if (index === -1) return;
    queue.splice(index, 1);
    entry.resolve(choice);
    if (index === 0) {
      if (queue.length > 0) draw();
      else repaint();
    } else {
      draw();
    }
  };

  return {
    output: (data) => {
      if (paused) held.push(data);
      else options.write(data);
    },
    input: (data) => {
      const entry = queue[0];
      if (!entry) {
        options.forward(data);
        return;
      }
      if (data === ESC || data === CTRL_C) {
        options.forward(data); // claude interrupts and kills the hook: the request is cancelled
        return;
      }
      if (data.startsWith(ESC)) {
        options.forward(data); // focus reports and other sequences the terminal sends by itself
        return;
      }
      const choice = choiceForKey(entry.request, data.slice(0, 1));
      if (choice) finish(entry, choice);
    },
    resized: () => {
      if (queue.length > 0) draw();
    },
    ask: ({ request, signal }) =>
      new Promise<DeskChoice | null>((resolve) => {
        if (stopped || signal.aborted) {
          resolve(null);
          return;
        }
        const entry: Entry = { request, resolve };
        queue.push(entry);
        signal.addEventListener('abort', () => finish(entry, null), { once: true });
        paused = true;
        draw();
      }),
    stop: () => {
      stopped = true;
      for (const entry of queue.splice(0)) entry.resolve(null);
      paused = false;
      held = [];
    },
  };
}
