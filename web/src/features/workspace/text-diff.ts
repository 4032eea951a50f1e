// text-diff.ts: the difference between two texts as git-style hunks (shared DiffHunk), for the
// stale-save question: what the file holds now against what the person wrote. Lines common to both
// ends are set aside first (an edit and a desk change are usually small and apart), then the middle
// is matched by longest common subsequence when it is small enough for a phone, else shown as all
// removed and all added. Line endings do not count (the runner writes the file's own).

/** Middle sizes (old lines × new lines) matched line by line; past it, whole blocks. */
const MAX_CELLS = 1_000_000;
const CONTEXT = 3;

type Hunk = { oldStart: number; newStart: number; section: string; lines: string[] };
type Op = { sign: ' ' | '-' | '+'; text: string };

export function textDiff(before: string, after: string): Hunk[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
  const middle = matchMiddle(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  const ops: Op[] = [...a.slice(0, head).map((text): Op => ({ sign: ' ', text })), ...middle, ...a.slice(a.length - tail).map((text): Op => ({ sign: ' ', text }))];
  return hunksOf(ops);
}

function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function matchMiddle(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_CELLS) return [...a.map((text): Op => ({ sign: '-', text })), ...b.map((text): Op => ({ sign: '+', text }))];
  // lcs[i][j]: the longest common subsequence of a[i…] and b[j…], in one flat array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ sign: ' ', text: a[i++]! });
      j += 1;
    } else if (i < a.length && (j === b.length || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
      ops.push({ sign: '-', text: a[i++]! }); // a removal before the addition that replaces it
    } else {
      ops.push({ sign: '+', text: b[j++]! });
    }
  }
  return ops;
}

/** Changed lines with CONTEXT lines around them; changes closer than two contexts share a hunk. */
function hunksOf(ops: Op[]): Hunk[] {
  const hunks: Hunk[] = [];
  let oldNo = 1;
  let newNo = 1;
  const positions = ops.map((op) => {
    const at = { old: oldNo, new: newNo };
    if (op.sign !== '+') oldNo += 1;
    if (op.sign !== '-') newNo += 1;
    return at;
  });
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.sign === ' ') {
      k += 1;
      continue;
    }
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    let quiet = 0;
    while (end < ops.length && quiet <= 2 * CONTEXT) {
      quiet = ops[end]!.sign === ' ' ? quiet + 1 : 0;
      end += 1;
    }
    end = Math.min(ops.length, end - Math.max(0, quiet - CONTEXT));
    hunks.push({ oldStart: positions[start]!.old, newStart: positions[start]!.new, section: '', lines: ops.slice(start, end).map((op) => op.sign + op.text) });
    k = end;
  }
  return hunks;
}
