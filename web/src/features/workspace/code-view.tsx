// code-view.tsx: one file's text with line numbers and syntax colour (its grammar loaded on first
// need; plain until then, or when tether has none). Long files render a window of lines at a time
// with "Show more", so a phone is never asked to lay out 10,000 rows at once. `line` (Find's result):
// shown even past the first window, scrolled to the middle of the view and marked until another.
import { useEffect, useMemo, useRef, useState } from 'react';
import { escapeHtml, highlightLines } from './highlight.ts';
import { useGrammar } from './use-grammar.ts';

/** Rows laid out per "Show more": a few screens of code, cheap on a phone. */
const LINES_PER_STEP = 1_500;

export function CodeView({ path, text, line = null }: { path: string; text: string; line?: number | null }) {
  const language = useGrammar(path);
  const lines = useMemo(() => {
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    return highlightLines(body, language) ?? body.split('\n').map(escapeHtml);
  }, [text, language]);
  const [shown, setShown] = useState(() => Math.max(LINES_PER_STEP, line ?? 0));
  const foundRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (line === null) return;
    setShown((n) => Math.max(n, line));
    foundRef.current?.scrollIntoView({ block: 'center' });
  }, [line, lines]);
  const digits = String(lines.length).length;
  return (
    <>
      <div className="code-view hljs-scope" role="group" aria-label={`Contents of ${path}`} style={{ ['--line-digits' as string]: digits }}>
        {lines.slice(0, shown).map((html, i) => (
          <div key={i} className={i + 1 === line ? 'code-row code-row-found' : 'code-row'} ref={i + 1 === line ? foundRef : undefined} aria-current={i + 1 === line ? 'true' : undefined}>
            <span className="code-no" aria-hidden="true">
              {i + 1}
            </span>
            {/* highlight.js escapes the text; its only markup is its own token spans. */}
            <code className="code-text" dangerouslySetInnerHTML={{ __html: html || ' ' }} />
          </div>
        ))}
      </div>
      {lines.length > shown ? (
        <div className="workspace-more">
          <button type="button" className="button" onClick={() => setShown((n) => n + LINES_PER_STEP)}>
            Show more lines ({(lines.length - shown).toLocaleString()} left)
          </button>
        </div>
      ) : null}
    </>
  );
}
