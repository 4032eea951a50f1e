import { describe, expect, it } from 'vitest';
import { claudeVersions, compareVersions, SUPPORTED_CLAUDE } from './version.ts';

describe('claude versions', () => {
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
