// gemini-check.mjs: `bun run gemini:check`. Tries the newest Gemini CLI on the npm registry before the pin
// moves (cli/src/agents/gemini/supported-versions.json stays as it is): installs it into
// .tools/gemini-<version>/ as the pins are (ensureGemini; kept there, ~100 MB, so a second check of the
// same release installs nothing) and runs every suite that starts the real Gemini CLI against it (none of
// claude's own: claude:check runs those), with claude at its pin (the tests' devDependency). Prints
// the version tried and one closing line; exits non-zero when a test failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REAL_GEMINI_SUITES, ROOT, ensureBun, ensureGemini, ensureDeps, ensureWebBuild, run, supportedGemini } from './bootstrap.mjs';

const bun = ensureBun();
ensureDeps(bun);
ensureWebBuild(bun);
const view = spawnSync('npm', ['view', '@google/gemini-cli', 'version'], { encoding: 'utf8' });
const newest = view.stdout?.trim();
if (view.status !== 0 || !/^\d+\.\d+\.\d+$/.test(newest ?? '')) {
  console.error(`gemini:check: could not ask the npm registry for the newest gemini: ${view.stderr?.trim() || newest || 'no answer'}`);
  process.exit(1);
}
const { floor, current } = supportedGemini();
console.log(`gemini:check: newest gemini on the registry is ${newest} (tested range ${floor}–${current})`);
const bin = ensureGemini(newest);
const report = join(ROOT, 'test-artifacts', 'vitest-gemini-check.json');
rmSync(report, { force: true });
const code = run(bun, ['--bun', 'vitest', 'run', '--pool=threads', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...REAL_GEMINI_SUITES], {
  env: { ...process.env, TETHER_GEMINI_BIN: bin },
});
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  console.log(`gemini:check ${newest}: ${r.numPassedTests} passed, ${r.numFailedTests} failed${code === 0 ? '' : ` (vitest exited ${code})`}`);
} else {
  console.log(`gemini:check ${newest}: no test report (vitest exited ${code})`);
}
process.exit(code);
