// claude-check.mjs: `bun run claude:check`. Tries the newest claude on the npm registry before the
// pin moves: installs it into a temp dir and runs every suite that starts the real claude against it,
// but those whose subject is Codex or Gemini (codex:check's, gemini:check's), with the current Codex pin (ensureCodex, into
// .tools/ like npm test's) where a suite reads both agents (runner-cli's doctor). Prints the version
// tried and one closing line; exits non-zero when a test failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODEX_SUBJECT_EXCLUDES, GEMINI_SUBJECT_EXCLUDES, OPENCODE_SUBJECT_EXCLUDES, REAL_CLAUDE_EXCLUDES, REAL_CLAUDE_SUITES, ROOT, ensureBun, ensureCodex, ensureDeps, ensureWebBuild, installPinned, run, supportedClaude, supportedCodex } from './bootstrap.mjs';

const bun = ensureBun();
ensureDeps(bun);
ensureWebBuild(bun);
const codexBin = ensureCodex(supportedCodex().current);
const view = spawnSync('npm', ['view', '@anthropic-ai/claude-code', 'version'], { encoding: 'utf8' });
const newest = view.stdout?.trim();
if (view.status !== 0 || !/^\d+\.\d+\.\d+/.test(newest ?? '')) {
  console.error(`claude:check: could not ask the npm registry for the newest claude: ${view.stderr?.trim() || 'no answer'}`);
  process.exit(1);
}
const { floor, current } = supportedClaude();
console.log(`claude:check: newest claude on the registry is ${newest} (tested range ${floor}–${current})`);
const prefix = mkdtempSync(join(tmpdir(), 'tether-claude-check-'));
// On every exit, a failed install's (installPinned exits) included.
process.on('exit', () => rmSync(prefix, { recursive: true, force: true }));
process.exit(check());

function check() {
  const spec = `@anthropic-ai/claude-code@${newest}`;
  installPinned({ what: `installing claude ${newest} into a temp folder`, prefix, spec, allowScripts: [spec] });
  const bin = join(prefix, 'node_modules', '.bin', 'claude');
  const report = join(ROOT, 'test-artifacts', 'vitest-claude-check.json');
  rmSync(report, { force: true });
  const result = run(bun, ['--bun', 'vitest', 'run', '--pool=threads', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...REAL_CLAUDE_SUITES, ...REAL_CLAUDE_EXCLUDES, ...CODEX_SUBJECT_EXCLUDES, ...GEMINI_SUBJECT_EXCLUDES, ...OPENCODE_SUBJECT_EXCLUDES], {
    // The journey walks claude's row only (tests/harness/journey/rows.ts).
    env: { ...process.env, TETHER_CLAUDE_BIN: bin, TETHER_CODEX_BIN: codexBin, TETHER_JOURNEY_AGENTS: 'claude' },
  });
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    console.log(`claude:check ${newest}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  }
  return result;
}
