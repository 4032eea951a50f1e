// newest-agent-check.mjs: what codex:check and gemini:check share. Asks the npm registry for the
// agent's newest release, installs it into .tools/<agent>-<version>/ as the pins are (kept there, so
// a second check of the same release installs nothing), runs the agent's real suites against it
// (the bin in the agent's TETHER_*_BIN) and prints one closing line. Returns vitest's exit code.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, ensureBun, ensureDeps, ensureWebBuild, run } from './bootstrap.mjs';

/**
 * @param {{ agent: string, pkg: string, supported: () => { floor: string, current: string },
 *   ensure: (version: string) => string, suites: string[], binEnv: string }} check
 * @returns {number}
 */
export function checkNewestAgent({ agent, pkg, supported, ensure, suites, binEnv }) {
  const bun = ensureBun();
  ensureDeps(bun);
  ensureWebBuild(bun);
  const view = spawnSync('npm', ['view', pkg, 'version'], { encoding: 'utf8' });
  const newest = view.stdout?.trim();
  if (view.status !== 0 || !/^\d+\.\d+\.\d+$/.test(newest ?? '')) {
    console.error(`${agent}:check: could not ask the npm registry for the newest ${agent}: ${view.stderr?.trim() || newest || 'no answer'}`);
    process.exit(1);
  }
  const { floor, current } = supported();
  console.log(`${agent}:check: newest ${agent} on the registry is ${newest} (tested range ${floor}–${current})`);
  const bin = ensure(newest);
  const report = join(ROOT, 'test-artifacts', `vitest-${agent}-check.json`);
  rmSync(report, { force: true });
  const code = run(bun, ['--bun', 'vitest', 'run', '--pool=threads', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...suites], {
    // The journey walks this agent's row only (tests/harness/journey/rows.ts).
    env: { ...process.env, [binEnv]: bin, TETHER_JOURNEY_AGENTS: agent },
  });
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    console.log(`${agent}:check ${newest}: ${r.numPassedTests} passed, ${r.numFailedTests} failed${code === 0 ? '' : ` (vitest exited ${code})`}`);
  } else {
    console.log(`${agent}:check ${newest}: no test report (vitest exited ${code})`);
  }
  return code;
}
