import { describe, expect, it } from 'vitest';
import { parseVersion } from '../version.ts';
import { claudeVersions, compareVersions, SUPPORTED_CLAUDE } from './version.ts';

describe('claude versions', () => {
  it('parses what `claude --version` prints', () => {
    expect(parseVersion('2.1.330 (Claude Code)')).toBe('2.1.330');
    expect(parseVersion('Claude Code v2.1.197\n')).toBe('2.1.197');
    expect(parseVersion('command not found')).toBeNull();
  });

  it('compares numerically, not as text', () => {
    expect(compareVersions('2.1.330', '2.1.197')).toBe(1);
    expect(compareVersions('2.1.99', '2.1.197')).toBe(-1);
    expect(compareVersions('2.10.0', '2.9.9')).toBe(1);
    expect(compareVersions('2.1.197', '2.1.197')).toBe(0);
  });

  it('warns about claude by name, and names claude:check when it is newer', () => {
    const range = { floor: '2.1.197', current: '2.1.330' };
    expect(claudeVersions.warning('2.1.250', range)).toBeNull();
    expect(claudeVersions.warning('2.2.0', range)).toBe('tether: claude 2.2.0 is newer than tether is tested with (2.1.197–2.1.330); it usually works, and `bun run claude:check` tries it');
    expect(claudeVersions.standing('2.1.100')).toBe('older');
  });

  it('asks `claude --version` with CLAUDECODE unset (inside a claude session it would refuse to run)', () => {
    expect(claudeVersions.versionEnv).toEqual({ CLAUDECODE: '' });
  });

  it('the pin names a floor at or below the current version', () => {
    expect(compareVersions(SUPPORTED_CLAUDE.floor, SUPPORTED_CLAUDE.current)).toBeLessThanOrEqual(0);
  });
});
