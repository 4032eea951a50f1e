import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Markdown, parseMarkdownBlocks, safeHref } from './markdown.tsx';

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe('Markdown', () => {
  it('never injects HTML from a message', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;script&gt;');
  });
  it('keeps only http(s) and mailto links', () => {
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref(' JAVASCRIPT:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('https://example.com')).toBe('https://example.com');
    const out = html('[click](javascript:alert(1)) and [docs](https://example.com/a)');
    expect(out).not.toContain('javascript:');
    expect(out).toContain('href="https://example.com/a"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
  });
  it('renders what claude writes: code fences, lists, tables, inline marks', () => {
    const out = html(['# Title', '', 'Some **bold**, `code` and *em*.', '', '```ts', 'const a = 1 < 2;', '```', '', '- one', '- two', '', '| a | b |', '| - | -: |', '| 1 | 2 |'].join('\n'));
    expect(out).toContain('<h3 class="md-heading">Title</h3>');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<code>code</code>');
    expect(out).toContain('<em>em</em>');
    expect(out).toContain('const a = 1 &lt; 2;');
    expect(out).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(out).toContain('<th style="text-align:right">b</th>');
  });
  it('keeps an unfinished code fence (claude still writing) as code', () => {
    expect(parseMarkdownBlocks('```sh\nls -la')).toEqual([{ kind: 'code', lang: 'sh', text: 'ls -la' }]);
  });
  it('nests lists by indentation', () => {
    const out = html('1. first\n   - inner\n2. second');
    expect(out).toContain('<ol><li><p>first</p><ul><li>inner</li></ul></li><li>second</li></ol>');
  });
});
