// resumed-file.ts: which session file a resumed Gemini TUI really writes to. `gemini --resume <id>`
// loads the session's file and goes on writing its turns there, but it also opens a recording of its
// own named for the current minute (`session-<minute>-<id8>.jsonl`), and its SessionStart hook names
// that one. In the minute the session started the two are one file; from the next minute on the
// named file holds only a header and `$set` records, and following it lost every turn after the
// resume (a resume e2e that crossed a minute under load, 0.61.0: the chat stopped at the resume).
// So for a resume, the session's file with the most records of its own is the one to follow.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const SUFFIX = /-([0-9a-f]{8})\.jsonl$/;

/** Records that are turns, not a header or a `$set` patch. */
function ownRecords(path: string): { sessionId: string | null; records: number } {
  try {
    const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '');
    const header = JSON.parse(lines[0] ?? '{}') as { sessionId?: unknown };
    return { sessionId: typeof header.sessionId === 'string' ? header.sessionId : null, records: lines.slice(1).filter((line) => !line.startsWith('{"$set"')).length };
  } catch {
    return { sessionId: null, records: 0 };
  }
}

/** The file a resumed session's turns go to: `named` (SessionStart's), unless another file of the same
 *  session beside it holds more turns. */
export function resumedSessionFile(named: string): string {
  const id8 = SUFFIX.exec(basename(named))?.[1];
  if (!id8) return named;
  const mine = ownRecords(named);
  if (!mine.sessionId) return named;
  let best = { path: named, records: mine.records };
  let names: string[];
  try {
    names = readdirSync(dirname(named));
  } catch {
    return named;
  }
  for (const name of names) {
    if (!name.startsWith('session-') || !name.endsWith(`-${id8}.jsonl`)) continue;
    const path = join(dirname(named), name);
    if (path === named) continue;
    const other = ownRecords(path);
    if (other.sessionId === mine.sessionId && other.records > best.records) best = { path, records: other.records };
  }
  return best.path;
}
