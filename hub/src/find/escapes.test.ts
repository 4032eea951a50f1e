// escapes.test.ts: a terminal's replay as plain lines: every escape sequence and control character
// dropped, cursor moves to another row turned into line breaks, words moved apart kept apart.
import { describe, expect, it } from 'vitest';
import { compileLinePattern } from '@tether/shared';
import { stripEscapes } from './escapes.ts';
import { searchTerminalText } from './terminal.ts';

describe('terminal text for search (find/escapes.ts, find/terminal.ts)', () => {
  it('drops SGR, OSC, DCS, charset and C1 sequences, keeps the words', () => {
    expect(stripEscapes('\x1b[1;31mred\x1b[0m plain')).toBe('red plain');
    expect(stripEscapes('\x1b]0;title\x07after\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\')).toBe('afterlink');
    expect(stripEscapes('\x1bP1$r0m\x1b\\x\x1b(By\x1b7z\x1b8')).toBe('xyz');
    expect(stripEscapes('a\u009b2Kb\u009d0;t\u009cc')).toBe('abc');
    expect(stripEscapes('bell\x07 back\x08space\x7f')).toBe('bell backspace');
  });

  it('starts a line at \\r, \\n and a cursor move to another row; a move right is a space', () => {
    expect(stripEscapes('one\r\ntwo\rthree')).toBe('one\n\ntwo\nthree');
    expect(stripEscapes('\x1b[5;1Htop\x1b[6;1Hnext\x1b[3Cword')).toBe('\ntop\nnext word');
  });

  it('drops an unterminated sequence to the end, and a truncated escape', () => {
    expect(stripEscapes('ok\x1b]0;never closed')).toBe('ok');
    expect(stripEscapes('ok\x1b')).toBe('ok');
    expect(stripEscapes('ok\x1b[12')).toBe('ok');
  });

  it('searches the last screen and the bytes after it, newest first, each line once', () => {
    const snapshot = { offset: 0, cols: 80, rows: 24, data: '\x1b[32mbuild one: passed\x1b[0m\r\nbuild two: FAILED\r\n' };
    const bytes = new TextEncoder().encode('\x1b[2K\rbuild three: passed\r\n\x1b[2K\rbuild three: passed\r\n');
    const found = searchTerminalText({ text: { snapshot, bytes }, pattern: compileLinePattern({ query: 'passed', mode: 'literal', caseSensitive: false }) });
    expect(found.matches.map((m) => m.text)).toEqual(['build three: passed', 'build one: passed']);
    expect(found.matches[0]!.text.slice(found.matches[0]!.start, found.matches[0]!.end)).toBe('passed');
    expect(found.lines).toBe(4);
    expect(found.stopped).toBeNull();
  });

  it('stops at the match limit and says so', () => {
    const data = Array.from({ length: 80 }, (_, i) => `line ${i} hit`).join('\r\n');
    const found = searchTerminalText({ text: { snapshot: { data }, bytes: new Uint8Array() }, pattern: compileLinePattern({ query: 'hit', mode: 'literal', caseSensitive: false }) });
    expect(found.matches).toHaveLength(50);
    expect(found.stopped).toBe('matches');
    expect(found.matches[0]!.text).toBe('line 79 hit');
  });
});
