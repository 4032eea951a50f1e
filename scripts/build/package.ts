// package.ts: `npm run build:package [-- --out DIR]`: the npm package, one tarball tether-<version>.tgz
// (default DIR: dist/). `npm install -g ./tether-<version>.tgz` then gives a working `tether`.
//
// What goes in (only what runs): dist/ (cli + hub + shared and their pure-JS dependencies bundled by
// `bun build --target=bun`, split per verb so `tether hook` loads little), web/dist/ (the built web
// app), bin/tether (a sh launcher) and a package.json whose only dependencies are `bun` (the runtime,
// so no global Bun is needed) and `bun-pty`. bun-pty stays a package of its own (it dlopens its
// librust_pty from its own folder, and the read loop opens the same file) and travels inside the
// tarball (bundleDependencies: the very copy the tests ran, and an install that needs nothing from
// the registry but Bun), without its tests and with only the linux and darwin libraries.
// Why not `npm pack` in the checkout: its package.json is a private workspace root whose dependency
// is "workspace:*", which npm cannot install; the tarball's package.json is written here instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ROOT, VERSION, argValues, buildDefines, ensureWebBuilt, gitCommit } from './build-info.ts';

const out = resolve(argValues(process.argv, 'out')[0] ?? join(ROOT, 'dist'));
const stage = join(out, 'package');
const cli = await Bun.file(join(ROOT, 'cli', 'package.json')).json();
const commit = gitCommit();

await ensureWebBuilt();
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'bin'), { recursive: true });

const bundle = await Bun.build({
  entrypoints: [join(ROOT, 'cli', 'src', 'main.ts')],
  outdir: join(stage, 'dist'),
  target: 'bun',
  splitting: true,
  external: ['bun-pty'],
  define: buildDefines('package', commit),
  minify: { whitespace: true, syntax: true, identifiers: false },
});
if (!bundle.success) {
  for (const log of bundle.logs) console.error(log);
  process.exit(1);
}
cpSync(join(ROOT, 'web', 'dist'), join(stage, 'web', 'dist'), { recursive: true });
cpSync(join(ROOT, 'scripts', 'build', 'launcher.sh'), join(stage, 'bin', 'tether'));
const ptyFrom = dirname(createRequire(join(ROOT, 'cli', 'package.json')).resolve('bun-pty/package.json'));
const ptyTo = join(stage, 'node_modules', 'bun-pty');
for (const file of ['package.json', 'LICENSE', 'src', 'rust-pty/target/release']) {
  cpSync(join(ptyFrom, file), join(ptyTo, file), { recursive: true, filter: (path) => !/\.test\.ts$|\.dll$/.test(path) });
}
chmodSync(join(stage, 'bin', 'tether'), 0o755);

const manifest = {
  name: 'tether',
  version: VERSION,
  description: 'Run the real Claude Code on your machine and drive it from anywhere.',
  type: 'module',
  bin: { tether: 'bin/tether' },
  files: ['bin', 'dist', 'web/dist'],
  os: ['linux', 'darwin'],
  cpu: ['x64', 'arm64'],
  // The Bun this was built and tested with; bun-pty as in the checkout.
  dependencies: { bun: Bun.version, 'bun-pty': cli.dependencies['bun-pty'] },
  bundleDependencies: ['bun-pty'],
  tether: { commit },
};
await Bun.write(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8' });
if (pack.status !== 0) {
  console.error(pack.stderr);
  process.exit(pack.status ?? 1);
}
const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; size: number; unpackedSize: number; entryCount: number }>;
rmSync(stage, { recursive: true, force: true });
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
console.log(`${join(out, info!.filename)}  ${mb(info!.size)} packed, ${mb(info!.unpackedSize)} unpacked, ${info!.entryCount} files, commit ${commit}`);
