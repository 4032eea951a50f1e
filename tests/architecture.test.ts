// architecture.test.ts: fails when an import breaks the one-way arrows of docs/architecture.md.
// Data flows one way; composition roots (hub/src/main.ts, cli/src/runner/runner.ts and each launch
// kind's session) are the only places that know everyone. Reads source files as text; a relative or workspace import is resolved to a room.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { AgentKindSchema } from '@tether/shared';
import { FUNCTIONS_DECISION, LONG_FUNCTION_LINES, longFunctions, longFunctionsIn, staleEntries, undocumented } from '../scripts/long-functions.ts';

const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'fixtures') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.contract.ts')) out.push(p);
  }
  return out;
}

/** The test files under a folder (every .ts/.tsx with `all`: tests/ holds nothing else). */
function testFilesUnder(dir: string, o: { all?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...testFilesUnder(p, o));
    else if (/\.(ts|tsx)$/.test(name) && (o.all || /\.test\.tsx?$/.test(name) || name.endsWith('.contract.ts'))) out.push(p);
  }
  return out;
}

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** "cli/src/runner/runner.ts" → "cli/runner"; "hub/src/main.ts" → "hub/main"; web features keep their name. */
function roomOf(file: string): string {
  const rel = relative(ROOT, file).split('\\').join('/');
  const m = rel.match(/^(shared|hub|cli|web)\/src\/(.+)$/);
  if (!m) return rel;
  const [, pkg, rest] = m;
  const parts = rest!.split('/');
  if (pkg === 'web' && parts[0] === 'features') return `web/features/${parts[1]}`;
  if (pkg === 'shared') return 'shared';
  return `${pkg}/${parts.length > 1 ? parts[0] : parts[0]!.replace(/\.tsx?$/, '')}`;
}

/** Relative imports of a file, as the files they name (type-only ones included). */
function fileImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2]!;
    if (spec.startsWith('.')) targets.push(resolve(dirname(file), spec));
  }
  return targets;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2]!;
    if (spec.startsWith('.')) targets.push(roomOf(resolve(dirname(file), spec)));
    else if (spec.startsWith('@tether/')) targets.push(spec.replace('@tether/', '') + '/(package)');
  }
  return targets;
}

/** Where a string literal naming an agent decides something: an operand of ==/!=, a switch case, or
 *  an array literal asked `.includes(…)`. A lookup table (display names, icons), a default (`?? 'claude'`)
 *  or a message naming one decides nothing and is not reported. */
function agentNameBranches(rel: string, text: string): string[] {
  const names = new Set<string>(AgentKindSchema.options);
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, rel.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const COMPARE = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);
  const deciding = (node: ts.StringLiteral): boolean => {
    const parent = node.parent;
    if (ts.isBinaryExpression(parent) && COMPARE.has(parent.operatorToken.kind)) return true;
    if (ts.isCaseClause(parent)) return true;
    const list = parent;
    return ts.isArrayLiteralExpression(list) && ts.isPropertyAccessExpression(list.parent) && list.parent.name.text === 'includes';
  };
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) && names.has(node.text) && deciding(node)) found.push(`${rel}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} '${node.text}'`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The tree's long functions, read once for the two checks of docs/decisions/functions.md. */
let longFunctionsRead: ReturnType<typeof longFunctions> | undefined;
const longFunctionsOfTree = () => (longFunctionsRead ??= longFunctions(ROOT));

/** The groups of files that import each other in a circle (Tarjan's strongly connected components). */
function stronglyConnected(scope: Set<string>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    const targets = fileImportsOf(file).filter((t) => scope.has(t));
    for (const target of targets) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || targets.includes(file)) groups.push(group);
  };
  for (const file of scope) if (!index.has(file)) visit(file);
  return groups;
}

/** The runner's rooms (cli/src/runner/), top to bottom: its root (the flat files) dispatches a launch
 *  kind; a kind (interactive/, headless/, and any later one) composes a session of its kind; session/
 *  is what every session has; requests/ every request to a person. */
const RUNNER_DIR = 'cli/src/runner/';
const RUNNER_SHARED_ROOMS: Record<string, number> = { session: 2, requests: 3 };
type RunnerRoom = { name: string; level: number; kind: boolean };

function runnerRoomOf(rel: string): RunnerRoom | null {
  if (!rel.startsWith(RUNNER_DIR)) return null;
  const parts = rel.slice(RUNNER_DIR.length).split('/');
  if (parts.length === 1) return { name: 'root', level: 0, kind: false };
  const name = parts[0]!;
  const shared = RUNNER_SHARED_ROOMS[name];
  return shared === undefined ? { name, level: 1, kind: true } : { name, level: shared, kind: false };
}

