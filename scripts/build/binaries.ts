// binaries.ts: `npm run build:binaries [-- --target linux-x64 … --out DIR]`: single-file executables
// (`bun build --compile`), dist/binaries/tether-<os>-<arch> for linux-x64, linux-arm64, darwin-arm64
// and darwin-x64 (default: all four; DIR default dist/binaries). Cross-compiling fetches the target's
// Bun runtime from the npm registry once (Bun caches it).
//
// Inside each: cli + hub + shared and every dependency, the built web app (--asset web/dist, served
// from the executable's embedded files), and the target's librust_pty for bun-pty (embedded by
// bun-pty's own compile-time lookup; Bun writes it to a temp file when it is dlopened). No .env or
// bunfig.toml of the folder it runs in is loaded: those belong to the user's project.
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT, argValues, buildDefines, ensureWebBuilt, gitCommit } from './build-info.ts';

/** Our target name → Bun's. */
export const BINARY_TARGETS: Record<string, string> = {
  'linux-x64': 'bun-linux-x64',
  'linux-arm64': 'bun-linux-arm64',
  'darwin-arm64': 'bun-darwin-arm64',
  'darwin-x64': 'bun-darwin-x64',
};

const wanted = argValues(process.argv, 'target');
const targets = wanted.length > 0 ? wanted : Object.keys(BINARY_TARGETS);
for (const target of targets) if (!BINARY_TARGETS[target]) throw new Error(`unknown --target ${target} (one of ${Object.keys(BINARY_TARGETS).join(', ')})`);
const out = resolve(argValues(process.argv, 'out')[0] ?? join(ROOT, 'dist', 'binaries'));
const commit = gitCommit();

await ensureWebBuilt();
mkdirSync(out, { recursive: true });
for (const target of targets) {
  const outfile = join(out, `tether-${target}`);
  const defines = Object.entries(buildDefines('binary', commit)).flatMap(([key, value]) => ['--define', `${key}=${value}`]);
  const args = [
    'build',
    '--compile',
    `--target=${BINARY_TARGETS[target]}`,
    'cli/src/binary-main.ts',
    // The app lands at /$bunfs/root/dist/… in the executable (see cli/src/config/build.ts).
    '--asset',
    'web/dist',
    '--outfile',
    outfile,
    '--minify',
    '--no-compile-autoload-dotenv',
    '--no-compile-autoload-bunfig',
    ...defines,
  ];
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    process.exit(result.status ?? 1);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${outfile}  ${(statSync(outfile).size / 1e6).toFixed(1)} MB  (${seconds} s, commit ${commit})`);
}
