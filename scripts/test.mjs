// test.mjs: `npm test`. Typecheck + every test (unit, integration, e2e with the real claude CLI,
// browser with Debian's chromium). vitest runs inside Bun because the hub and runner use Bun APIs.
//
// claude is tested at both ends of the supported range (cli/src/agents/claude/supported-versions.json):
//   1. the whole suite against the current version (the tests' devDependency, node_modules/.bin/claude);
//   2. the suites that run the real claude again against the floor (installed into .tools/ by npm).
// Codex likewise (cli/src/agents/codex/supported-versions.json, both pins in .tools/): the current
// one in the first run, the floor in the second (its e2e suites are in tests/e2e). Gemini CLI too
// (cli/src/agents/gemini/supported-versions.json, tests/e2e/gemini-*). The journey every agent walks
// (tests/e2e/agent-journey.test.ts) is in tests/e2e: each agent's row at its current pin in the first
// run, at its floor in the second.
// Extra arguments (a file filter) go to the first run only and skip the second, so `npm test -- x`
// stays quick. A third run holds the suites that need a network namespace of their own. Prints one
// closing line "tests: N passed, N failed, N skipped" summing the runs.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REAL_CLAUDE_EXCLUDES, REAL_CLAUDE_SUITES, ROOT, ensureBun, ensureClaude, ensureCodex, ensureDeps, ensureGemini, ensureOpencode, ensureWebBuild, run, supportedClaude, supportedCodex, supportedGemini, supportedOpencode } from './bootstrap.mjs';

const bun = ensureBun();
ensureDeps(bun);
ensureWebBuild(bun);
const extra = process.argv.slice(2);
const { floor, current } = supportedClaude();
const floorBin = extra.length === 0 && floor !== current ? ensureClaude(floor) : null;
// Codex the same way: the current pin for the first run, the floor for the second.
const codex = supportedCodex();
const codexBin = ensureCodex(codex.current);
const codexFloorBin = floorBin ? ensureCodex(codex.floor) : null;
// Gemini CLI the same way (cli/src/agents/gemini/supported-versions.json).
const gemini = supportedGemini();
const geminiBin = ensureGemini(gemini.current);
const geminiFloorBin = floorBin ? ensureGemini(gemini.floor) : null;
// opencode the same way (cli/src/agents/opencode/supported-versions.json).
const opencode = supportedOpencode();
const opencodeBin = ensureOpencode(opencode.current);
const opencodeFloorBin = floorBin ? ensureOpencode(opencode.floor) : null;

console.log('tether: typecheck …');
if (run(bun, ['run', 'typecheck']) !== 0) {
  console.error('tether: typecheck failed');
  process.exit(1);
}

const artifacts = join(ROOT, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

/** Failed tests of a vitest JSON report: file, full name and the first lines of the first error. */
function failuresOf(report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const rel = file.name.startsWith(ROOT) ? file.name.slice(ROOT.length + 1) : file.name;
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (failed.length === 0 && file.status === 'failed') out.push({ file: rel, test: '(the file itself)', error: file.message ?? '' });
    for (const t of failed) out.push({ file: rel, test: t.fullName, error: (t.failureMessages ?? [])[0] ?? '' });
  }
  return out;
}

/** One vitest run; returns its exit code and counts from the JSON report. */
function vitest(options) {
  const report = join(artifacts, `vitest-${options.name}.json`);
  rmSync(report, { force: true });
  console.log(`tether: tests against claude ${options.claude} …`);
  const args = ['--bun', 'vitest', 'run', '--pool=threads', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...options.args];
  const [cmd, ...prefix] = options.wrap ? [...options.wrap, bun] : [bun];
  const code = run(cmd, [...prefix, ...args], { env: { ...process.env, ...options.env } });
  if (!existsSync(report)) return { code: code || 1, passed: 0, failed: 0, skipped: 0, total: 0 };
  const r = JSON.parse(readFileSync(report, 'utf8'));
  return {
    code,
    name: options.name,
    failures: failuresOf(r),
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    total: r.numTotalTests,
  };
}

