// build.ts: which tether this is (a source checkout, the npm package, a single-file binary) and what
// follows from that: the version line, where the built web app lives, and what a person types to run
// it (a checkout puts no `tether` on PATH: its package.json script, scripts/tether.mjs, stands in).
//
// The package and binary builds (scripts/build/) replace TETHER_BUILD_KIND and TETHER_COMMIT with
// --define; a checkout runs the sources as they are, so both are undeclared and `typeof` says so.
// Layouts (Bun.main is the entry the runtime started):
//   checkout  <repo>/cli/src/main.ts          web: <repo>/web/dist
//   package   <pkg>/dist/main.js              web: <pkg>/web/dist
//   binary    /$bunfs/root/<exe>  (embedded)  web: /$bunfs/root/dist (--asset web/dist keeps the last part)
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';

declare const TETHER_BUILD_KIND: 'package' | 'binary' | undefined;
declare const TETHER_COMMIT: string | undefined;

export type BuildKind = 'checkout' | 'package' | 'binary';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

export function buildKind(): BuildKind {
  return typeof TETHER_BUILD_KIND === 'string' ? TETHER_BUILD_KIND : 'checkout';
}

/** The git commit this tether was built from: recorded at build time, or asked of git in a
 *  checkout (only when someone wants it: --version, doctor). */
export function buildCommit(): string {
  if (typeof TETHER_COMMIT === 'string') return TETHER_COMMIT;
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['diff', '--quiet', 'HEAD'], { cwd: REPO_ROOT }).status === 1;
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

/** "tether 0.1.0 (commit 1a2b3c4d5e6f, npm package)". */
export function versionLine(version: string): string {
  const kind = { checkout: 'source checkout', package: 'npm package', binary: `binary ${process.platform}-${process.arch}` }[buildKind()];
  return `tether ${version} (commit ${buildCommit()}, ${kind})`;
}

/** The built web app the hub serves at `/`. */
export function webDistDir(): string {
  switch (buildKind()) {
    case 'checkout':
      return resolve(REPO_ROOT, 'web', 'dist');
    case 'package':
      return resolve(dirname(Bun.main), '..', 'web', 'dist');
    case 'binary':
      return resolve(dirname(Bun.main), 'dist');
  }
}

/** A shell word: as it is when safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** What a person types for `tether <verb>`, to put in front of one in a hint: `tether`, or in a
 *  checkout its script, typed in the checkout (`npm run tether -- claude`). */
export function typedTether(): string {
  return buildKind() === 'checkout' ? 'npm run tether --' : 'tether';
}

/** The same, typed in any folder: a checkout's script runs in the folder npm was started in, so an
 *  agent started this way works there. */
export function typedTetherAnywhere(): string {
  return buildKind() === 'checkout' ? `npm --prefix ${shellWord(REPO_ROOT)} run tether --` : 'tether';
}
