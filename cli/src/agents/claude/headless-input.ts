// headless-input.ts: what `claude -p --input-format stream-json` is told, one JSON line at a time on
// its stdin: the user's turns (the runner sends one at a time, each once: runner/headless/turns.ts)
// and control requests (interrupt, set_permission_mode, set_model, initialize) whose answers some
// callers wait for.
import type { HeadlessPipes } from '../headless-transport.ts';

export type HeadlessInput = ReturnType<typeof createHeadlessInput>;

export function createHeadlessInput(o: { log: (line: string) => void }) {
  let stdin: HeadlessPipes['stdin'] | null = null;
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
  return {
    attach(pipe: HeadlessPipes['stdin']) {
      stdin = pipe;
    },
    /** A turn can be written (attached, not closed). */
    open: () => stdin !== null,
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
    closeInput() {
      try {
        stdin?.end();
      } catch (error) {
        o.log(`claude stdin: ${String(error)}`);
      }
      stdin = null;
    },
  };
}
