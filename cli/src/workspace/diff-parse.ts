// diff-parse.ts: git's unified diff of one file → hunks a phone can draw (shared FileDiff), cut to
// the caps: at most WORKSPACE_MAX_DIFF_LINES lines and `maxChars` of text per file, each line at most
// WORKSPACE_MAX_LINE_CHARS. The header (diff --git, index, ---/+++ and mode lines) is skipped; a
// "Binary files … differ" or "GIT binary patch" makes the file binary, named and never dumped.
import { WORKSPACE_MAX_DIFF_LINES, WORKSPACE_MAX_LINE_CHARS, type DiffHunk, type FileDiff } from '@tether/shared';

const HUNK_RE = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@ ?(.*)$/;

/** A line cut to the cap (git's first column kept), and what it costs in a JSON answer. */
export function capLine(line: string): string {
  return line.length > WORKSPACE_MAX_LINE_CHARS + 1 ? line.slice(0, WORKSPACE_MAX_LINE_CHARS + 1) : line;
}

/** JSON characters of a line in an answer (quotes, escapes, the comma). */
export function encodedChars(line: string): number {
  return JSON.stringify(line).length + 1;
}

/** `cut`: the text itself was cut short (git's output over its cap); the diff says so. */
export function parseFileDiff(options: { path: string; text: string; maxChars: number; cut?: boolean }): FileDiff {
  const hunks: DiffHunk[] = [];
  let current: DiffHunk | null = null;
  let lineCount = 0;
  let shown = 0;
  let chars = 0;
  let truncated = false;
  let binary = false;
  const lines = options.text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const head = HUNK_RE.exec(line);
    if (head) {
      current = { oldStart: Number(head[1]), newStart: Number(head[2]), section: capLine(head[3] ?? '').slice(0, WORKSPACE_MAX_LINE_CHARS), lines: [] };
      if (!truncated) hunks.push(current);
      continue;
    }
    if (!current) {
      if (line.startsWith('Binary files ') || line === 'GIT binary patch') binary = true;
      continue;
    }
    if (!/^[ +\-\\]/.test(line)) continue;
    lineCount += 1;
    if (truncated) continue;
    const kept = capLine(line);
    const cost = encodedChars(kept);
    if (shown >= WORKSPACE_MAX_DIFF_LINES || chars + cost > options.maxChars) {
      truncated = true;
      continue;
    }
    current.lines.push(kept);
    shown += 1;
    chars += cost;
  }
  return { path: options.path, binary, hunks: hunks.filter((h) => h.lines.length > 0 || !truncated), lineCount, truncated: truncated || (options.cut ?? false) };
}

/** An untracked file as a diff: every line added (the file's text, already read and capped). */
export function addedFileDiff(options: { path: string; text: string; maxChars: number; cut: boolean }): FileDiff {
  const lines = options.text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const body = lines.map((l) => `+${l}`);
  if (!options.text.endsWith('\n') && options.text.length > 0 && !options.cut) body.push('\\ No newline at end of file');
  return parseFileDiff({ path: options.path, text: `@@ -0,0 +1,${lines.length} @@\n${body.join('\n')}\n`, maxChars: options.maxChars, cut: options.cut });
}
