// markdown.tsx: a small Markdown renderer for claude's text (chat, plans) that builds React
// elements directly. Safe by construction: no HTML string is ever injected, so `<script>` in a
// message is shown as text; links are kept only for http(s) and mailto.
// Covers what claude writes: paragraphs, headings, fenced code, lists (nested by indent), quotes,
// tables, rules, and inline code, bold, italic, strikethrough, links and bare URLs.
import { Fragment, memo, type ReactNode } from 'react';
import './markdown.css';

type Block =
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'rule' }
  | { kind: 'quote'; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'table'; header: string[]; align: Array<'left' | 'center' | 'right' | null>; rows: string[][] }
  | { kind: 'paragraph'; text: string };

const FENCE_RE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING_RE = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE_RE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE_RE = /^ {0,3}> ?/;
const LIST_RE = /^( {0,3})([-*+]|\d{1,9}[.)])\s+/;
/** A GFM delimiter row (`| --- | :-: |`). It must contain a pipe, so a lone `-` never turns the
 *  line above it into a table. */
const TABLE_SEP_RE = /^(?=.*\|)\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  return row.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function isBlockStart(line: string): boolean {
  return FENCE_RE.test(line) || HEADING_RE.test(line) || RULE_RE.test(line) || QUOTE_RE.test(line) || LIST_RE.test(line);
}

export function parseMarkdownBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE_RE.exec(line);
    if (fence) {
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? '').trimStart().startsWith(marker)) body.push(lines[i++] ?? '');
      i++; // the closing fence (or the end of an unfinished block while claude is still writing)
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING_RE.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      i++;
      continue;
    }
    if (RULE_RE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (QUOTE_RE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE_RE.test(lines[i] ?? '')) body.push((lines[i++] ?? '').replace(QUOTE_RE, ''));
      blocks.push({ kind: 'quote', text: body.join('\n') });
      continue;
    }
    const list = LIST_RE.exec(line);
    if (list) {
      const ordered = /\d/.test(list[2] ?? '');
      const indent = list[1]?.length ?? 0;
      const items: string[] = [];
      let current: string[] = [];
      while (i < lines.length) {
        const next = lines[i] ?? '';
        const item = LIST_RE.exec(next);
        if (item && (item[1]?.length ?? 0) <= indent + 1 && /\d/.test(item[2] ?? '') === ordered) {
          if (current.length) items.push(current.join('\n'));
          current = [next.slice(item[0].length)];
          i++;
          continue;
        }
        if (!next.trim()) {
          // A blank line ends the list unless the next line continues it (indented or another item).
          const after = lines[i + 1] ?? '';
          if (after.startsWith('  ') || (LIST_RE.test(after) && /\d/.test(LIST_RE.exec(after)?.[2] ?? '') === ordered)) {
            current.push('');
            i++;
            continue;
          }
          break;
        }
        if (/^\s{2,}/.test(next)) {
          current.push(next.replace(/^\s{2,4}/, ''));
          i++;
          continue;
        }
        if (isBlockStart(next)) break;
        current.push(next.trim()); // lazy continuation of the item's paragraph
        i++;
      }
      if (current.length) items.push(current.join('\n'));
      blocks.push({ kind: 'list', ordered, start: ordered ? Number.parseInt(list[2] ?? '1', 10) : 1, items });
      continue;
    }
    if (line.includes('|') && TABLE_SEP_RE.test(lines[i + 1] ?? '')) {
      const header = splitRow(line);
      const align = splitRow(lines[i + 1] ?? '').map((cell) =>
        cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : cell.startsWith(':') ? 'left' : null,
      );
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && (lines[i] ?? '').includes('|') && (lines[i] ?? '').trim()) rows.push(splitRow(lines[i++] ?? ''));
      blocks.push({ kind: 'table', header, align, rows });
      continue;
    }
    const body: string[] = [];
    while (i < lines.length && (lines[i] ?? '').trim() && !isBlockStart(lines[i] ?? '')) {
      if (body.length && (lines[i] ?? '').includes('|') && TABLE_SEP_RE.test(lines[i + 1] ?? '')) break;
      body.push((lines[i++] ?? '').trim());
    }
    if (body.length === 0) body.push((lines[i++] ?? '').trim());
    blocks.push({ kind: 'paragraph', text: body.join('\n') });
  }
  return blocks;
}

// ---- inline ------------------------------------------------------------------------------------------