// The real Gemini CLI's e2e suites (tests/e2e/gemini-*) run in both: they were left out once, when
// under the full suite's load each ended Gemini kept running (its launcher ignores SIGTERM and waits for
// the node it relaunches in; signals now reach the PTY's whole process group, pty.ts) and a prompt typed
// while Gemini ran its SessionStart hook was lost (runner/start-gate.ts).
// Suites that dial from loopback addresses other than 127.0.0.1 (several clients for nginx's
// per-client caps, the relay attack suite's floods; the relay front dials the hub from 127.77.x.y) run in a network namespace of their
// own, whose loopback is nobody else's (tests/harness/own-network.ts refuses anywhere else). Root
// needs no user namespace (and sshd's privilege separation wants real uids); anyone else maps to it.
const OWN_NETWORK_SUITES = ['tests/e2e/relay-faults.test.ts', 'tests/e2e/relay-attacks.test.ts', 'cli/src/relay-link/front.test.ts', 'tests/fuzz/relay-front-fuzz.test.ts'];
const ownNetwork = extra.length === 0 ? OWN_NETWORK_SUITES : OWN_NETWORK_SUITES.filter((f) => extra.some((x) => f.includes(x)));
const UNSHARE = ['unshare', process.getuid?.() === 0 ? '-n' : '-rn', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh'];

const runs = [
  vitest({
    name: 'current',
    claude: `${current}, codex ${codex.current}, gemini ${gemini.current}, opencode ${opencode.current}`,
    // `npm test -- relay-faults` may leave this run nothing: the suite runs in the next one.
    args: [...extra, ...OWN_NETWORK_SUITES.flatMap((f) => ['--exclude', f]), ...(extra.length > 0 ? ['--passWithNoTests'] : [])],
    env: { TETHER_CODEX_BIN: codexBin, TETHER_GEMINI_BIN: geminiBin, TETHER_OPENCODE_BIN: opencodeBin },
  }),
];
if (ownNetwork.length > 0) runs.push(vitest({ name: 'own-network', claude: `${current} (suites in a network namespace of their own)`, args: ownNetwork, env: {}, wrap: UNSHARE }));
if (floorBin) runs.push(vitest({ name: 'floor', claude: `${floor}, codex ${codex.floor}, gemini ${gemini.floor}, opencode ${opencode.floor}`, args: [...REAL_CLAUDE_SUITES, ...REAL_CLAUDE_EXCLUDES], env: { TETHER_CLAUDE_BIN: floorBin, TETHER_CODEX_BIN: codexFloorBin, TETHER_GEMINI_BIN: geminiFloorBin, TETHER_OPENCODE_BIN: opencodeFloorBin } }));

// CI keeps only the tail of the output, so the failures are repeated here, last, where it can be read.
for (const r of runs) {
  // vitest exits non-zero for errors outside any test (an unhandled rejection) with every test passed.
  if (r.code !== 0 && (r.failures ?? []).length === 0) console.log(`FAILED [${r.name}] vitest exited with ${r.code} and no failed test: see "Unhandled Errors" in its output`);
  for (const f of r.failures ?? []) {
    const error = f.error.split('\n').filter((l) => l.trim() !== '' && !/node_modules|^\s*at (native|Promise|<anonymous> \(native)/.test(l)).slice(0, 12).map((l) => (l.length > 4_000 ? `${l.slice(0, 4_000)}…` : l)).join('\n    ');
    console.log(`FAILED [${r.name}] ${f.file} > ${f.test}\n    ${error}`);
  }
}
const sum = (key) => runs.reduce((n, r) => n + r[key], 0);
console.log(`tests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
// A filtered run may be empty; the whole suite's runs never are.
if (extra.length === 0 ? runs.some((r) => r.total === 0) : sum('total') === 0) {
  console.error('tether: a test run ran no test');
  process.exit(1);
}
process.exit(runs.find((r) => r.code !== 0)?.code ?? 0);
