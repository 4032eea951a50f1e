// tailTranscript against real temp files. Each test waits for callbacks (bounded), never sleeps to assert.
import fs, { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type TranscriptTail, tailTranscript } from './tail.ts';

const WAIT_MS = 5_000;
/** Fast poll so the poll path is exercised too; the watch usually wins. */
const POLL_MS = 20;

let dir: string;
const tails: TranscriptTail[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-tail-'));
});
afterEach(() => {
  for (const t of tails.splice(0)) t.stop();
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

async function waitFor(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function start(path: string, extra: { fromOffset?: number; onLines?: (l: string[], o: number) => void } = {}) {
  const lines: string[] = [];
  const offsets: number[] = [];
  const errors: unknown[] = [];
  const tail = tailTranscript({
    path,
    fromOffset: extra.fromOffset,
    pollMs: POLL_MS,
    onLines: (batch, endOffset) => {
      lines.push(...batch);
      offsets.push(endOffset);
      extra.onLines?.(batch, endOffset);
    },
    onError: (err) => errors.push(err),
  });
  tails.push(tail);
  return { tail, lines, offsets, errors };
}

describe('tailTranscript', () => {
  it('waits for a file (and its directory) that appears late', async () => {
    const path = join(dir, 'projects', '-tmp-proj', 's1.jsonl');
    const t = start(path);
    mkdirSync(join(dir, 'projects', '-tmp-proj'), { recursive: true });
    writeFileSync(path, '{"n":1}\n{"n":2}\n');
    await waitFor(() => t.lines.length === 2, 'two lines');
    expect(t.lines).toEqual(['{"n":1}', '{"n":2}']);
    expect(t.tail.offset()).toBe(16);
    expect(t.errors).toEqual([]);
  });

  it('holds back a partial last line until its newline arrives', async () => {
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '');
    const t = start(path);
    appendFileSync(path, '{"a":1}\n{"b":');
    await waitFor(() => t.lines.length === 1, 'first line');
    expect(t.offsets).toEqual([8]);
    expect(t.tail.offset()).toBe(8); // the partial bytes are not counted as consumed
    appendFileSync(path, '2}\n');
    await waitFor(() => t.lines.length === 2, 'completed line');
    expect(t.lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(t.offsets).toEqual([8, 16]);
  });

  it('decodes a UTF-8 character split across writes', async () => {
    const path = join(dir, 't.jsonl');
    const second = Buffer.from('{"t":"héllo 日本 👋"}\n', 'utf8');
    const cut = second.indexOf(Buffer.from('👋', 'utf8')) + 2; // in the middle of the 4-byte emoji
    writeFileSync(path, Buffer.concat([Buffer.from('{"t":"é"}\n'), second.subarray(0, cut)]));
    const t = start(path);
    await waitFor(() => t.lines.length === 1, 'first line'); // so the split bytes were read already
    appendFileSync(path, second.subarray(cut));
    await waitFor(() => t.lines.length === 2, 'second line');
    expect(t.lines).toEqual(['{"t":"é"}', '{"t":"héllo 日本 👋"}']);
    expect(t.tail.offset()).toBe(fs.statSync(path).size);
  });

  it('starts over when the file is truncated', async () => {
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '{"old":1}\n{"old":2}\n{"old":3}\n');
    const t = start(path);
    await waitFor(() => t.lines.length === 3, 'old lines');
    truncateSync(path, 0);
    appendFileSync(path, '{"new":1}\n');
    await waitFor(() => t.lines.length === 4, 'new line');
    expect(t.lines[3]).toBe('{"new":1}');
    expect(t.tail.offset()).toBe(10);
  });

  it('starts over when the file is replaced by another (new inode), even a bigger one', async () => {
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '{"old":1}\n');
    const t = start(path);
    await waitFor(() => t.lines.length === 1, 'old line');
    const next = join(dir, 'next.tmp');
    writeFileSync(next, '{"new":1}\n{"new":2}\n{"new":3}\n');
    renameSync(next, path);
    await waitFor(() => t.lines.length === 4, 'new file lines');
    expect(t.lines.slice(1)).toEqual(['{"new":1}', '{"new":2}', '{"new":3}']);
  });

  it('resumes from a byte offset, and treats an offset past the end as a replaced file', async () => {
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2}\n');
    const t = start(path, { fromOffset: 8 });
    await waitFor(() => t.lines.length === 1, 'line after offset');
    expect(t.lines).toEqual(['{"n":2}']);
    const u = start(path, { fromOffset: 999 });
    await waitFor(() => u.lines.length === 2, 'lines from 0');
    expect(u.lines).toEqual(['{"n":1}', '{"n":2}']);
  });

  it('skips blank lines and strips CRLF', async () => {
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '\n{"n":1}\r\n\n{"n":2}\n');
    const t = start(path);
    await waitFor(() => t.lines.length === 2, 'two lines');
    expect(t.lines).toEqual(['{"n":1}', '{"n":2}']);
    expect(t.tail.offset()).toBe(fs.statSync(path).size);
  });

  it('switchTo follows a new file and forgets the old one', async () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, '{"f":"a1"}\n');
    const t = start(a);
    await waitFor(() => t.lines.length === 1, 'a1');
    t.tail.switchTo(b); // b does not exist yet, like a fresh transcript after /clear
    appendFileSync(a, '{"f":"a2"}\n');
    writeFileSync(b, '{"f":"b1"}\n');
    await waitFor(() => t.lines.includes('{"f":"b1"}'), 'b1');
    appendFileSync(b, '{"f":"b2"}\n');
    await waitFor(() => t.lines.length === 3, 'b2');
    expect(t.lines).toEqual(['{"f":"a1"}', '{"f":"b1"}', '{"f":"b2"}']);
    expect(t.tail.offset()).toBe(22);
    t.tail.switchTo(a, 11); // back to a, resuming after a1 (like --resume of the old session)
    await waitFor(() => t.lines.length === 4, 'a2');
    expect(t.lines[3]).toBe('{"f":"a2"}');
  });

  it('delivers many quick appends (split mid-line) exactly once, in order', async () => {
    const path = join(dir, 't.jsonl');
    const t = start(path);
    const N = 3_000;
    const all = Array.from({ length: N }, (_, i) => `{"i":${i},"pad":"${'ü'.repeat(i % 37)}"}\n`).join('');
    const bytes = Buffer.from(all, 'utf8');
    let pos = 0;
    let seed = 7;
    while (pos < bytes.length) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const n = 1 + (seed % 300); // random chunk sizes, cutting lines and characters anywhere
      appendFileSync(path, bytes.subarray(pos, pos + n));
      pos += n;
      if (seed % 50 === 0) await new Promise((r) => setTimeout(r, 1)); // let reads interleave
    }
    await waitFor(() => t.lines.length >= N, `${N} lines`);
    expect(t.lines).toHaveLength(N);
    t.lines.forEach((line, i) => expect(JSON.parse(line).i).toBe(i));
    expect(t.tail.offset()).toBe(bytes.length);
    expect(t.offsets.at(-1)).toBe(bytes.length);
  });

  it('reports an exception thrown by onLines and keeps tailing', async () => {
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '{"n":1}\n');
    let calls = 0;
    const t = start(path, {
      onLines: () => {
        calls++;
        if (calls === 1) throw new Error('consumer blew up');
      },
    });
    await waitFor(() => t.errors.length === 1, 'error');
    appendFileSync(path, '{"n":2}\n');
    await waitFor(() => t.lines.length === 2, 'next line');
    expect(String(t.errors[0])).toContain('consumer blew up');
  });

  it('stop() closes the watcher and clears the timer; nothing is delivered afterwards', async () => {
    const watchers: fs.FSWatcher[] = [];
    const realWatch = fs.watch.bind(fs) as (...args: unknown[]) => fs.FSWatcher;
    vi.spyOn(fs, 'watch').mockImplementation(((...args: unknown[]) => {
      const w = realWatch(...args);
      watchers.push(w);
      return w;
    }) as typeof fs.watch);
    const setSpy = vi.spyOn(globalThis, 'setInterval');
    const clearSpy = vi.spyOn(globalThis, 'clearInterval');
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '{"n":1}\n');
    const t = start(path);
    await waitFor(() => t.lines.length === 1, 'first line');
    expect(watchers).toHaveLength(1);
    const closeSpy = vi.spyOn(watchers[0] as fs.FSWatcher, 'close');
    const timer = setSpy.mock.results[0]?.value;
    t.tail.stop();
    expect(closeSpy).toHaveBeenCalledTimes(1);
    expect(clearSpy).toHaveBeenCalledWith(timer);
    appendFileSync(path, '{"n":2}\n');
    // A negative can only be checked by waiting: several poll periods with nothing delivered.
    await new Promise((r) => setTimeout(r, POLL_MS * 5));
    expect(t.lines).toEqual(['{"n":1}']);
    t.tail.switchTo(path); // a no-op once stopped: no new watcher or timer
    expect(watchers).toHaveLength(1);
    expect(setSpy).toHaveBeenCalledTimes(1);
  });
});
