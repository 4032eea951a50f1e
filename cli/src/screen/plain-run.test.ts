// The screen model that skips plain floods must end on exactly the screen, history and cursor of a
// terminal that parsed every byte: compared through the serializer (what viewers get as snapshots).
import { describe, expect, it } from 'vitest';
import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { createScreenModel } from './screen.ts';
import { createPlainRuns, keepLines, SCROLLBACK_LINES } from './plain-run.ts';

/** These tests read bytes and rows, not an agent's prompt. */
const noPrompt = () => ({ kind: 'starting' }) as const;

const enc = new TextEncoder();

/** A small deterministic PRNG (mulberry32), so a failing case can be replayed from its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function fullParse(bytes: Uint8Array, size: { cols: number; rows: number }, resizeAt?: { at: number; cols: number; rows: number }) {
  const term = new Terminal({ cols: size.cols, rows: size.rows, scrollback: SCROLLBACK_LINES, allowProposedApi: true });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  const parts = resizeAt ? [bytes.subarray(0, resizeAt.at), bytes.subarray(resizeAt.at)] : [bytes];
  await new Promise<void>((resolve) => term.write(parts[0]!, resolve));
  if (resizeAt) {
    term.resize(resizeAt.cols, resizeAt.rows);
    await new Promise<void>((resolve) => term.write(parts[1]!, resolve));
  }
  const buffer = term.buffer.active;
  const text = Array.from({ length: term.rows }, (_, y) => buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? '').join('\n');
  const result = { data: serializer.serialize({ scrollback: SCROLLBACK_LINES }), text };
  term.dispose();
  return result;
}

/** Feeds `bytes` to the skipping model in random chunk sizes, reading state now and then. */
async function modelParse(bytes: Uint8Array, size: { cols: number; rows: number }, random: () => number, resizeAt?: { at: number; cols: number; rows: number }) {
  const model = createScreenModel({ ...size, readPrompt: noPrompt });
  const feed = async (part: Uint8Array, start: number) => {
    for (let at = 0; at < part.length; ) {
      const n = Math.min(part.length - at, 1 + Math.floor(random() ** 3 * 200_000));
      model.write(part.subarray(at, at + n));
      at += n;
      // The runner gets each PTY read in its own turn; xterm parses (and answers) between turns.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (random() < 0.05) expect((await model.state()).offset).toBe(start + at);
    }
  };
  const cut = resizeAt?.at ?? bytes.length;
  await feed(bytes.subarray(0, cut), 0);
  if (resizeAt) {
    model.resize(resizeAt);
    await feed(bytes.subarray(cut), cut);
  }
  const snapshot = await model.snapshot({ scrollback: SCROLLBACK_LINES });
  const state = await model.state();
  const skipped = model.skipped();
  model.stop();
  return { snapshot, state, skipped };
}

/** Lines of random printable text (some longer than the screen, some empty, some with tabs). */
function plainLines(random: () => number, count: number, eol = '\r\n'): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const len = random() < 0.1 ? Math.floor(random() * 300) : Math.floor(random() * 70);
    let line = `${i}:`;
    while (line.length < len) line += random() < 0.05 ? '\t' : String.fromCharCode(0x21 + Math.floor(random() * 94));
    out += line + eol;
  }
  return out;
}

async function expectSameScreen(input: string | Uint8Array, seed: number, options: { cols?: number; rows?: number; resizeAt?: { at: number; cols: number; rows: number } } = {}) {
  const bytes = typeof input === 'string' ? enc.encode(input) : input;
  const size = { cols: options.cols ?? 80, rows: options.rows ?? 24 };
  const want = await fullParse(bytes, size, options.resizeAt);
  const got = await modelParse(bytes, size, rng(seed), options.resizeAt);
  expect(got.snapshot.offset).toBe(bytes.length);
  expect(got.state.text).toBe(want.text);
  expect(got.snapshot.data).toBe(want.data);
  return { skipped: got.skipped, total: bytes.length };
}

