// find-pattern.ts: what a person's search text matches, one line at a time, without a regular
// expression engine (no pattern a phone sends can backtrack catastrophically).
//
//   literal  (default) the text itself
//   wildcard `*` any run of characters within the line, `?` any one character; nothing else is special
//
// A wildcard pattern is split at `*` into segments found left to right, each at its leftmost place
// after the previous one: for "does this line contain a match", leftmost-greedy is exact (if any
// placement exists, the leftmost one leaves the most room for the rest). Each segment is a plain
// scan, so a line costs at most its length × the pattern's length, whatever the pattern.
// Case-insensitive unless asked: both sides lower-cased per UTF-16 unit (no locale rules), so the
// positions found are positions in the original line.

export type FindMode = 'literal' | 'wildcard';

/** One match in a line: [start, end) in UTF-16 units. */
export type LineMatch = { start: number; end: number };

export type LinePattern = {
  /** The first match in `line`, or null. */
  match(line: string): LineMatch | null;
  /** The plain pieces every match contains in order (for a database's LIKE before the exact test). */
  readonly pieces: readonly string[];
};

/** Lower-case one UTF-16 unit at a time, so a line's positions stay where they were. */
function fold(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const lower = ch.toLowerCase();
    out += lower.length === 1 ? lower : ch;
  }
  return out;
}

/** Where `segment` (`?` is any unit when `any`) occurs in `line` at or after `from`, or -1. */
function findSegment(line: string, segment: string, from: number, any: boolean): number {
  if (!any || !segment.includes('?')) return line.indexOf(segment, from);
  outer: for (let at = from; at + segment.length <= line.length; at++) {
    for (let k = 0; k < segment.length; k++) {
      const want = segment[k]!;
      if (want !== '?' && want !== line[at + k]) continue outer;
    }
    return at;
  }
  return -1;
}

export function compileLinePattern(options: { query: string; mode: FindMode; caseSensitive: boolean }): LinePattern {
  const norm = options.caseSensitive ? (s: string) => s : fold;
  const query = norm(options.query);
  const wildcard = options.mode === 'wildcard';
  const segments = wildcard ? query.split('*').filter((s) => s !== '') : [query];
  const pieces = wildcard ? segments.flatMap((s) => s.split('?')).filter((s) => s !== '') : [options.query];
  return {
    pieces,
    match(raw: string): LineMatch | null {
      const line = norm(raw);
      if (segments.length === 0) return line.length > 0 || query.length > 0 ? { start: 0, end: line.length } : null;
      let from = 0;
      let start = -1;
      for (const segment of segments) {
        const at = findSegment(line, segment, from, wildcard);
        if (at < 0) return null;
        if (start < 0) start = at;
        from = at + segment.length;
      }
      return { start, end: from };
    },
  };
}

/** A line around its match, cut to `max` characters so a minified file's one line is not sent
 *  whole; `start`/`end` are the match's place in the returned text. */
export function lineSnippet(line: string, match: LineMatch, max: number): { text: string; start: number; end: number } {
  if (line.length <= max) return { text: line, start: match.start, end: match.end };
  const matchLength = Math.min(match.end - match.start, max);
  const room = max - matchLength;
  const from = Math.max(0, Math.min(match.start - Math.floor(room / 3), line.length - max));
  const text = line.slice(from, from + max);
  return { text, start: match.start - from, end: match.start - from + matchLength };
}
