// version.ts: which claude versions tether is tested with, and where a given claude stands.
// supported-versions.json is the one pin: the e2e and browser suites run against both ends of the
// range (scripts/test.mjs installs the floor next to the current devDependency), `tether doctor`
// reports against it, and `tether claude` warns (never refuses) outside it. The comparison and the
// wording are every agent's (agents/version.ts).
import { cachedVersion, compareVersions, parseVersion, rangeWarning, readVersion, standingIn, type VersionRange, type VersionStanding } from '../version.ts';
import supported from './supported-versions.json' with { type: 'json' };

export const SUPPORTED_CLAUDE = supported as VersionRange;
export { compareVersions, type VersionStanding };

/** "2.1.330 (Claude Code)" → "2.1.330"; null when there is no version number in it. */
export const parseClaudeVersion = parseVersion;

export function versionStanding(version: string | null, range: VersionRange = SUPPORTED_CLAUDE): VersionStanding {
  return standingIn(range, version);
}

/** One line for the user about a version outside the tested range, or null inside it. */
export function versionWarning(version: string | null, range: VersionRange = SUPPORTED_CLAUDE): string | null {
  return rangeWarning({ agent: 'claude', version, range, checkScript: 'bun run claude:check' });
}

/** `<bin> --version`, parsed (CLAUDECODE unset: inside a claude session it would refuse to run). */
export function readClaudeVersion(bin: string, options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): string | null {
  return readVersion({ bin, env: { ...(options.env ?? process.env), CLAUDECODE: '' }, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
}

/** readClaudeVersion, remembered per binary in `cacheFile` (agents/version.ts cachedVersion). */
export function cachedClaudeVersion(options: { bin: string; cacheFile: string }): string | null {
  return cachedVersion({ ...options, read: (bin) => readClaudeVersion(bin) });
}
