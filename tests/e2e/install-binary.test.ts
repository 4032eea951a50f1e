// The single-file binary: `bun run build:binaries --target <this machine>` gives one executable
// with the web app and bun-pty's native library inside; copied alone into an empty folder it runs
// hub, doctor and a claude session with no Bun on PATH (tests/harness/installed.ts). The other
// three targets are cross-compiled by `bun run build:binaries` and not run here.
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCommit } from '../../scripts/build/build-info.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { exerciseInstalledTether, installTempDir, runCommand } from '../harness/installed.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const HOST_TARGET = `${process.platform}-${process.arch}`;
const defer = useCleanups();

describe('tether as a single-file binary', () => {
  it(`builds for ${HOST_TARGET} and runs alone: hub with the web app, doctor and a claude session`, async () => {
    const out = installTempDir(defer, 'tether-binary-');
    const build = await runCommand([process.execPath, 'scripts/build/binaries.ts', '--target', HOST_TARGET, '--out', out], { cwd: REPO_ROOT });
    expect(build.code, build.stderr).toBe(0);
    const bin = installTempDir(defer, 'tether-bin-');
    const tether = join(bin, 'tether');
    copyFileSync(join(out, `tether-${HOST_TARGET}`), tether);
    await runCommand(['chmod', '+x', tether], { cwd: bin });

    await exerciseInstalledTether(defer, {
      tether,
      kind: new RegExp(`binary ${HOST_TARGET}`),
      install: 'binary',
      commit: gitCommit(),
      bunPath: new RegExp(`ok {3}bun {4}Bun \\S+ \\(${tether}\\)`),
    });
  }, 180_000);
});
