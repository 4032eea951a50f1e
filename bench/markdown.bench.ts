// markdown.bench.ts: the hand-written Markdown renderer (web/src/lib/ui/markdown.tsx) against a
// library (marked + DOMPurify), for docs/decisions/markdown.md. The library is not a dependency of
// the app: it is loaded from MARKDOWN_LIB_DIR (a folder with marked, dompurify and jsdom installed,
// e.g. `bun add marked dompurify jsdom` in /tmp/mdlib); without it only ours is measured.
//   markdown_bundle_kb_gzip{renderer}: the renderer bundled alone (react left out: the app has it),
//     minified, gzipped at level 9.
//   markdown_render_10k_ms{renderer}: 10k chat messages of the shapes claude writes turned into HTML
//     (ours: React's renderToString of <Markdown>; the library: marked.parse then DOMPurify.sanitize
//     on jsdom). Median of RUNS runs, the two renderers alternating.
//   markdown_xss_escapes{renderer}: payloads (a curated list, then fast-check's mixes of its pieces)
//     whose output, parsed as HTML, holds a script-capable element, an on* attribute or a
//     script-capable URL. Must be 0.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import fc from 'fast-check';
import type { Measurement } from './run.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MESSAGES = 10_000;
const RUNS = 5;
const FUZZ_RUNS = 2_000;

type Render = (text: string) => string;
type Library = { render: Render; isDangerous: (html: string) => string | null; dir: string };

/** The shapes of a chat: prose with inline marks, a list, code, a table, a quote, links. */
function chatMessage(i: number): string {
  const shapes = [
    `I looked at **src/app.ts** and the \`load()\` call at line ${i}: it _retries_ forever. See https://example.com/issue/${i}.`,
    `Steps:\n\n1. Read the config\n2. Check \`TOKEN\`\n   - trimmed\n   - non-empty\n3. Start the hub\n\nDone ~~maybe~~ for now.`,
    '```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n\nThat is the whole change.',
    `| file | lines |\n| --- | ---: |\n| a.ts | ${i} |\n| b.ts | ${i * 2} |\n\n> The table is sorted by name.`,
    `## Summary ${i}\n\nThe [docs](https://example.com/docs) say otherwise; mail [me](mailto:a@example.com).\n\n---\n\nNext: run the tests.`,
  ];
  return shapes[i % shapes.length]!;
}

/** Payloads from the usual XSS lists, in Markdown's own clothes too (links, images, autolinks, HTML blocks). */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](  javascript:alert(1))',
  '[click](java\tscript:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](vbscript:msgbox(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](javascript:alert(1))',
  '![x](x" onerror="alert(1))',
  '<javascript:alert(1)>',
  '[a](https://example.com" onmouseover="alert(1))',
  '<a href="javascript:alert(1)">x</a>',
  '<details open ontoggle=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<form><button formaction=javascript:alert(1)>x</button></form>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)"</style>',
  '```\n</code><script>alert(1)</script>\n```',
  '`<img src=x onerror=alert(1)>`',
  '| a |\n| - |\n| <img src=x onerror=alert(1)> |',
  '> <script>alert(1)</script>',
  '- [x](javascript:alert(1))',
  '**<svg/onload=alert(1)>**',
  '[x](https://example.com)<img src=x onerror=alert(1)>',
  '<a href="&#x6A;avascript:alert(1)">x</a>',
];

const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'srcdoc'];
/** Elements that run or load script (or reroute the page's URLs) by being there. A <form> or a
 *  <style> does not: a form's script URL is caught on its attribute, CSS runs no script. */
const SCRIPT_ELEMENTS = 'script, iframe, frame, object, embed, link, meta, base';

/** Why a rendered HTML (parsed by jsdom) could run script, or null. */
function dangerIn(doc: Document): string | null {
  const element = doc.querySelector(SCRIPT_ELEMENTS);
  if (element) return `<${element.tagName.toLowerCase()}>`;
  for (const node of Array.from(doc.querySelectorAll('*'))) {
    for (const attribute of Array.from(node.attributes)) {
      if (/^on/i.test(attribute.name)) return `${attribute.name}=`;
      const value = attribute.value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
      if (URL_ATTRIBUTES.includes(attribute.name.toLowerCase()) && /^(javascript|vbscript|data):/.test(value)) return `${attribute.name}=${value.slice(0, 30)}`;
    }
  }
  return null;
}

