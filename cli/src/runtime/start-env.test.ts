// start-env.ts: what is added to the environment, and the re-exec in place (same pid, same
// arguments, the rest of the environment kept, a value already set left alone).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { missingStartEnv, RUNNER_START_ENV, SERVER_START_ENV } from './start-env.ts';

const FIXTURE = join(import.meta.dirname, 'start-env.fixture.ts');

async function runFixture(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'tether-start-env-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const notes = join(dir, 'notes');
  const proc = Bun.spawn([process.execPath, FIXTURE, notes, 'an argument'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TETHER_TEST_KEPT: 'kept', ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(code, err).toBe(0);
  let before = '';
  try {
    before = readFileSync(notes, 'utf8');
  } catch {
    // never started without the value
  }
  return { spawnedPid: proc.pid, before, lines: out.trim().split('\n').map((line) => JSON.parse(line)) };
}

describe('the start environment', () => {
  it('adds only what is missing, keeping every other variable and any value already set', () => {
    expect(missingStartEnv({ A: '1', BUN_JSC_useFTLJIT: '1' }, SERVER_START_ENV)).toBeNull();
    expect(missingStartEnv({ A: '1' }, SERVER_START_ENV)).toEqual({ A: '1', BUN_JSC_useFTLJIT: '0' });
    expect(missingStartEnv({ BUN_GC_TIMER_INTERVAL: '5000' }, RUNNER_START_ENV)).toEqual({ BUN_GC_TIMER_INTERVAL: '5000', BUN_JSC_useFTLJIT: '0' });
  });

  it('re-executes the process in place once: same pid, same arguments, the value added', async () => {
    const run = await runFixture({});
    expect(run.before).toBe(`before ${run.spawnedPid}\n`);
    // One line: the first image never got past the exec.
    expect(run.lines).toEqual([{ pid: run.spawnedPid, value: 'ours', kept: 'kept', args: [expect.stringContaining('notes'), 'an argument'] }]);
  });

  it('does not re-execute when the value is already set', async () => {
    const run = await runFixture({ TETHER_TEST_START: 'mine' });
    expect(run.before).toBe('');
    expect(run.lines).toEqual([{ pid: run.spawnedPid, value: 'mine', kept: 'kept', args: [expect.stringContaining('notes'), 'an argument'] }]);
  });
});
