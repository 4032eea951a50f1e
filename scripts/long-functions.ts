// long-functions.ts: lists every function of 120 lines or more in the tree, so that each one is either
// split where its concepts part or named, with why it stays whole, in docs/decisions/functions.md
// (tests/architecture.test.ts fails on one that is neither).
//   bun scripts/long-functions.ts            every long function, longest first
//   bun scripts/long-functions.ts --missing  only those docs/decisions/functions.md does not name
//   bun scripts/long-functions.ts --stale    the entries there that name no long function any more
//
// The rule: a function is a function declaration or expression, an arrow function, a method, a
// constructor or an accessor, in any .ts/.tsx/.js/.mjs file git tracks (or would: untracked, not
// ignored) in any workspace, production and test code alike. Its lines run from its first line to its
// last, both counted. A React component is a function; so is a test's `describe`/`it` callback. A
// function inside another counts on its own, and its lines count for the outer one too.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

export const LONG_FUNCTION_LINES = 120;
export const FUNCTIONS_DECISION = 'docs/decisions/functions.md';

export type LongFunction = { file: string; name: string; line: number; lines: number };

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

function trackedSources(root: string): string[] {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${root}: ${listed.stderr}`);
  return [...new Set(listed.stdout.split('\n'))].filter((rel) => SOURCE.test(rel) && !rel.endsWith('.d.ts'));
}

/** A call's callee and its title (the first argument, a string or a template, cut at 60 characters):
 *  `describe('the desk')`, `it('${viewport}: answers')`; a call without one is named by its callee. */
function callLabel(call: ts.CallExpression): string {
  const callee = call.expression.getText();
  const first = call.arguments[0];
  if (!first) return callee;
  let title: string;
  if (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) title = first.text;
  else if (ts.isTemplateExpression(first)) title = first.getText().slice(1, -1);
  else return callee;
  return `${callee}('${title.length > 60 ? `${title.slice(0, 60)}…` : title}')`;
}

/** How a function is called in the list and in the decision: its own name, else the name it is
 *  assigned to, else the call it is passed to (a test callback: `it('…')`). */
export function functionName(node: ts.Node): string {
  const named = (n: ts.Node): string | null =>
    (ts.isFunctionDeclaration(n) ||
      ts.isMethodDeclaration(n) ||
      ts.isVariableDeclaration(n) ||
      ts.isPropertyAssignment(n) ||
      ts.isPropertyDeclaration(n) ||
      ts.isGetAccessorDeclaration(n) ||
      ts.isSetAccessorDeclaration(n)) &&
    n.name
      ? n.name.getText()
      : null;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const own = named(node) ?? named(node.parent);
  if (own) return own;
  if (ts.isCallExpression(node.parent)) {
    // `const Composer = forwardRef(function …)`: named by the variable the wrapper's result goes to.
    return named(node.parent.parent) ?? callLabel(node.parent);
  }
  return '(anonymous)';
}

function isFunction(node: ts.Node): boolean {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

function scriptKind(file: string): ts.ScriptKind {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  return /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/** The functions of one file's text that are `min` lines or longer. */
export function longFunctionsIn(file: string, text: string, min = LONG_FUNCTION_LINES): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines >= min) found.push({ file, name: functionName(node), line: start + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every long function in the tree at `root`, longest first. */
export function longFunctions(root: string, min = LONG_FUNCTION_LINES): LongFunction[] {
  return trackedSources(root)
    .flatMap((rel) => {
      const text = readFileSync(join(root, rel), 'utf8');
      // A file shorter than `min` lines holds no function that long: not parsed.
      return lineCount(text) < min ? [] : longFunctionsIn(rel, text, min);
    })
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** The decision's entries: lines `- \`file\` \`name\` …`; a function is named when its file and name are. */
export function namedInDecision(text: string): Set<string> {
  const named = new Set<string>();
  for (const m of text.matchAll(/^- `([^`]+)` `([^`]+)`/gm)) named.add(`${m[1]} ${m[2]}`);
  return named;
}

/** The long functions the decision does not name. */
export function undocumented(root: string, functions: LongFunction[]): LongFunction[] {
  const named = namedInDecision(readFileSync(join(root, FUNCTIONS_DECISION), 'utf8'));
  return functions.filter((f) => !named.has(`${f.file} ${f.name}`));
}

/** The decision's entries that name no long function now (split, shortened, renamed or gone). */
export function staleEntries(root: string, functions: LongFunction[]): string[] {
  const long = new Set(functions.map((f) => `${f.file} ${f.name}`));
  return [...namedInDecision(readFileSync(join(root, FUNCTIONS_DECISION), 'utf8'))].filter((entry) => !long.has(entry));
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, '..');
  const all = longFunctions(root);
  if (process.argv.includes('--stale')) {
    const stale = staleEntries(root, all);
    for (const entry of stale) console.log(entry);
    console.log(`${stale.length} entr${stale.length === 1 ? 'y' : 'ies'} of ${FUNCTIONS_DECISION} naming no function of ${LONG_FUNCTION_LINES} lines or more`);
  } else {
    const missing = process.argv.includes('--missing');
    const shown = missing ? undocumented(root, all) : all;
    for (const f of shown) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
    console.log(`${shown.length} function(s) of ${LONG_FUNCTION_LINES} lines or more${missing ? ` not named in ${FUNCTIONS_DECISION}` : ''}`);
  }
}
