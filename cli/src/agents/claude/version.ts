// version.ts: which claude versions tether is tested with, and where a given claude stands.
// supported-versions.json is the one pin: the e2e and browser suites run against both ends of the
// range (scripts/test.mjs installs the floor next to the current devDependency), `tether doctor`
// reports against it, and `tether claude` warns (never refuses) outside it.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import supported from './supported-versions.json' with { type: 'json' };

export const SUPPORTED_CLAUDE = supported as { floor: string; current: string };

export type VersionStanding = 'inside' | 'older' | 'newer' | 'unknown';

/** "2.1.330 (Claude Code)" → "2.1.330"; null when there is no version number in it. */
export function parseClaudeVersion(text: string): string | null {
  return /\d+\.\d+\.\d+/.exec(text)?.[0] ?? null;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

export function versionStanding(version: string | null, range = SUPPORTED_CLAUDE): VersionStanding {
  if (!version) return 'unknown';
  if (compareVersions(version, range.floor) < 0) return 'older';
  if (compareVersions(version, range.current) > 0) return 'newer';
  return 'inside';
}

/** One line for the user about a version outside the tested range, or null inside it. */
export function versionWarning(version: string | null, range = SUPPORTED_CLAUDE): string | null {
  const standing = versionStanding(version, range);
  switch (standing) {
    case 'inside':
      return null;
    case 'older':
      return `tether: claude ${version} is older than the oldest version tether is tested with (${range.floor}); update claude if something misbehaves`;
    case 'newer':
      return `tether: claude ${version} is newer than tether is tested with (${range.floor}–${range.current}); it usually works, and \`bun run claude:check\` tries it`;
    case 'unknown':
      return `tether: could not tell which claude version this is (tested: ${range.floor}–${range.current})`;
    default: {
      const never: never = standing;
      return never;
    }
  }
}

/** `<bin> --version`, parsed; null when it does not answer in time or prints no version. */
export function readClaudeVersion(bin: string, options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): string | null {
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: options.timeoutMs ?? 5_000, env: { ...(options.env ?? process.env), CLAUDECODE: '' } });
  if (result.status !== 0) return null;
  return parseClaudeVersion(result.stdout ?? '');
}

/** readClaudeVersion, remembered per binary (path, size, mtime) in `cacheFile`, so `tether claude`
 *  pays for `claude --version` (~0.1–0.3 s) once per installed claude, not at every start. */
export function cachedClaudeVersion(options: { bin: string; cacheFile: string }): string | null {
  let key: string;
  try {
    const st = statSync(options.bin);
    key = `${options.bin}:${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
  }
  try {
    const cached = JSON.parse(readFileSync(options.cacheFile, 'utf8')) as { key?: string; version?: string | null };
    if (cached.key === key && cached.version !== undefined) return cached.version;
  } catch {
    // no cache yet
  }
  const version = readClaudeVersion(options.bin);
  try {
    writeFileSync(options.cacheFile, JSON.stringify({ key, version }), { mode: 0o600 });
  } catch {
    // a read-only home only costs the next start the same look-up
  }
  return version;
}
