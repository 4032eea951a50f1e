// test.mjs: `npm test`. Typecheck + every test (unit, integration, e2e with the real claude CLI,
// browser with Debian's chromium). vitest runs inside Bun because the hub and runner use Bun APIs.
// Prints one closing line "tests: N passed, N failed, N skipped" from vitest's JSON report.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, ensureBun, ensureDeps, ensureWebBuild, run } from './bootstrap.mjs';

const bun = ensureBun();
ensureDeps(bun);
ensureWebBuild(bun);

console.log('tether: typecheck …');
if (run(bun, ['run', 'typecheck']) !== 0) {
  console.error('tether: typecheck failed');
  process.exit(1);
}

const artifacts = join(ROOT, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const report = join(artifacts, 'vitest.json');
const extra = process.argv.slice(2);
const code = run(bun, [
  '--bun', 'vitest', 'run', '--pool=threads',
  '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
  ...extra,
]);

if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  if (r.numTotalTests === 0) {
    console.error('tether: no test ran');
    process.exit(1);
  }
}
process.exit(code);
