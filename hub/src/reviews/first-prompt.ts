// first-prompt.ts: what a reviewer is asked first: the review instructions, the reviewed session's
// diff (the Changes view's, read page by page through its runner: the working tree against HEAD, or
// for a session in a worktree of its own the whole branch since it started; its first line says which)
// cut with a note past MAX_REVIEW_DIFF_CHARS, and the person's focus. Pure text building; the pages
// come from the caller.
import { MAX_REVIEW_DIFF_CHARS, type DiffHunk, type FileDiff, type WorkspaceChanges } from '@tether/shared';

const INSTRUCTIONS = [
  'You are reviewing the changes another coding agent made in this folder, as a second opinion.',
  'You run read-only: do not change any file. Anything you want to run is asked of the person first.',
  'Read the diff below (its first line says what it compares with) and the code around it as you need. Answer with',
  'your findings, most important first, each with its file and line: bugs, risks, missing tests, simpler',
  'ways. End with a one-line verdict. Your answer may be sent back to the agent that made the changes.',
].join('\n');

/** Another reviewer's findings this one is asked to check ("Send on"). */
export type FindingsToCheck = { reviewer: string; text: string };

/** The reviewed session's title in the first line, clipped: the reviewer's session is named by its
 *  first prompt's first line, and "Review of …" tells the session list which review it is. */
const TITLE_LINE_CHARS = 60;

/** The first prompt, from the reviewed session's title, the diff text (already capped), the focus
 *  and, sent on from another review, its findings (after the diff: the reviewer reads the changes
 *  first, then what was said). */
export function reviewPrompt(o: { title: string; diff: string; focus: string; checks?: FindingsToCheck | undefined }): string {
  const focus = o.focus.trim() ? `\n\nThe person asks you to focus on:\n${o.focus.trim()}` : '';
  const checks = o.checks
    ? `\n\nA ${o.checks.reviewer} review of these changes found what follows. Check each finding against the code: say which hold, which do not and why, and what it missed.\n--- findings ---\n${o.checks.text}\n--- end of findings ---`
    : '';
  const oneLine = o.title.replace(/\s+/g, ' ').trim();
  const title = oneLine.length > TITLE_LINE_CHARS ? `${oneLine.slice(0, TITLE_LINE_CHARS - 1)}…` : oneLine;
  return `Review of “${title || 'a session'}”\n\n${INSTRUCTIONS}${focus}\n\n--- diff ---\n${o.diff}\n--- end of diff ---${checks}`;
}

/** One hunk in unified-diff form (counts taken from its lines: the page keeps git's first column). */
function hunkText(hunk: DiffHunk): string {
  const oldCount = hunk.lines.filter((l) => l.startsWith(' ') || l.startsWith('-')).length;
  const newCount = hunk.lines.filter((l) => l.startsWith(' ') || l.startsWith('+')).length;
  const section = hunk.section ? ` ${hunk.section}` : '';
  return [`@@ -${hunk.oldStart},${oldCount} +${hunk.newStart},${newCount} @@${section}`, ...hunk.lines].join('\n');
}

function fileText(diff: FileDiff): string {
  const head = `diff --git a/${diff.path} b/${diff.path}`;
  if (diff.binary) return `${head}\nBinary file changed (not shown)`;
  const shown = diff.hunks.reduce((n, h) => n + h.lines.length, 0);
  const cut = diff.truncated ? `\n[${diff.lineCount - shown} more lines of this file not shown: read the file]` : '';
  return [head, ...diff.hunks.map(hunkText)].join('\n') + cut;
}

/** Collects diff text from pages (`next` asks for the page at a cursor) until the last page or the
 *  cap; past the cap the text is cut with a note saying how much is missing. */
export async function collectDiff(next: (cursor: number) => Promise<WorkspaceChanges | { error: string }>, cap = MAX_REVIEW_DIFF_CHARS): Promise<string> {
  const parts: string[] = [];
  let size = 0;
  let cursor: number | null = 0;
  let total = 0;
  let shownFiles = 0;
  while (cursor !== null) {
    const page = await next(cursor);
    if ('error' in page) return parts.length ? `${parts.join('\n')}\n[the rest of the diff could not be read: ${page.error}]` : `(the diff could not be read: ${page.error}; read the changes in the folder with git)`;
    if (!page.git) return `(no diff: ${page.reason})`;
    if (cursor === 0) parts.push(comparedWith(page.against ?? null));
    total = page.total;
    for (const diff of page.diffs) {
      const text = fileText(diff);
      if (size + text.length + 1 > cap) {
        const room = cap - size;
        if (room > 200) parts.push(text.slice(0, room));
        parts.push(`[diff cut at ${cap} characters: ${total - shownFiles} of ${total} files not shown in full; read them in the folder (git diff)]`);
        return parts.join('\n');
      }
      parts.push(text);
      size += text.length + 1;
      shownFiles += 1;
    }
    cursor = page.next;
  }
  if (total === 0) return `${parts[0] ?? comparedWith(null)}\n(no changes)`;
  return parts.join('\n');
}

function comparedWith(against: { ref: string | null; commit: string } | null): string {
  if (!against) return 'Compared with HEAD: what is not committed yet.';
  return `Compared with ${against.ref ? `${against.ref} at ` : 'commit '}${against.commit}, where this branch started: its commits and what is not committed yet.`;
}