const INLINE_RE =
  /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|~~([\s\S]+?)~~|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"\]])/;

/** Only these schemes become links; anything else (javascript:, data:) stays text. */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  return /^(https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : null;
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let n = 0;
  while (rest) {
    const match = INLINE_RE.exec(rest);
    if (!match) {
      out.push(...withBreaks(rest, `${keyPrefix}${n++}`));
      break;
    }
    if (match.index > 0) out.push(...withBreaks(rest.slice(0, match.index), `${keyPrefix}${n++}`));
    const key = `${keyPrefix}${n++}`;
    const [whole, , code, bold1, bold2, strike, em1, em2, linkText, linkUrl, bareUrl] = match;
    if (code !== undefined) out.push(<code key={key}>{code.replace(/^ (.+) $/, '$1')}</code>);
    else if (bold1 !== undefined || bold2 !== undefined) out.push(<strong key={key}>{renderInline(bold1 ?? bold2 ?? '', key)}</strong>);
    else if (strike !== undefined) out.push(<del key={key}>{renderInline(strike, key)}</del>);
    else if (em1 !== undefined || em2 !== undefined) out.push(<em key={key}>{renderInline(em1 ?? em2 ?? '', key)}</em>);
    else if (linkText !== undefined && linkUrl !== undefined) {
      const href = safeHref(linkUrl);
      out.push(
        href ? (
          <ExternalLink key={key} href={href}>
            {renderInline(linkText, key)}
          </ExternalLink>
        ) : (
          <Fragment key={key}>{renderInline(linkText, key)}</Fragment>
        ),
      );
    } else if (bareUrl !== undefined) {
      out.push(
        <ExternalLink key={key} href={bareUrl}>
          {bareUrl}
        </ExternalLink>,
      );
    } else out.push(whole);
    rest = rest.slice(match.index + whole.length);
  }
  return out;
}

function withBreaks(text: string, key: string): ReactNode[] {
  const parts = text.split('\n');
  return parts.flatMap((part, index) => (index === 0 ? [part] : [<br key={`${key}-${index}`} />, part]));
}

// ---- blocks → elements ---------------------------------------------------------------------------

function renderBlock(block: Block, key: string): ReactNode {
  switch (block.kind) {
    case 'code':
      return (
        <pre key={key} className="md-code" data-lang={block.lang || undefined}>
          {block.lang ? <span className="md-code-lang">{block.lang}</span> : null}
          <code>{block.text}</code>
        </pre>
      );
    case 'heading': {
      // Chat headings stay small: h1 in a message must not outshout the app's own header.
      const Tag = (['h3', 'h3', 'h4', 'h5', 'h6', 'h6'] as const)[block.level - 1] ?? 'h6';
      return (
        <Tag key={key} className="md-heading">
          {renderInline(block.text, key)}
        </Tag>
      );
    }
    case 'rule':
      return <hr key={key} />;
    case 'quote':
      return <blockquote key={key}>{renderBlocks(block.text, key)}</blockquote>;
    case 'list': {
      const items = block.items.map((item, index) => <li key={`${key}-${index}`}>{renderListItem(item, `${key}-${index}`)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table':
      return (
        <div key={key} className="md-table-wrap">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, index) => (
                  <th key={index} style={{ textAlign: block.align[index] ?? undefined }}>
                    {renderInline(cell, `${key}h${index}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {block.header.map((_, c) => (
                    <td key={c} style={{ textAlign: block.align[c] ?? undefined }}>
                      {renderInline(row[c] ?? '', `${key}r${r}c${c}`)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'paragraph':
      return <p key={key}>{renderInline(block.text, key)}</p>;
    default: {
      const never: never = block;
      return String(never);
    }
  }
}

/** A list item is inline text unless it holds blocks of its own (a nested list, code). */
function renderListItem(text: string, key: string): ReactNode {
  const blocks = parseMarkdownBlocks(text);
  if (blocks.length === 1 && blocks[0]?.kind === 'paragraph') return renderInline(blocks[0].text, key);
  return blocks.map((block, index) => renderBlock(block, `${key}.${index}`));
}

function renderBlocks(source: string, keyPrefix: string): ReactNode[] {
  return parseMarkdownBlocks(source).map((block, index) => renderBlock(block, `${keyPrefix}.${index}`));
}

export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  return <div className={className ? `markdown ${className}` : 'markdown'}>{renderBlocks(text, 'b')}</div>;
});
