// end-claude.ts: how a runner ends claude when a person asks (the phone's End, `tether stop`):
// through claude's own exit path, so claude flushes its transcript, runs its SessionEnd hooks,
// removes its status file, prints "Resume this session with: claude --resume <id>" and exits 0.
//
//   PTY:      Ctrl-C as at the desk, in pairs 400 ms apart (inside claude's double-press window), the
//             pairs a second apart, until claude exits. On an idle prompt the first pair exits (the
//             hint "Press Ctrl-C again to exit", then the exit); a press that first has something to
//             cancel (a turn, text in the input box, a dialog) uses up the first pair and the next
//             pair exits. The gap after a pair lets claude finish exiting (SessionEnd hooks) before a
//             further press, which its terminal would echo as ^C under the resume hint.
//             /exit was not chosen: it only works typed into an empty, idle input box, and a
//             keystroke typed mid-turn is queued by claude, not run.
//   headless: close claude's stdin: `claude -p` exits at the end of its input (0). A turn in flight
//             is interrupted first (stream-json control request) and the input closed on its
//             `result`; claude then exits 1, its exit status being its last turn's (an error).
//   either:   still running after AGENT_END_GRACE_MS → SIGTERM (measured: claude 2.1.330 then dies with 143,
//             no resume hint on the screen); the hub SIGKILLs the runner 8 s after asking.
//
// Invariant: one end per runner; a second request while ending is a no-op.

import { createEnder, type Ender } from '../ender.ts';

/** The key claude's own exit path starts from at the desk. */
export const CTRL_C = '\x03';
/** When the PTY's presses go, in ms after the request: three pairs (see above). */
export const PTY_PRESSES_AT = [0, 400, 1_500, 1_900, 3_000, 3_400];

export type ClaudeEnder = Ender;
/** The clean path as claude's: see agents/ender.ts. */
export const createClaudeEnder = createEnder;

/** The PTY runner's ender: Ctrl-C pairs into claude's PTY, SIGTERM as the last resort. */
export function createPtyEnder(options: { pty: { write(data: string): void; kill(signal?: string): void; exited: Promise<unknown> }; log: (line: string) => void }): ClaudeEnder {
  const { pty, log } = options;
  return createClaudeEnder({ step: () => pty.write(CTRL_C), at: PTY_PRESSES_AT, exited: pty.exited, force: () => pty.kill('SIGTERM'), log });
}