function loadLibrary(): Library | null {
  const dir = process.env.MARKDOWN_LIB_DIR;
  if (!dir) return null;
  const require = createRequire(join(dir, 'package.json'));
  const { marked } = require('marked');
  const createDOMPurify = require('dompurify');
  const { JSDOM } = require('jsdom');
  const purify = createDOMPurify(new JSDOM('').window);
  const render: Render = (text) => purify.sanitize(marked.parse(text, { async: false }) as string) as string;
  const isDangerous = (html: string) => dangerIn(new JSDOM(html).window.document as Document);
  return { render, isDangerous, dir };
}

/** Ours, loaded by path: the bench's tsconfig has no JSX, the web app's does (Bun runs it as is). */
async function loadOurs(): Promise<Render> {
  const { Markdown } = (await import(join(ROOT, 'web/src/lib/ui/markdown.tsx'))) as { Markdown: ComponentType<{ text: string }> };
  return (text) => renderToString(createElement(Markdown, { text }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** One renderer bundled alone by Bun (react external), minified and gzipped. */
async function bundleKb(entry: string, resolveDir: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'tether-md-bundle-'));
  try {
    const file = join(resolveDir, `.bench-markdown-entry-${process.pid}.ts`);
    writeFileSync(file, entry);
    try {
      const out = await Bun.build({ entrypoints: [file], outdir: dir, minify: true, target: 'browser', external: ['react', 'react-dom', 'react/jsx-runtime', 'react/jsx-dev-runtime'] });
      if (!out.success) throw new Error(out.logs.map(String).join('\n'));
      return out.outputs.reduce((sum, o) => sum + gzipSync(readFileSync(o.path), { level: 9 }).length, 0) / 1024;
    } finally {
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function fuzzEscapes(render: Render, isDangerous: (html: string) => string | null): { escapes: number; tried: number; first: string | null } {
  let escapes = 0;
  let tried = 0;
  let first: string | null = null;
  const check = (text: string) => {
    tried++;
    const why = isDangerous(render(text));
    if (why) {
      escapes++;
      first ??= `${JSON.stringify(text)} → ${why}`;
    }
  };
  for (const payload of PAYLOADS) check(payload);
  const piece = fc.oneof(fc.constantFrom(...PAYLOADS), fc.constantFrom('[', ']', '(', ')', '<', '>', '`', '*', '\n', '| ', '"', "'", ' ', 'javascript:', '&#', ';'), fc.string({ maxLength: 8 }));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      check(pieces.join(''));
    }),
    { numRuns: FUZZ_RUNS, seed: 39 },
  );
  return { escapes, tried, first };
}

export async function run(): Promise<Measurement[]> {
  const library = loadLibrary();
  const ours = await loadOurs();
  const out: Measurement[] = [];
  const markdownFile = join(ROOT, 'web/src/lib/ui/markdown.tsx');
  out.push({ name: 'markdown_bundle_kb_gzip', renderer: 'tether', value: Number((await bundleKb(`export { Markdown } from ${JSON.stringify(markdownFile)};\n`, ROOT)).toFixed(2)), unit: 'KB' });
  if (library) {
    const entry = "import { marked } from 'marked';\nimport DOMPurify from 'dompurify';\nexport const render = (text: string) => DOMPurify.sanitize(marked.parse(text, { async: false }) as string);\n";
    out.push({ name: 'markdown_bundle_kb_gzip', renderer: 'marked+dompurify', value: Number((await bundleKb(entry, library.dir)).toFixed(2)), unit: 'KB' });
  }

  const chat = Array.from({ length: MESSAGES }, (_, i) => chatMessage(i));
  const renderers: Array<[string, Render]> = [['tether', ours], ...(library ? [['marked+dompurify', library.render] as [string, Render]] : [])];
  const times = new Map<string, number[]>(renderers.map(([name]) => [name, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, render] of r % 2 === 0 ? renderers : [...renderers].reverse()) {
      const started = performance.now();
      let bytes = 0;
      for (const text of chat) bytes += render(text).length;
      times.get(name)!.push(performance.now() - started);
      if (bytes === 0) throw new Error(`${name} rendered nothing`);
    }
  }
  for (const [name, values] of times) out.push({ name: 'markdown_render_10k_ms', renderer: name, value: Math.round(median(values)), unit: 'ms', runs: RUNS });

  if (library) {
    for (const [name, render] of renderers) {
      const result = fuzzEscapes(render, library.isDangerous);
      out.push({ name: 'markdown_xss_escapes', renderer: name, value: result.escapes, unit: 'payloads', tried: result.tried, first: result.first });
    }
  }
  return out;
}
