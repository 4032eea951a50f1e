// build-info.ts: what every build records: the version (cli/package.json, what `tether --version`
// prints), the git commit of the tree being built (with -dirty when tracked files differ from it),
// and the --define values that cli/src/config/build.ts reads.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export const VERSION: string = (await Bun.file(join(ROOT, 'cli', 'package.json')).json()).version;

export function gitCommit(): string {
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['diff', '--quiet', 'HEAD'], { cwd: ROOT }).status === 1;
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

export function buildDefines(kind: 'package' | 'binary', commit: string): Record<string, string> {
  return { TETHER_BUILD_KIND: JSON.stringify(kind), TETHER_COMMIT: JSON.stringify(commit) };
}

/** `--name value` from argv (repeatable ones: every value). */
export function argValues(argv: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) if (argv[i] === `--${name}` && argv[i + 1] !== undefined) out.push(argv[++i]!);
  return out;
}

/** Builds web/dist when its sources are newer (never rebuilds a fresh one: tests may be serving it). */
export async function ensureWebBuilt(): Promise<void> {
  const { ensureWebBuild } = await import(join(ROOT, 'scripts', 'bootstrap.mjs'));
  ensureWebBuild(process.execPath);
}
