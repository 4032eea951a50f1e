// headless-input.ts: what `claude -p --input-format stream-json` is told, one JSON line at a time on
// its stdin: the user's turns (runner/headless-turns.ts: one at a time, each written once; a
// prompt's `content` is its text, or its files' blocks and the text), and control requests
// (interrupt, set_permission_mode, set_model, initialize) whose answers some callers wait for.
import type { PromptStatus } from '@tether/shared';
import type { ContentBlock } from '../../attachments/attachments.ts';
import { createHeadlessTurns } from '../../runner/headless-turns.ts';

export type HeadlessInput = ReturnType<typeof createHeadlessInput>;

export function createHeadlessInput(o: {
  log: (line: string) => void;
  report: (promptId: string, status: Exclude<PromptStatus, 'queued'>, reason?: string | null) => void;
  /** A turn was written: the session thinks. */
  onTurnSent: () => void;
}) {
  let stdin: { write(data: string): unknown; flush(): unknown; end(): unknown } | null = null;
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
  const turns = createHeadlessTurns<string | ContentBlock[]>({
    report: o.report,
    canSend: () => stdin !== null,
    send: (item) => writeLine({ type: 'user', message: { role: 'user', content: item.content } }),
    onTurnSent: o.onTurnSent,
  });
  return {
    ...turns,
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
