import { describe, expect, it } from 'vitest';
import typescript from 'highlight.js/lib/languages/typescript';
import hljs from 'highlight.js/lib/core';
import { diffRows } from './diff-rows.ts';
import { escapeHtml, languageOf, splitHtmlLines } from './highlight.ts';

describe('diff rows', () => {
  it('numbers old and new lines from the hunk starts; a note has none', () => {
    const rows = diffRows([{ oldStart: 10, newStart: 12, section: 'function f()', lines: [' a', '-b', '+c', '+d', ' e', '\\ No newline at end of file'] }], null);
    expect(rows).toEqual([
      { kind: 'hunk', text: '@@ -10 +12 @@ function f()' },
      { kind: 'context', old: 10, new: 12, html: 'a' },
      { kind: 'del', old: 11, new: null, html: 'b' },
      { kind: 'add', old: null, new: 13, html: 'c' },
      { kind: 'add', old: null, new: 14, html: 'd' },
      { kind: 'context', old: 12, new: 15, html: 'e' },
      { kind: 'note', text: 'No newline at end of file' },
    ]);
  });

  it('escapes plain text and colours each side as a whole (a comment across lines stays a comment)', () => {
    hljs.registerLanguage('typescript', typescript);
    const rows = diffRows([{ oldStart: 1, newStart: 1, section: '', lines: [' /* one', '-<b>two</b>', '+three */', ' const x = 1;'] }], 'typescript');
    const html = rows.flatMap((r) => ('html' in r ? [r.html] : []));
    expect(html[1]).toBe('<span class="hljs-comment">&lt;b&gt;two&lt;/b&gt;</span>');
    expect(html[2]).toBe('<span class="hljs-comment">three */</span>');
    expect(html[3]).toContain('<span class="hljs-keyword">const</span>');
    expect(diffRows([{ oldStart: 1, newStart: 1, section: '', lines: ['+<script>'] }], null)[1]).toMatchObject({ html: '&lt;script&gt;' });
  });

  it('splits highlight.js HTML at newlines, reopening the spans still open', () => {
    expect(splitHtmlLines('<span class="a">x\ny<span class="b">z\nw</span></span>\nq')).toEqual([
      '<span class="a">x</span>',
      '<span class="a">y<span class="b">z</span></span>',
      '<span class="a"><span class="b">w</span></span>',
      'q',
    ]);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('knows a file language by its name', () => {
    expect(languageOf('src/app.tsx')).toBe('typescript');
    expect(languageOf('Dockerfile')).toBe('dockerfile');
    expect(languageOf('docs/README.md')).toBe('markdown');
    expect(languageOf('LICENSE')).toBeNull();
    expect(languageOf('.env')).toBeNull();
  });
});
