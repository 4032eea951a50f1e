// version.ts: which opencode versions tether is tested with (supported-versions.json: the floor and the
// current pin, both run by the test suite from .tools/), and where a given opencode stands; the
// comparison and the wording are every agent's (agents/version.ts).
import { agentVersions, type VersionRange } from '../version.ts';
import supported from './supported-versions.json' with { type: 'json' };

export const SUPPORTED_OPENCODE = supported as VersionRange;

/** `opencode --version` prints "1.18.33" (a native binary; offline, no login). */
export const opencodeVersions = agentVersions({ agent: 'opencode', range: SUPPORTED_OPENCODE, checkScript: 'bun run opencode:check', timeoutMs: 15_000 });
