// The npm package: `bun run build:package` gives one tarball holding only what runs; `npm install -g`
// of it into an empty prefix (from the npm cache when it has the dependencies) gives a `tether` that
// brings its own Bun and works from any folder with no Bun on PATH (tests/harness/installed.ts).
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCommit } from '../../scripts/build/build-info.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { exerciseInstalledTether, installTempDir, runCommand } from '../harness/installed.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const defer = useCleanups();

describe('tether as an npm package', () => {
  it('packs only what runs, installs into an empty prefix and runs hub, doctor and a claude session', async () => {
    const out = installTempDir(defer, 'tether-pack-');
    const build = await runCommand([process.execPath, 'scripts/build/package.ts', '--out', out], { cwd: REPO_ROOT });
    expect(build.code, build.stderr).toBe(0);
    const tarball = /^(\S+\.tgz) /m.exec(build.stdout)?.[1];
    expect(tarball).toBe(join(out, `tether-${(await Bun.file(join(REPO_ROOT, 'cli', 'package.json')).json()).version}.tgz`));

    const listing = await runCommand(['tar', 'tzf', tarball!], { cwd: out });
    const files = listing.stdout.trim().split('\n');
    expect(files).toEqual(expect.arrayContaining(['package/package.json', 'package/bin/tether', 'package/dist/main.js', 'package/web/dist/index.html']));
    // bun-pty (bundled) ships TypeScript sources, which Bun runs; nothing else is a source file.
    expect(files.filter((f) => /\.test\.|fixtures|\.map$|\.dll$/.test(f) || (/\.tsx?$|\/src\//.test(f) && !f.startsWith('package/node_modules/bun-pty/src/')))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['package/node_modules/bun-pty/src/index.ts', 'package/node_modules/bun-pty/rust-pty/target/release/librust_pty.so']));

    const prefix = installTempDir(defer, 'tether-prefix-');
    const install = await runCommand(['npm', 'install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball!], { cwd: out });
    expect(install.code, install.stderr).toBe(0);

    const manifest = await Bun.file(join(prefix, 'lib', 'node_modules', 'tether', 'package.json')).json();
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['bun', 'bun-pty']);
    await exerciseInstalledTether(defer, {
      tether: join(prefix, 'bin', 'tether'),
      kind: /npm package/,
      install: 'package',
      commit: gitCommit(),
      bunPath: new RegExp(`ok {3}bun {4}Bun \\S+ \\(${prefix}/lib/node_modules/tether/node_modules/`),
    });
  }, 240_000);
});
