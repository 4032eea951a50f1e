// version.ts: which claude versions tether is tested with, and where a given claude stands.
// supported-versions.json is the one pin: the e2e and browser suites run against both ends of the
// range (scripts/test.mjs installs the floor next to the current devDependency), `tether doctor`
// reports against it, and `tether claude` warns (never refuses) outside it. The comparison and the
// wording are every agent's (agents/version.ts).
import { agentVersions, compareVersions, type VersionRange } from '../version.ts';
import supported from './supported-versions.json' with { type: 'json' };

export const SUPPORTED_CLAUDE = supported as VersionRange;
export { compareVersions };

/** CLAUDECODE unset for `claude --version`: inside a claude session it would refuse to run. */
export const claudeVersions = agentVersions({ agent: 'claude', range: SUPPORTED_CLAUDE, checkScript: 'bun run claude:check', versionEnv: { CLAUDECODE: '' } });
