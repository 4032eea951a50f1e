// prompt-state.ts: what claude's TUI is doing, read from the rendered screen (never from raw bytes).
//
// Claude 2.1.197 draws its input box at the bottom of the main screen (CLAUDE-CODE.md §6):
//
//   ──────────────────────────   rule
//   ❯ <input, possibly several lines>
//   ──────────────────────────   rule
//     ? for shortcuts · …          footer ("esc to interrupt" while a turn runs)
//
// A permission dialog, picker or other full-width prompt replaces the box (one rule, no `❯` line).
// Invariant: 'ready' is only reported when the box is on screen and the footer shows no running
// turn; 'inputEmpty' ignores dim placeholder text and the inverse-video cursor cell.

import type { PromptState, ScreenRow } from '../../screen/prompt-state.ts';

/** A rule is a long run of box-drawing horizontals; 10 keeps short separators in the banner out. */
const MIN_RULE_CHARS = 10;
/** The footer under the box is one or two rows; more non-empty rows means the box is stale. */
const MAX_FOOTER_ROWS = 4;
const PROMPT_CHAR = '❯';

function isRule(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length >= MIN_RULE_CHARS && /^─+$/.test(trimmed);
}

export type InputBox = { top: number; bottom: number; input: string[]; footer: string[] };

/** The lowest input box on screen, or null. `input` holds the rows between the rules (prompt char stripped). */
export function findInputBox(rows: readonly ScreenRow[]): InputBox | null {
  let lastNonEmpty = -1;
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i]!.text.trim() !== '') {
      lastNonEmpty = i;
      break;
    }
  }
  for (let bottom = lastNonEmpty; bottom >= 1; bottom--) {
    if (!isRule(rows[bottom]!.text)) continue;
    const footer = rows.slice(bottom + 1, lastNonEmpty + 1).map((r) => r.text).filter((t) => t.trim() !== '');
    if (footer.length > MAX_FOOTER_ROWS) return null;
    for (let top = bottom - 1; top >= 0; top--) {
      if (!isRule(rows[top]!.text)) continue;
      const first = rows[top + 1];
      if (top + 1 >= bottom || !first || !first.text.startsWith(PROMPT_CHAR)) return null;
      const input = rows.slice(top + 1, bottom).map((r, i) => (i === 0 ? r.strong.slice(PROMPT_CHAR.length) : r.strong));
      return { top, bottom, input, footer };
    }
    return null;
  }
  return null;
}

export function readPromptState(options: { rows: readonly ScreenRow[]; seenReady: boolean }): PromptState {
  const box = findInputBox(options.rows);
  if (!box) return options.seenReady ? { kind: 'dialog' } : { kind: 'starting' };
  if (box.footer.some((line) => /esc to interrupt/i.test(line))) return { kind: 'busy' };
  const inputEmpty = box.input.every((line) => line.trim() === '');
  return { kind: 'ready', inputEmpty };
}
