import { describe, expect, it } from 'vitest';
import { compareVersions, parseClaudeVersion, SUPPORTED_CLAUDE, versionStanding, versionWarning } from './version.ts';

describe('claude versions', () => {
  it('parses what `claude --version` prints', () => {
    expect(parseClaudeVersion('2.1.330 (Claude Code)')).toBe('2.1.330');
    expect(parseClaudeVersion('Claude Code v2.1.197\n')).toBe('2.1.197');
    expect(parseClaudeVersion('command not found')).toBeNull();
  });

  it('compares numerically, not as text', () => {
    expect(compareVersions('2.1.330', '2.1.197')).toBe(1);
    expect(compareVersions('2.1.99', '2.1.197')).toBe(-1);
    expect(compareVersions('2.10.0', '2.9.9')).toBe(1);
    expect(compareVersions('2.1.197', '2.1.197')).toBe(0);
  });

  it('places a version against the tested range, and warns only outside it', () => {
    const range = { floor: '2.1.197', current: '2.1.330' };
    expect(versionStanding('2.1.250', range)).toBe('inside');
    expect(versionStanding('2.1.197', range)).toBe('inside');
    expect(versionStanding('2.1.330', range)).toBe('inside');
    expect(versionStanding('2.1.100', range)).toBe('older');
    expect(versionStanding('2.2.0', range)).toBe('newer');
    expect(versionStanding(null, range)).toBe('unknown');
    expect(versionWarning('2.1.250', range)).toBeNull();
    expect(versionWarning('2.2.0', range)).toContain('newer than tether is tested with (2.1.197–2.1.330)');
    expect(versionWarning('2.1.100', range)).toContain('older than the oldest version');
  });

  it('the pin names a floor at or below the current version', () => {
    expect(compareVersions(SUPPORTED_CLAUDE.floor, SUPPORTED_CLAUDE.current)).toBeLessThanOrEqual(0);
  });
});
