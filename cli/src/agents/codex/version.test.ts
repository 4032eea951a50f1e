import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareVersions } from '../version.ts';
import { codexVersions, SUPPORTED_CODEX } from './version.ts';
import { tempDirs } from '../../testing/temp-dirs.ts';

const tempDir = tempDirs('codex-version');

/** A stand-in `codex` that prints what `codex --version` prints and counts its runs. */
function fakeCodex(printed: string): { bin: string; runs: () => number; dir: string } {
  const dir = tempDir();
  const bin = join(dir, 'codex');
  const count = join(dir, 'runs');
  writeFileSync(bin, `#!/bin/sh\necho x >> '${count}'\necho '${printed}'\n`);
  chmodSync(bin, 0o755);
  return { bin, dir, runs: () => (existsSync(count) ? readFileSync(count, 'utf8').split('\n').filter(Boolean).length : 0) };
}

describe('codex versions', () => {
  it('the pin names a floor at or below the current version', () => {
    expect(compareVersions(SUPPORTED_CODEX.floor, SUPPORTED_CODEX.current)).toBeLessThanOrEqual(0);
  });

  it('reads the version once per binary: the cache answers until the binary changes', () => {
    const codex = fakeCodex('codex-cli 0.171.0');
    const cacheFile = join(codex.dir, 'codex-version.json');
    expect(codexVersions.read(codex.bin)).toBe('0.171.0');
    expect(codex.runs()).toBe(1);
    expect(codexVersions.cached({ bin: codex.bin, cacheFile })).toBe('0.171.0');
    expect(codexVersions.cached({ bin: codex.bin, cacheFile })).toBe('0.171.0');
    expect(codex.runs()).toBe(2);
    // Another install (a new binary: another size) is asked again.
    writeFileSync(codex.bin, `#!/bin/sh\necho 'codex-cli 0.160.0 (a longer banner)'\n`);
    expect(codexVersions.cached({ bin: codex.bin, cacheFile })).toBe('0.160.0');
    expect(codexVersions.cached({ bin: join(codex.dir, 'missing'), cacheFile })).toBeNull();
  });
});
