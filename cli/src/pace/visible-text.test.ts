// visible-text.test.ts: what counts as drawing text (a sign of life) and what is only cursor motion.
import { describe, expect, it } from 'vitest';
import { drawsText } from './visible-text.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('drawsText', () => {
  it('an idle claude redraw (cursor moves and an erase, as traced) draws no text', () => {
    for (const redraw of ['\x1b[H\r\x1b[80C\x1b[25B\x1b[K\x1b[30;1H\x1b[28;3H', '\x1b[H\r\x1b[36C\x1b[29B\x1b[K\x1b[30;1H\x1b[28;3H']) {
      expect(drawsText(bytes(redraw)), JSON.stringify(redraw)).toBe(false);
    }
  });

  it('controls, spaces, modes, titles and charset switches alone draw no text', () => {
    const quiet = ['', '\r\n\t   \x07\x08', '\x1b[?25l\x1b[?2004h\x1b[38;2;10;20;30m\x1b[0m\x1b[?25h', '\x1b]0;claude title\x07\x1b]8;;http://x\x1b\\', '\x1b(B\x1b7\x1b8\x1b='];
    for (const text of quiet) expect(drawsText(bytes(text)), JSON.stringify(text)).toBe(false);
  });

  it('printable text, a spinner word or a UTF-8 mark draws text', () => {
    for (const text of ['\x1b[2K\x1b[1G✻ Thinking…', '\x1b[28;3Hx', '❯', '\x1b]0;title\x07ok']) expect(drawsText(bytes(text)), JSON.stringify(text)).toBe(true);
  });

  it('the tail of a sequence cut across two reads counts as text (it stirs, the safe way)', () => {
    expect(drawsText(bytes('\x1b[28'))).toBe(false);
    expect(drawsText(bytes(';3H'))).toBe(true);
  });
});
