// version.ts: where an agent's installed version stands against the range tether is tested with.
// Each agent pins its own range (agents/<agent>/supported-versions.json: floor and current, both run by
// the test suite); the comparison, the wording of the warning and the per-binary cache are the same for
// every agent, so they live here (agentVersions: what an agent's room states, the rest follows).
// `tether doctor` reports the standing, `tether <agent>` warns (never refuses) outside the range.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';

export type VersionRange = { floor: string; current: string };
export type VersionStanding = 'inside' | 'older' | 'newer' | 'unknown';

/** "2.1.330 (Claude Code)", "codex-cli 0.169.0" → the first x.y.z; null when there is none. */
export function parseVersion(text: string): string | null {
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

export function standingIn(range: VersionRange, version: string | null): VersionStanding {
  if (!version) return 'unknown';
  if (compareVersions(version, range.floor) < 0) return 'older';
  if (compareVersions(version, range.current) > 0) return 'newer';
  return 'inside';
}

/** One line for the user about `agent` at a version outside the tested range, or null inside it.
 *  `checkScript` is the script that tries the newest release (`bun run <agent>:check`). */
export function rangeWarning(options: { agent: string; version: string | null; range: VersionRange; checkScript: string }): string | null {
  const { agent, version, range } = options;
  const standing = standingIn(range, version);
  switch (standing) {
    case 'inside':
      return null;
    case 'older':
      return `tether: ${agent} ${version} is older than the oldest version tether is tested with (${range.floor}); update ${agent} if something misbehaves`;
    case 'newer':
      return `tether: ${agent} ${version} is newer than tether is tested with (${range.floor}–${range.current}); it usually works, and \`${options.checkScript}\` tries it`;
    case 'unknown':
      return `tether: could not tell which ${agent} version this is (tested: ${range.floor}–${range.current})`;
    default: {
      const never: never = standing;
      return never;
    }
  }
}

/** `<bin> --version`, parsed; null when it does not answer in time or prints no version. */
export function readVersion(options: { bin: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): string | null {
  const result = spawnSync(options.bin, ['--version'], { encoding: 'utf8', timeout: options.timeoutMs ?? 5_000, env: options.env ?? process.env });
  if (result.status !== 0) return null;
  return parseVersion(result.stdout ?? '');
}

/** `read(bin)`, remembered per binary (path, size, mtime) in `cacheFile`, so `tether <agent>` pays for
 *  `<agent> --version` (~0.1–0.3 s) once per installed binary, not at every start. */
export function cachedVersion(options: { bin: string; cacheFile: string; read: (bin: string) => string | null }): string | null {
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
  const version = options.read(options.bin);
  try {
    writeFileSync(options.cacheFile, JSON.stringify({ key, version }), { mode: 0o600 });
  } catch {
    // a read-only home only costs the next start the same look-up
  }
  return version;
}

/** One agent's versions: its tested range and what follows from it. */
export type AgentVersions = {
  range: VersionRange;
  /** What `<bin> --version` runs with on top of the environment. */
  versionEnv: Record<string, string>;
  standing(version: string | null, range?: VersionRange): VersionStanding;
  /** One line for the user about a version outside the range, or null inside it. */
  warning(version: string | null, range?: VersionRange): string | null;
  /** `<bin> --version`, parsed. */
  read(bin: string, options?: { timeoutMs?: number; env?: NodeJS.ProcessEnv }): string | null;
  /** read, remembered per binary in `cacheFile` (cachedVersion). */
  cached(options: { bin: string; cacheFile: string }): string | null;
};

/** An agent's versions from what its room states: its name, its range, the script that tries its
 *  newest release, and how its `--version` is asked (`versionEnv` on top of the environment; a
 *  slow launcher's `timeoutMs`). */
export function agentVersions(options: {
  agent: string;
  range: VersionRange;
  checkScript: string;
  versionEnv?: Record<string, string>;
  timeoutMs?: number;
}): AgentVersions {
  const { agent, checkScript } = options;
  const versionEnv = options.versionEnv ?? {};
  const read: AgentVersions['read'] = (bin, asked = {}) =>
    readVersion({ bin, env: { ...(asked.env ?? process.env), ...versionEnv }, timeoutMs: asked.timeoutMs ?? options.timeoutMs });
  return {
    range: options.range,
    versionEnv,
    standing: (version, range = options.range) => standingIn(range, version),
    warning: (version, range = options.range) => rangeWarning({ agent, version, range, checkScript }),
    read,
    cached: (cache) => cachedVersion({ ...cache, read: (bin) => read(bin) }),
  };
}
