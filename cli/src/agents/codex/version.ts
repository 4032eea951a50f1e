// version.ts: which Codex versions tether is tested with (supported-versions.json: the floor and the
// current pin, both run by the test suite from .tools/), and where a given Codex stands. `tether
// doctor` reports against it and `tether codex` warns (never refuses) outside it; the comparison and
// the wording are every agent's (agents/version.ts).
import { cachedVersion, parseVersion, rangeWarning, readVersion, standingIn, type VersionRange, type VersionStanding } from '../version.ts';
import supported from './supported-versions.json' with { type: 'json' };

export const SUPPORTED_CODEX = supported as VersionRange;

/** "codex-cli 0.169.0" → "0.169.0"; null when there is no version number in it. */
export const parseCodexVersion = parseVersion;

export function codexVersionStanding(version: string | null, range: VersionRange = SUPPORTED_CODEX): VersionStanding {
  return standingIn(range, version);
}

/** One line for the user about a Codex outside the tested range, or null inside it. */
export function codexVersionWarning(version: string | null, range: VersionRange = SUPPORTED_CODEX): string | null {
  return rangeWarning({ agent: 'codex', version, range, checkScript: 'bun run codex:check' });
}

/** `<bin> --version` (works offline, needs no login), parsed. */
export function readCodexVersion(bin: string, options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): string | null {
  return readVersion({ bin, ...options });
}

/** readCodexVersion, remembered per binary in `cacheFile` (agents/version.ts cachedVersion). */
export function cachedCodexVersion(options: { bin: string; cacheFile: string }): string | null {
  return cachedVersion({ ...options, read: (bin) => readCodexVersion(bin) });
}
