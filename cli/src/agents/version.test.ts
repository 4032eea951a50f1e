import { describe, expect, it } from 'vitest';
import { agentVersions, compareVersions, parseVersion } from './version.ts';

describe('versions', () => {
  it('reads the version in what each agent\'s --version prints', () => {
    const printed: Array<[string, string | null]> = [
      ['2.1.330 (Claude Code)', '2.1.330'],
      ['Claude Code v2.1.197\n', '2.1.197'],
      ['codex-cli 0.169.0', '0.169.0'],
      ['codex-cli 0.170.0-alpha.2\n', '0.170.0'],
      ['0.61.0', '0.61.0'],
      ['command not found', null],
      ['error: unknown flag', null],
    ];
    for (const [text, version] of printed) expect(parseVersion(text), text).toBe(version);
  });

  it('compares numerically, not as text', () => {
    expect(compareVersions('2.1.330', '2.1.197')).toBe(1);
    expect(compareVersions('2.1.99', '2.1.197')).toBe(-1);
    expect(compareVersions('2.10.0', '2.9.9')).toBe(1);
    expect(compareVersions('2.1.197', '2.1.197')).toBe(0);
  });
});

describe('an agent\'s versions', () => {
  const range = { floor: '0.160.0', current: '0.169.0' };
  const versions = agentVersions({ agent: 'codex', range, checkScript: 'bun run codex:check' });

  it('places a version against the agent\'s range, ends included', () => {
    expect(versions.standing('0.165.3')).toBe('inside');
    expect(versions.standing('0.160.0')).toBe('inside');
    expect(versions.standing('0.169.0')).toBe('inside');
    expect(versions.standing('0.99.0')).toBe('older');
    expect(versions.standing('0.170.0')).toBe('newer');
    expect(versions.standing(null)).toBe('unknown');
    expect(versions.standing('0.170.0', { floor: '0.160.0', current: '0.171.0' })).toBe('inside');
  });

  it('warns only outside the range, naming the agent and its check script', () => {
    expect(versions.warning('0.165.3')).toBeNull();
    expect(versions.warning('0.170.0')).toBe('tether: codex 0.170.0 is newer than tether is tested with (0.160.0–0.169.0); it usually works, and `bun run codex:check` tries it');
    expect(versions.warning('0.150.0')).toBe('tether: codex 0.150.0 is older than the oldest version tether is tested with (0.160.0); update codex if something misbehaves');
    expect(versions.warning(null)).toBe('tether: could not tell which codex version this is (tested: 0.160.0–0.169.0)');
  });
});
