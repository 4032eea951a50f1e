// version.ts: which Codex versions tether is tested with (supported-versions.json: the floor and the
// current pin, both run by the test suite from .tools/), and where a given Codex stands. `tether
// doctor` reports against it and `tether codex` warns (never refuses) outside it; the comparison and
// the wording are every agent's (agents/version.ts). Its `--version` works offline, needs no login.
import { agentVersions, type VersionRange } from '../version.ts';
import supported from './supported-versions.json' with { type: 'json' };

export const SUPPORTED_CODEX = supported as VersionRange;

export const codexVersions = agentVersions({ agent: 'codex', range: SUPPORTED_CODEX, checkScript: 'bun run codex:check' });
