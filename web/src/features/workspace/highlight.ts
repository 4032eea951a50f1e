// highlight.ts: syntax colour for the Changes and Files views. highlight.js's core (no grammar in it)
// loads with this chunk; each grammar is a chunk of its own, fetched the first time a file of its
// language is shown (docs/decisions/web.md says why this library). Output is highlight.js's HTML:
// the text escaped, `<span class="hljs-…">` around tokens; it is cut into lines here, each line
// reopening the spans still open at its start, so a multi-line comment stays coloured row by row.
import hljs from 'highlight.js/lib/core';
import type { LanguageFn } from 'highlight.js';

/** Past this much text the colours would cost a phone more than they are worth: shown plain. */
export const HIGHLIGHT_MAX_CHARS = 200_000;

type Loader = () => Promise<{ default: LanguageFn }>;

/** The grammars tether ships, by highlight.js name. Each `import()` is its own chunk. */
const GRAMMARS: Record<string, Loader> = {
  typescript: () => import('highlight.js/lib/languages/typescript'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  css: () => import('highlight.js/lib/languages/css'),
  scss: () => import('highlight.js/lib/languages/scss'),
  xml: () => import('highlight.js/lib/languages/xml'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  python: () => import('highlight.js/lib/languages/python'),
  go: () => import('highlight.js/lib/languages/go'),
  rust: () => import('highlight.js/lib/languages/rust'),
  bash: () => import('highlight.js/lib/languages/bash'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
  sql: () => import('highlight.js/lib/languages/sql'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  java: () => import('highlight.js/lib/languages/java'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  swift: () => import('highlight.js/lib/languages/swift'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  php: () => import('highlight.js/lib/languages/php'),
  ini: () => import('highlight.js/lib/languages/ini'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
};

const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  json: 'json', jsonc: 'json', jsonl: 'json', webmanifest: 'json',
  css: 'css', scss: 'scss', less: 'scss',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml', vue: 'xml',
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
  py: 'python', pyi: 'python',
  go: 'go', rs: 'rust',
  sh: 'bash', bash: 'bash', zsh: 'bash',
  yml: 'yaml', yaml: 'yaml',
  sql: 'sql',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp',
  java: 'java', kt: 'kotlin', kts: 'kotlin', swift: 'swift', rb: 'ruby', php: 'php',
  ini: 'ini', toml: 'ini', cfg: 'ini', conf: 'ini', properties: 'ini',
};
const BY_NAME: Record<string, string> = { Dockerfile: 'dockerfile', Makefile: 'makefile', GNUmakefile: 'makefile', Gemfile: 'ruby', Rakefile: 'ruby', '.bashrc': 'bash', '.zshrc': 'bash', '.profile': 'bash' };

/** The grammar for a file, by its name; null when tether has none (shown plain). */
export function languageOf(path: string): string | null {
  const name = path.split('/').pop() ?? '';
  if (BY_NAME[name]) return BY_NAME[name]!;
  if (name.startsWith('Dockerfile')) return 'dockerfile';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? (BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null) : null;
}

const loading = new Map<string, Promise<boolean>>();

/** Registers a grammar (once); false when it cannot be loaded (offline, unknown). */
export function loadLanguage(language: string): Promise<boolean> {
  if (hljs.getLanguage(language)) return Promise.resolve(true);
  const loader = GRAMMARS[language];
  if (!loader) return Promise.resolve(false);
  let pending = loading.get(language);
  if (!pending) {
    pending = loader().then(
      (module) => (hljs.registerLanguage(language, module.default), true),
      () => (loading.delete(language), false),
    );
    loading.set(language, pending);
  }
  return pending;
}

/** HTML-escaped text, for lines shown plain. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** One HTML string per line of `text` (a registered language), or null for plain text. */
export function highlightLines(text: string, language: string | null): string[] | null {
  if (!language || !hljs.getLanguage(language) || text.length > HIGHLIGHT_MAX_CHARS) return null;
  try {
    return splitHtmlLines(hljs.highlight(text, { language, ignoreIllegals: true }).value);
  } catch {
    return null;
  }
}

const TAG_RE = /<span class="[^"]*">|<\/span>|\n/g;

/** Cuts highlight.js's HTML at newlines: each line closes the spans open at its end and the next
 *  line reopens them, so every line is well-formed HTML on its own. */
export function splitHtmlLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  let last = 0;
  for (const match of html.matchAll(TAG_RE)) {
    line += html.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else if (match[0] === '</span>') {
      open.pop();
      line += match[0];
    } else {
      open.push(match[0]);
      line += match[0];
    }
  }
  lines.push(line + html.slice(last) + '</span>'.repeat(open.length));
  return lines;
}
