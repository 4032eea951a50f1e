// version.ts: which Gemini versions tether is tested with (supported-versions.json: the floor and the
// current pin, both run by the test suite from .tools/), and where a given Gemini stands. `tether
// doctor` reports against it and `tether gemini` warns (never refuses) outside it; the comparison and
// the wording are every agent's (agents/version.ts).
import { agentVersions, type VersionRange } from '../version.ts';
import supported from './supported-versions.json' with { type: 'json' };

export const SUPPORTED_GEMINI = supported as VersionRange;

/** `gemini --version` prints "0.61.0" (works offline, needs no login). Its launcher starts Node and
 *  relaunches itself: its --version took ~3 s on a loaded machine, hence the longer wait. */
export const geminiVersions = agentVersions({ agent: 'gemini', range: SUPPORTED_GEMINI, checkScript: 'bun run gemini:check', timeoutMs: 15_000 });
