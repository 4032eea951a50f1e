// prompt-state.ts: the words the runner and an agent's screen reader share about an agent's TUI. How
// each agent draws its input box, busy footer and dialogs is read in its own room (agents/<agent>/).
// Invariant: once a screen was past 'starting' it never reports 'starting' again (screen-parser.ts).

export type PromptState =
  | { kind: 'starting' }
  | { kind: 'ready'; inputEmpty: boolean }
  | { kind: 'busy' }
  | { kind: 'dialog' };

/** One visible row: its text, and its text with dim (placeholder/hint) cells blanked. Read from a
 *  live screen it also says where a drawn text cursor is (`cursor`: the index in `text` of its first
 *  reverse-video cell, a focused text field's) and each character's foreground colour (`fg`, -1 for
 *  the default), so a reader can tell a placeholder from typed text by how it is drawn; `caret`: the
 *  terminal's own cursor, on the row it is shown on (an agent that leaves it where typing goes: Codex). */
export type ScreenRow = { text: string; strong: string; cursor?: number; fg?: readonly number[]; caret?: number };

/** An agent's reading of its own screen. `seenReady`: the prompt was ready at least once before. */
export type PromptReader = (options: { rows: readonly ScreenRow[]; seenReady: boolean }) => PromptState;
