// headless-input.ts: what `claude -p --input-format stream-json` is told, one JSON line at a time on
// its stdin: the user's turns, one at a time (a prompt is written once, never retyped; the transcript
// user line confirms it), and control requests (interrupt, set_permission_mode, set_model,
// initialize) whose answers some callers wait for.
import type { PromptStatus } from '@tether/shared';
import type { ContentBlock } from '../../attachments/attachments.ts';
import { normalizePromptText } from '../../runner/prompt-queue.ts';

/** `text` is what the transcript's user line is matched by; `content` what claude is sent (with a
 *  prompt's files: their blocks and the text). */
type Item = { promptId: string; text: string; content: string | ContentBlock[]; state: 'queued' | 'sent' };

export type HeadlessInput = ReturnType<typeof createHeadlessInput>;

export function createHeadlessInput(o: {
  log: (line: string) => void;
  report: (promptId: string, status: Exclude<PromptStatus, 'queued'>, reason?: string | null) => void;
  /** A turn was written: the session thinks. */
  onTurnSent: () => void;
}) {
  let stdin: { write(data: string): unknown; flush(): unknown; end(): unknown } | null = null;
  let ready = false;
  let turnBusy = false;
  const queue: Item[] = [];
  const seen = new Set<string>();
  let controlSeq = 0;
  /** Callbacks for control requests whose answer matters (by request id). */
  const answers = new Map<string, (ok: boolean, error?: string) => void>();
  /** claude may be gone (EPIPE): its exit is handled where it is awaited, never by a throw here. */
  const writeLine = (value: unknown) => {
    try {
      stdin?.write(`${JSON.stringify(value)}\n`);
      const flushed = stdin?.flush();
      if (flushed instanceof Promise) flushed.catch((error: unknown) => o.log(`claude stdin: ${String(error)}`));
    } catch (error) {
      o.log(`claude stdin: ${String(error)}`);
    }
  };
  const pump = () => {
    if (!ready || turnBusy || !stdin) return;
    const next = queue.find((item) => item.state === 'queued');
    if (!next) return;
    next.state = 'sent';
    turnBusy = true;
    o.report(next.promptId, 'typing');
    writeLine({ type: 'user', message: { role: 'user', content: next.content } });
    o.onTurnSent();
  };
  return {
    attach(pipe: NonNullable<typeof stdin>) {
      stdin = pipe;
    },
    writeLine,
    /** A control request; `onAnswer` hears claude's control_response to it. Returns its id. */
    control(request: Record<string, unknown>, onAnswer?: (ok: boolean, error?: string) => void): string {
      const id = `tether-${++controlSeq}`;
      if (onAnswer) answers.set(id, onAnswer);
      writeLine({ type: 'control_request', request_id: id, request });
      return id;
    },
    /** claude's control_response: the waiting caller hears it. */
    answered(requestId: string, ok: boolean, error?: string) {
      const answer = answers.get(requestId);
      answers.delete(requestId);
      answer?.(ok, error);
    },
    ready: () => ready,
    busy: () => turnBusy,
    /** claude answered `initialize`: turns may go. */
    becameReady() {
      ready = true;
      pump();
    },
    /** A prompt id from the hub, taken once (the hub may deliver again after a reconnect): false
     *  when it was taken before. */
    claim(promptId: string): boolean {
      if (seen.has(promptId)) return false;
      seen.add(promptId);
      return true;
    },
    /** A claimed prompt, its files fetched: it goes when no turn runs. */
    enqueue(item: { promptId: string; text: string; content: string | ContentBlock[] }) {
      queue.push({ ...item, state: 'queued' });
      pump();
    },
    /** claude's `result`: the turn is over. A sent prompt stays until the transcript shows it: the
     *  `result` line usually arrives before the tailer's next poll reads the user line. */
    turnEnded() {
      turnBusy = false;
    },
    pump,
    /** The transcript's user line confirms the prompt that was sent with this text. */
    matchPrompt(text: string): string | null {
      const wanted = normalizePromptText(text);
      const item = queue.find((i) => i.state === 'sent' && normalizePromptText(i.text) === wanted);
      if (!item) return null;
      queue.splice(queue.indexOf(item), 1);
      o.report(item.promptId, 'delivered');
      return item.promptId;
    },
    /** Every prompt still held goes back (sent) or is dropped (queued), with `why`. */
    close(why: { sent: string; queued: string }) {
      for (const item of queue.splice(0)) o.report(item.promptId, item.state === 'sent' ? 'returned' : 'dropped', item.state === 'sent' ? why.sent : why.queued);
    },
    closeInput(log: (line: string) => void) {
      try {
        stdin?.end();
      } catch (error) {
        log(`claude stdin: ${String(error)}`);
      }
      stdin = null;
    },
  };
}