describe('screen model with plain-run skipping', () => {
  it('ends a long plain flood on the same screen and history as parsing every byte', async () => {
    const random = rng(1);
    // Coloured content first (a background colour too: new lines scrolled in carry it), the cursor
    // left mid-screen, then ~1.4 MB of plain lines.
    const before = '\x1b[2J\x1b[H\x1b[31;44mred on blue\x1b[0m\r\n\x1b[7;30Hmiddle\x1b[42m';
    const { skipped, total } = await expectSameScreen(before + plainLines(random, 20_000), 1);
    expect(skipped).toBeGreaterThan(total * 0.5);
  });

  it('keeps exactly enough lines when a flood is cut on its last write', async () => {
    // Earlier screen content that a too-short tail would leave visible in the history.
    const before = Array.from({ length: 60 }, (_, i) => `\x1b[3${i % 7}mold line ${i} ${'o'.repeat(66)}\x1b[0m`).join('\r\n');
    // Short lines: one CR LF is one buffer line, so a tail one line too short shows old lines.
    const flood = enc.encode(Array.from({ length: 8000 }, (_, i) => `flood ${i} ${'x'.repeat(i % 60)}\r\n`).join(''));
    // The cursor at the bottom, or at the top of a full screen (the worst case: `rows` lines of old
    // text below it are overwritten in place before fresh lines come).
    for (const [rows, start] of [[10, '\r\n'], [24, '\r\n'], [50, '\r\n'], [10, '\x1b[H'], [24, '\x1b[H']] as const) {
      const size = { cols: 80, rows };
      const model = createScreenModel({ ...size, readPrompt: noPrompt });
      model.write(before + start);
      model.write('plain run starts here\r\n');
      await model.settled(); // the run's start was asked about (and found safe) on the way
      model.write(flood); // one write: held past the trim size and cut right away, then read
      const snapshot = await model.snapshot({ scrollback: SCROLLBACK_LINES });
      expect(model.skipped()).toBeGreaterThan(0);
      model.stop();
      const head = enc.encode(`${before}${start}plain run starts here\r\n`);
      const all = new Uint8Array(head.length + flood.length);
      all.set(head);
      all.set(flood, head.length);
      expect(snapshot.data).toBe((await fullParse(all, size)).data);
    }
  });

  it('is exact when the flood starts inside an escape sequence split across chunks', async () => {
    const random = rng(2);
    await expectSameScreen(`\x1b[3${'1m'}${plainLines(random, 8000)}`, 2);
    await expectSameScreen(`\x1b[1;4${'4'}m${plainLines(random, 8000)}\x1b[0mend`, 3);
  });

  it('does not drop the plain payload of an unterminated OSC string', async () => {
    const random = rng(4);
    // A long OSC (like an OSC 52 clipboard copy) is plain bytes until its BEL: none may be skipped.
    const payload = 'QUJD'.repeat(300_000);
    await expectSameScreen(`\x1b]0;${payload}\r\n${plainLines(random, 3000)}\x07after ${plainLines(random, 5000)}`, 4);
  });

  it('keeps lines outside a scroll region exact (no skipping there)', async () => {
    const random = rng(5);
    const inRegion = await expectSameScreen(`top line\x1b[5;20r\x1b[10;1H${plainLines(random, 9000)}\x1b[r`, 5);
    expect(inRegion.skipped).toBe(0);
    // The cursor below the region: every line overwrites the last row in place.
    await expectSameScreen(`\x1b[2;10r\x1b[24;1H${plainLines(random, 9000)}`, 6);
  });

  it('is exact on the alternate screen, with LF-only output, and across a resize', async () => {
    const random = rng(7);
    await expectSameScreen(`\x1b[?1049h\x1b[44m${plainLines(random, 9000)}`, 7);
    await expectSameScreen(`half${plainLines(random, 9000, '\n')}`, 8);
    const text = plainLines(random, 12_000);
    await expectSameScreen(text, 9, { resizeAt: { at: Math.floor(text.length / 2), cols: 50, rows: 10 } });
  });

  it('matches on random mixes of plain floods and escape sequences', async () => {
    const pieces = [
      '\x1b[31m',
      '\x1b[0m',
      '\x1b[4;7H',
      '\x1b[2J',
      '\x1b[K',
      '\x1b[3;12r',
      '\x1b[r',
      '\x1b[?1049h',
      '\x1b[?1049l',
      '\x1b[?7l',
      '\x1b[?7h',
      '\x1b[4h',
      '\x1b[4l',
      '\x1b]2;title\x07',
      '\x1b(0',
      '\x1b(B',
      'héllo wörld ✓ 漢字\r\n',
      '\x1b7',
      '\x1b8',
      '\b\b',
    ];
    for (let seed = 10; seed < 22; seed++) {
      const random = rng(seed);
      let input = '';
      for (let i = 0; i < 12; i++) {
        input += random() < 0.4 ? plainLines(random, Math.floor(random() * 5000)) : pieces[Math.floor(random() * pieces.length)]!;
      }
      await expectSameScreen(input, seed, { cols: 40 + Math.floor(random() * 80), rows: 5 + Math.floor(random() * 40) });
    }
  });
});

describe('plain runs', () => {
  it('hands the parser only the tail of a flood once the start is known to be safe', () => {
    let parsed = 0;
    let skipped = 0;
    let answer: ((ok: boolean) => void) | null = null;
    const runs = createPlainRuns({
      rows: () => 40,
      sink: {
        parse: (bytes, dropped) => {
          parsed += bytes.length;
          skipped += dropped;
        },
        askAtParsed: (a) => {
          answer = a;
        },
      },
    });
    const chunk = enc.encode('the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJ\r\n'.repeat(1000));
    runs.write(chunk);
    answer!(true);
    for (let i = 0; i < 70; i++) runs.write(chunk);
    runs.flush();
    const total = chunk.length * 71;
    expect(parsed + skipped).toBe(total);
    // At most the kept lines plus one trim step of bytes are parsed out of ~4.8 MB.
    expect(parsed).toBeLessThan(keepLines(40) * 70 + 256 * 1024 + chunk.length);
    expect(skipped).toBeGreaterThan(total * 0.9);
  });

  it('parses everything when the start is not safe, and splits chunks around escape bytes', () => {
    const seen: string[] = [];
    let skipped = 0;
    const answers: Array<(ok: boolean) => void> = [];
    const runs = createPlainRuns({
      rows: () => 24,
      sink: {
        parse: (bytes, dropped) => {
          seen.push(new TextDecoder().decode(bytes));
          skipped += dropped;
        },
        askAtParsed: (a) => answers.push(a),
      },
    });
    const flood = 'x'.repeat(60) + '\r\n';
    runs.write(enc.encode(`${flood.repeat(5000)}\x1b[1mbold\x1b[0m${flood.repeat(5000)}`));
    answers[0]!(false);
    answers[1]!(false);
    runs.flush();
    expect(skipped).toBe(0);
    expect(seen.join('')).toBe(`${flood.repeat(5000)}\x1b[1mbold\x1b[0m${flood.repeat(5000)}`);
    expect(seen).toContain('\x1b[1mbold\x1b[0m');
  });
});