/** Why an import from one runner room to another breaks the one-way direction, or null. */
function runnerArrowBroken(from: RunnerRoom, to: RunnerRoom): string | null {
  if (from.name === to.name) return null;
  if (from.kind && to.kind) return 'a launch kind never imports another: what both need belongs in session/ or requests/';
  if (to.level <= from.level) return `imports run one way: root → kinds → session → requests (${from.name} may not import ${to.name})`;
  return null;
}

type Rule = { from: RegExp; forbid: RegExp; why: string };
const RULES: Rule[] = [
  { from: /^shared$/, forbid: /^(hub|cli|web)\//, why: 'shared imports nothing of ours' },
  { from: /^hub\//, forbid: /^(cli|web)\//, why: 'the hub never imports the cli or the web app' },
  { from: /^hub\/(?!main$|sockets$)/, forbid: /^hub\/sockets$/, why: 'only main wires the socket layer' },
  { from: /^hub\/(?!main$|http$)/, forbid: /^hub\/http$/, why: 'only main wires the http layer' },
  { from: /^hub\/store$/, forbid: /^hub\/(?!store$)/, why: 'store imports only shared' },
  { from: /^hub\/(sockets|http)$/, forbid: /^hub\/store$/, why: 'edges validate, call a domain room and ack: only the domain reads and writes the store' },
  { from: /^cli\/(?!commands$|main$)/, forbid: /^cli\/commands$/, why: 'commands are edges: nothing imports them' },
  { from: /^cli\/(pty|screen)$/, forbid: /^(cli\/(?!pty$|screen$)|shared\/|hub\/)/, why: 'pty and screen import nothing of ours' },
  {
    from: /^cli\/(transcript|hooks|hub-link|web-client|config|workspace|reach)$/,
    forbid: /^(cli\/(runner|daemon|commands|pty|screen)|hub\/)/,
    why: 'leaf rooms import only shared (and config)',
  },
  { from: /^cli\/dialogs$/, forbid: /^(cli\/(?!dialogs$|screen$|hub-link$)|hub\/)/, why: 'the dialog bridge reads the screen and speaks through the hub link only' },
  { from: /^cli\/agents$/, forbid: /^cli\/(runner|daemon)$/, why: 'an agent brings data and drivers (agents/agent.ts); the runner composes the session and is never imported back' },
  { from: /^cli\/daemon$/, forbid: /^cli\/runner$/, why: 'the daemon spawns runner processes, never imports the runner' },
  { from: /^cli\/(?!commands$)/, forbid: /^hub\//, why: 'only commands (tether hub, token) may load the hub' },
  { from: /^web\//, forbid: /^(hub|cli)\//, why: 'the web app speaks the protocol, it never imports server code' },
  { from: /^(?!(hub|cli|web)\/testing$)/, forbid: /^(hub|cli|web)\/testing$/, why: 'test support (a testing/ room) is imported by tests only' },
];

describe('architecture arrows', () => {
  const files = ['shared', 'hub', 'cli', 'web'].flatMap((p) => {
    try {
      return sourceFiles(join(ROOT, p, 'src'));
    } catch {
      return [];
    }
  });

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('keeps every import on an allowed arrow', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = roomOf(file);
      for (const target of importsOf(file)) {
        for (const rule of RULES) {
          if (rule.from.test(from) && target !== from && rule.forbid.test(target)) {
            violations.push(`${relative(ROOT, file)} → ${target}: ${rule.why}`);
          }
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps test support in a testing/ room: no other source file imports vitest', () => {
    const outside = files
      .map((f) => relative(ROOT, f).split('\\').join('/'))
      .filter((rel) => !/^(hub|cli|web)\/src\/testing\//.test(rel) && /from ['"]vitest['"]/.test(readFileSync(join(ROOT, rel), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('keeps test support in a testing/ room: no source file outside one is imported by tests alone', () => {
    const tests = [
      ...['shared', 'hub', 'cli', 'web'].flatMap((p) => testFilesUnder(join(ROOT, p, 'src'))),
      ...testFilesUnder(join(ROOT, 'tests'), { all: true }),
    ];
    // shared/src/index.ts is @tether/shared: production files import it by the package's name.
    const production = new Set([join(ROOT, 'shared/src/index.ts'), ...files.flatMap((f) => fileImportsOf(f))]);
    const testOnly = [...new Set(tests.flatMap((f) => fileImportsOf(f)))]
      .filter((target) => files.includes(target) && !production.has(target))
      .map((target) => relative(ROOT, target).split('\\').join('/'))
      // A *.fixture.ts is a test's input (a script it runs), named so beside what it exercises.
      .filter((rel) => !/^(hub|cli|web|shared)\/src\/testing\//.test(rel) && !rel.endsWith('.fixture.ts'));
    expect(testOnly).toEqual([]);
  });

  it('keeps the hub\'s socket edges thin (no file over 150 lines: rules belong in a domain room)', () => {
    const long = files
      .filter((f) => roomOf(f) === 'hub/sockets')
      .map((f) => ({ file: relative(ROOT, f), lines: readFileSync(f, 'utf8').split('\n').length }))
      .filter((f) => f.lines > 150);
    expect(long).toEqual([]);
  });

  it('keeps what differs per agent in that agent\'s room: only agents/index.ts and the agent\'s own verb name one', () => {
    const AGENT_ROOM = /^cli\/src\/agents\/([a-z-]+)\//;
    /** The verbs that are an agent (`tether claude`, `tether codex`…: one per agent kind) and doctor, which checks each. */
    const MAY_NAME = new RegExp(`^cli/src/(agents/index\\.ts|commands/(${[...AgentKindSchema.options, 'doctor'].join('|')})\\.ts)$`);
    /** Rooms under agents/ that are a protocol any agent may speak (agents/acp/), not an agent: any
     *  agent's room may import them; they import no agent's room. */
    const PROTOCOL_ROOMS = new Set(['acp']);
    const violations: string[] = [];
    for (const file of files) {
      const rel = relative(ROOT, file).split('\\').join('/');
      const own = AGENT_ROOM.exec(rel)?.[1];
      for (const target of fileImportsOf(file)) {
        const targetRoom = AGENT_ROOM.exec(relative(ROOT, target).split('\\').join('/'))?.[1];
        if (!targetRoom || targetRoom === own || PROTOCOL_ROOMS.has(targetRoom)) continue;
        if (!MAY_NAME.test(rel)) violations.push(`${rel} → agents/${targetRoom}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('decides nothing by an agent\'s name outside cli/src/agents/: what an agent can do travels as its capabilities', () => {
    const violations = files
      .map((file) => relative(ROOT, file).split('\\').join('/'))
      .filter((rel) => /^(hub|web|shared|cli)\/src\//.test(rel) && !rel.startsWith('cli/src/agents/'))
      .flatMap((rel) => agentNameBranches(rel, readFileSync(join(ROOT, rel), 'utf8')));
    expect(violations).toEqual([]);
  });

  it('the agent-name check sees a comparison, a case and an includes(), and lets a lookup or a default be', () => {
    const source = [
      "if (session.agent === 'codex') go();",
      "const shaping = 'claude' !== agent;",
      "switch (kind) { case 'claude': break; }",
      "if (['claude'].includes(agent)) go();",
      "const names = { claude: 'Claude', codex: 'Codex' };",
      "const agent = options.agent ?? 'claude';",
      "log('codex exited');",
    ].join('\n');
    expect(agentNameBranches('x.ts', source)).toEqual(["x.ts:1 'codex'", "x.ts:2 'claude'", "x.ts:3 'claude'", "x.ts:4 'claude'"]);
  });

  it(`names every function of ${LONG_FUNCTION_LINES} lines or more, in every workspace, in ${FUNCTIONS_DECISION} with why it stays whole`, () => {
    const missing = undocumented(ROOT, longFunctionsOfTree()).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    // Split it where its concepts part (never where a line count falls), or name it there.
    expect(missing).toEqual([]);
  });

  it(`keeps ${FUNCTIONS_DECISION} current: each entry names a function of ${LONG_FUNCTION_LINES} lines or more as it is called now`, () => {
    // One split, shortened or renamed since: remove its line (or rename it).
    expect(staleEntries(ROOT, longFunctionsOfTree())).toEqual([]);
  });

  it('counts a function from its first line to its last, and names a test callback by its call', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  step(${i});`).join('\n');
    const text = [`function long() {`, body(120), `}`, `describe('a suite', () => {`, body(120), `});`, `const short = () => {`, body(119), `};`].join('\n');
    expect(longFunctionsIn('x.ts', text)).toEqual([
      { file: 'x.ts', name: 'long', line: 1, lines: 120 },
      { file: 'x.ts', name: "describe('a suite')", line: 121, lines: 120 },
    ]);
  });

  for (const workspace of ['shared', 'hub', 'cli', 'web']) {
    it(`has no import circle inside ${workspace}/ (type-only and lazy imports included)`, () => {
      const scope = new Set(files.filter((f) => relative(ROOT, f).split('\\').join('/').startsWith(`${workspace}/src/`)));
      const circles = stronglyConnected(scope).map((group) => group.map((f) => relative(ROOT, f).split('\\').join('/')).sort());
      // The runner composes every session; an agent brings data and drivers and imports nothing from
      // runner/ (docs/decisions/runner.md). shared/wire.ts imports nothing: the schemas build on it.
      expect(circles).toEqual([]);
    });
  }

  it("keeps the runner's rooms one way: root → kinds (interactive, headless, …) → session → requests", () => {
    const rel = (f: string) => relative(ROOT, f).split('\\').join('/');
    const rooms = new Set(files.map((f) => runnerRoomOf(rel(f))?.name).filter((n) => n !== undefined));
    // The rule below is about these rooms: it must find them.
    for (const room of ['root', 'interactive', 'headless', 'attached', 'session', 'requests']) expect(rooms).toContain(room);
    const violations: string[] = [];
    for (const file of files) {
      const from = rel(file);
      const fromRoom = runnerRoomOf(from);
      for (const target of fileImportsOf(file)) {
        const to = rel(target);
        const toRoom = runnerRoomOf(to);
        if (!toRoom) continue;
        // Outside the runner, only its root is known (the command that starts a session).
        if (!fromRoom) {
          if (toRoom.name !== 'root') violations.push(`${from} → ${to}: only the runner's root is imported from outside it`);
          continue;
        }
        const broken = runnerArrowBroken(fromRoom, toRoom);
        if (broken) violations.push(`${from} → ${to}: ${broken}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("the runner's direction check sees a kind importing a kind, and an import running back up", () => {
    const room = (path: string) => runnerRoomOf(`${RUNNER_DIR}${path}`)!;
    expect(runnerArrowBroken(room('headless/turns.ts'), room('interactive/prompt-queue.ts'))).toMatch(/never imports another/);
    expect(runnerArrowBroken(room('attached/session.ts'), room('headless/session.ts'))).toMatch(/never imports another/);
    expect(runnerArrowBroken(room('requests/approvals.ts'), room('session/status.ts'))).toMatch(/one way/);
    expect(runnerArrowBroken(room('session/core.ts'), room('interactive/desk.ts'))).toMatch(/one way/);
    expect(runnerArrowBroken(room('interactive/session.ts'), room('runner.ts'))).toMatch(/one way/);
    expect(runnerArrowBroken(room('runner.ts'), room('headless/session.ts'))).toBeNull();
    expect(runnerArrowBroken(room('interactive/session.ts'), room('session/core.ts'))).toBeNull();
    expect(runnerArrowBroken(room('session/core.ts'), room('requests/registry.ts'))).toBeNull();
    expect(runnerArrowBroken(room('runner.ts'), room('session/core.ts'))).toBeNull();
  });

  it('keeps at most 4 source files flat in cli/src/runner/ (the root: the rest lives in a room)', () => {
    const flat = files.map((f) => relative(ROOT, f).split('\\').join('/')).filter((rel) => runnerRoomOf(rel)?.name === 'root');
    expect(flat.length).toBeGreaterThan(0);
    expect(flat.length, flat.join(', ')).toBeLessThanOrEqual(4);
  });

  it('keeps web features from importing each other', () => {
    const violations = files
      .filter((f) => roomOf(f).startsWith('web/features/'))
      .flatMap((f) =>
        importsOf(f)
          .filter((t) => t.startsWith('web/features/') && t !== roomOf(f))
          .map((t) => `${relative(ROOT, f)} → ${t}`),
      );
    expect(violations).toEqual([]);
  });
});

describe('web styles', () => {
  const webSrc = join(ROOT, 'web', 'src');
  const stylesheets = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return stylesheets(p);
      return name.endsWith('.css') ? [p] : [];
    });

  it('keeps app.css to tokens, resets and the shell (at most 800 lines): a feature\'s look sits beside the feature', () => {
    const lines = readFileSync(join(webSrc, 'lib', 'ui', 'app.css'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(800);
  });

  it('imports every stylesheet under web/src from some module (one nobody imports styles nothing, silently)', () => {
    const imported = new Set<string>();
    for (const file of sourceFiles(webSrc)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^import\s+['"](\.{1,2}\/[^'"]+\.css)['"];/gm)) imported.add(resolve(dirname(file), m[1]!));
    }
    const orphans = stylesheets(webSrc).filter((css) => !imported.has(css)).map((css) => relative(ROOT, css));
    expect(orphans).toEqual([]);
  });
});
