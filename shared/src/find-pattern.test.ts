// find-pattern.test.ts: literal and wildcard search text, matched per line without a regular
// expression: exact positions, case folding that keeps positions, and a bounded cost for the
// patterns that make a backtracking engine take exponential time.
import { describe, expect, it } from 'vitest';
import { compileLinePattern, lineSnippet } from './find-pattern.ts';
import { FindRequestSchema } from './find.ts';

const match = (query: string, line: string, mode: 'literal' | 'wildcard' = 'literal', caseSensitive = false) => compileLinePattern({ query, mode, caseSensitive }).match(line);

describe('search patterns (find-pattern.ts)', () => {
  it('finds a literal anywhere, case-insensitive by default; regex characters are plain', () => {
    expect(match('World', 'hello world')).toEqual({ start: 6, end: 11 });
    expect(match('World', 'hello world', 'literal', true)).toBeNull();
    expect(match('a.b*', 'xa.b*y')).toEqual({ start: 1, end: 5 });
    expect(match('a.b', 'axb')).toBeNull();
    expect(match('*', 'a*b')).toEqual({ start: 1, end: 2 }); // literal mode: a star is a star
  });

  it('matches * within a line and ? as one character', () => {
    expect(match('foo*bar', 'x foo and bar y', 'wildcard')).toEqual({ start: 2, end: 13 });
    expect(match('f?o', 'a fxo', 'wildcard')).toEqual({ start: 2, end: 5 });
    expect(match('foo*bar', 'bar foo', 'wildcard')).toBeNull();
    expect(match('*end', 'the end', 'wildcard')).toEqual({ start: 4, end: 7 });
    expect(compileLinePattern({ query: 'a*b?c', mode: 'wildcard', caseSensitive: false }).pieces).toEqual(['a', 'b', 'c']);
  });

  it('keeps positions when lower-casing changes a character’s length', () => {
    // 'İ' lower-cases to two units; folding per unit leaves it as is, so later positions hold.
    expect(match('x', 'İx')).toEqual({ start: 1, end: 2 });
  });

  it('takes time linear in the line for patterns that break backtracking engines', () => {
    const line = 'a'.repeat(100_000);
    const started = Date.now();
    expect(match('*a*a*a*a*a*a*a*a*b', line, 'wildcard')).toBeNull();
    expect(match('a?a?a?a?a?a?a?a?a?b', line, 'wildcard')).toBeNull();
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('cuts a long line around its match', () => {
    const line = `${'x'.repeat(1000)}needle${'y'.repeat(1000)}`;
    const cut = lineSnippet(line, { start: 1000, end: 1006 }, 100);
    expect(cut.text).toHaveLength(100);
    expect(cut.text.slice(cut.start, cut.end)).toBe('needle');
  });

  it('refuses what cannot be a search', () => {
    expect(FindRequestSchema.safeParse({ q: 'a\nb' }).success).toBe(false);
    expect(FindRequestSchema.safeParse({ q: '   ' }).success).toBe(false);
    expect(FindRequestSchema.safeParse({ q: '*?*', mode: 'wildcard' }).success).toBe(false);
    expect(FindRequestSchema.safeParse({ q: 'x'.repeat(201) }).success).toBe(false);
    expect(FindRequestSchema.parse({ q: 'x' })).toEqual({ q: 'x', mode: 'literal', caseSensitive: false, in: ['chat', 'terminal', 'files'] });
  });
});
