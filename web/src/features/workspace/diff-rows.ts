// diff-rows.ts: a file's hunks (shared FileDiff: git's lines with their first column) → the rows the
// diff view draws, each with its old and new line number and its HTML (escaped, coloured when the
// grammar is loaded). Colour is computed per hunk on the old side (context + removed) and the new
// side (context + added) as whole texts, so a line inside a multi-line string or comment is still
// coloured as one.
import type { DiffHunk } from '@tether/shared';
import { escapeHtml, highlightLines } from './highlight.ts';

export type DiffRow =
  | { kind: 'hunk'; text: string }
  | { kind: 'context' | 'add' | 'del'; old: number | null; new: number | null; html: string }
  | { kind: 'note'; text: string };

export function diffRows(hunks: readonly DiffHunk[], language: string | null): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const hunk of hunks) {
    rows.push({ kind: 'hunk', text: `@@ -${hunk.oldStart} +${hunk.newStart} @@${hunk.section ? ` ${hunk.section}` : ''}` });
    const oldText: string[] = [];
    const newText: string[] = [];
    for (const line of hunk.lines) {
      const sign = line.charAt(0);
      if (sign === ' ' || sign === '-') oldText.push(line.slice(1));
      if (sign === ' ' || sign === '+') newText.push(line.slice(1));
    }
    const oldHtml = highlightLines(oldText.join('\n'), language);
    const newHtml = highlightLines(newText.join('\n'), language);
    let o = 0;
    let n = 0;
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const line of hunk.lines) {
      const sign = line.charAt(0);
      const body = line.slice(1);
      if (sign === '\\') {
        rows.push({ kind: 'note', text: body.trim() });
      } else if (sign === '-') {
        rows.push({ kind: 'del', old: oldNo++, new: null, html: oldHtml?.[o] ?? escapeHtml(body) });
        o += 1;
      } else if (sign === '+') {
        rows.push({ kind: 'add', old: null, new: newNo++, html: newHtml?.[n] ?? escapeHtml(body) });
        n += 1;
      } else {
        rows.push({ kind: 'context', old: oldNo++, new: newNo++, html: newHtml?.[n] ?? escapeHtml(body) });
        o += 1;
        n += 1;
      }
    }
  }
  return rows;
}
