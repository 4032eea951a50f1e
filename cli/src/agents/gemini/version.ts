// version.ts: which Gemini versions tether is tested with (supported-versions.json: the floor and the
// current pin, both run by the test suite from .tools/), and where a given Gemini stands. `tether
// doctor` reports against it and `tether gemini` warns (never refuses) outside it; the comparison and
// the wording are every agent's (agents/version.ts).
import { cachedVersion, parseVersion, rangeWarning, readVersion, standingIn, type VersionRange, type VersionStanding } from '../version.ts';
import supported from './supported-versions.json' with { type: 'json' };

export const SUPPORTED_GEMINI = supported as VersionRange;

/** `gemini --version` prints "0.61.0"; null when there is no version number in it. */
export const parseGeminiVersion = parseVersion;

export function geminiVersionStanding(version: string | null, range: VersionRange = SUPPORTED_GEMINI): VersionStanding {
  return standingIn(range, version);
}

/** One line for the user about a Gemini outside the tested range, or null inside it. */
export function geminiVersionWarning(version: string | null, range: VersionRange = SUPPORTED_GEMINI): string | null {
  return rangeWarning({ agent: 'gemini', version, range, checkScript: 'bun run gemini:check' });
}

/** `<bin> --version` (works offline, needs no login), parsed. */
export function readGeminiVersion(bin: string, options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): string | null {
  // Gemini's launcher starts Node and relaunches itself: its --version took ~3 s on a loaded machine.
  return readVersion({ bin, timeoutMs: 15_000, ...options });
}

/** readGeminiVersion, remembered per binary in `cacheFile` (agents/version.ts cachedVersion). */
export function cachedGeminiVersion(options: { bin: string; cacheFile: string }): string | null {
  return cachedVersion({ ...options, read: (bin) => readGeminiVersion(bin) });
}
