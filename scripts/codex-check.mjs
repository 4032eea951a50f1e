// codex-check.mjs: `bun run codex:check`. Tries the newest Codex on the npm registry before the pin
// moves (cli/src/agents/codex/supported-versions.json stays as it is): installs it into
// .tools/codex-<version>/ as the pins are (ensureCodex; kept there, ~400 MB, so a second check of the
// same release installs nothing) and runs every suite that starts the real Codex against it (none of
// claude's own: claude:check runs those), with claude at its pin (the tests' devDependency). Prints
// the version tried and one closing line; exits non-zero when a test failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REAL_CODEX_SUITES, ROOT, ensureBun, ensureCodex, ensureDeps, ensureWebBuild, run, supportedCodex } from './bootstrap.mjs';

const bun = ensureBun();
ensureDeps(bun);
ensureWebBuild(bun);
const view = spawnSync('npm', ['view', '@openai/codex', 'version'], { encoding: 'utf8' });
const newest = view.stdout?.trim();
if (view.status !== 0 || !/^\d+\.\d+\.\d+$/.test(newest ?? '')) {
  console.error(`codex:check: could not ask the npm registry for the newest codex: ${view.stderr?.trim() || newest || 'no answer'}`);
  process.exit(1);
}
const { floor, current } = supportedCodex();
console.log(`codex:check: newest codex on the registry is ${newest} (tested range ${floor}–${current})`);
const bin = ensureCodex(newest);
const report = join(ROOT, 'test-artifacts', 'vitest-codex-check.json');
rmSync(report, { force: true });
const code = run(bun, ['--bun', 'vitest', 'run', '--pool=threads', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...REAL_CODEX_SUITES], {
  env: { ...process.env, TETHER_CODEX_BIN: bin },
});
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  console.log(`codex:check ${newest}: ${r.numPassedTests} passed, ${r.numFailedTests} failed${code === 0 ? '' : ` (vitest exited ${code})`}`);
} else {
  console.log(`codex:check ${newest}: no test report (vitest exited ${code})`);
}
process.exit(code);
