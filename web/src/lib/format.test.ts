import { agentDisplayName } from '@tether/shared/wire';
import { describe, expect, it } from 'vitest';
import type { AgentCapabilities } from '@tether/shared';
import { formatBytes, describeLaunchKind, effortLevelsFor, describeUsage, formatTokens, pathInSession, describeModel, deviceNameFromUserAgent, answeredFromNotification, modelAliasOf, formatDirectory, formatDuration, formatRelativeTime, pathBasename, sessionTitle, suggestBashPrefix, summarizeToolInput } from './format.ts';

describe('format', () => {
  it('relative times', () => {
    const now = 1_000_000_000_000;
    expect(formatRelativeTime(now - 5_000, now)).toBe('just now');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5m ago');
    expect(formatRelativeTime(now - 3 * 3_600_000, now)).toBe('3h ago');
    expect(formatRelativeTime(now - 30 * 3_600_000, now)).toBe('yesterday');
    expect(formatRelativeTime(now + 60_000, now)).toBe('just now');
  });
  it('durations', () => {
    expect(formatDuration(12_400)).toBe('12s');
    expect(formatDuration(4 * 60_000)).toBe('4m');
    expect(formatDuration(65 * 60_000)).toBe('1h 5m');
  });
  it('sizes', () => {
    expect([512, 4_300, 38_000, 13_107_200, 1_395_864_371].map(formatBytes)).toEqual(['512 B', '4.2 KB', '37 KB', '12.5 MB', '1.3 GB']);
  });
  it('directories and titles', () => {
    expect(pathBasename('/home/ana/src/tether/')).toBe('tether');
    expect(formatDirectory('/home/ana/src/tether')).toBe('~/src/tether');
    expect(formatDirectory('/Users/ana')).toBe('~');
    expect(formatDirectory('/srv/x', { home: '/srv' })).toBe('~/x');
    expect(formatDirectory(`/opt/${'a'.repeat(80)}`, { max: 20 })).toHaveLength(20);
    expect(sessionTitle({ title: ' ', cwd: '/home/ana/api' })).toBe('api');
  });
  it('device names', () => {
    expect(deviceNameFromUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari on iPhone');
    expect(deviceNameFromUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(deviceNameFromUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox on Linux');
  });
  it('answers from a notification', () => {
    expect(answeredFromNotification({ device: 'notification@Chrome on Android' })).toBe('Chrome on Android');
    expect(answeredFromNotification({ device: 'desk@box' })).toBeNull();
    expect(answeredFromNotification({ device: null })).toBeNull();
  });
  it('tool summaries and Bash prefixes', () => {
    expect(summarizeToolInput('Bash', { command: 'git   status\n--short' })).toBe('git status --short');
    expect(summarizeToolInput('Edit', { file_path: '/a/b.ts' })).toBe('/a/b.ts');
    expect(summarizeToolInput('FileChanges', { changes: [{ path: 'a.ts', kind: 'update' }, { path: 'b.ts', kind: 'add' }] })).toBe('a.ts, b.ts');
    expect(
      summarizeToolInput('AskUserQuestion', {
        questions: [{ question: 'Which  color?', options: [] }, { question: 'Toppings?', options: [] }],
      }),
    ).toBe('Which color? · Toppings?');
    expect(summarizeToolInput('ExitPlanMode', { plan: '# Plan' })).toBe('Plan ready for review');
    expect(summarizeToolInput('Mystery', { x: 1 })).toBe('{"x":1}');
    expect(suggestBashPrefix('git push origin main')).toBe('git push');
    expect(suggestBashPrefix('git --no-pager log')).toBe('git');
    expect(suggestBashPrefix('ls -la')).toBe('ls');
  });
});

describe('describeModel', () => {
  it('says a model the way people do', () => {
    expect(describeModel('claude-opus-4-1-20250805')).toBe('opus 4.1');
    expect(describeModel('claude-sonnet-4-5')).toBe('sonnet 4.5');
    expect(describeModel('claude-sonnet-4-20250514')).toBe('sonnet 4');
    expect(describeModel('claude-3-5-haiku-20241022')).toBe('haiku 3.5');
    expect(describeModel('opus')).toBe('opus');
    expect(describeModel('my-proxy-model')).toBe('my-proxy-model');
    expect(describeModel(null)).toBe('default model');
    expect(modelAliasOf('claude-3-5-haiku-20241022', ['opus', 'sonnet', 'haiku'])).toBe('haiku');
    expect(modelAliasOf('gpt-5.5', [])).toBeNull();
  });
});

describe('pathInSession', () => {
  it('turns a path claude named into one inside the session directory, or null', () => {
    expect(pathInSession('/home/dev/app/src/a.ts', '/home/dev/app')).toBe('src/a.ts');
    expect(pathInSession('/home/dev/app/src/a.ts', '/home/dev/app/')).toBe('src/a.ts');
    expect(pathInSession('src/./a.ts', '/home/dev/app')).toBe('src/a.ts');
    expect(pathInSession('/home/dev/application/a.ts', '/home/dev/app')).toBeNull();
    expect(pathInSession('/etc/passwd', '/home/dev/app')).toBeNull();
    expect(pathInSession('../a.ts', '/home/dev/app')).toBeNull();
    expect(pathInSession('/home/dev/app', '/home/dev/app')).toBeNull();
  });
});

describe('formatTokens and describeUsage', () => {
  it('shortens counts for a chip', () => {
    expect([0, 950, 1000, 12_312, 99_949, 123_456, 999_949, 999_950, 4_549_999, 123_400_000].map(formatTokens)).toEqual([
      '0',
      '950',
      '1k',
      '12.3k',
      '99.9k',
      '123k',
      '1M',
      '1M',
      '4.5M',
      '123M',
    ]);
  });

  it('says the total, and the context share only when the window is known; the visible words start the name', () => {
    const usage = { inputTokens: 11_900, cachedInputTokens: 9_000, outputTokens: 412, contextTokens: 41_800, contextWindow: null };
    expect(describeUsage(usage)).toEqual({ short: '12.3k tokens', label: '12.3k tokens used. Details', contextPercent: null, share: null });
    expect(describeUsage({ ...usage, contextWindow: 190_000 })).toEqual({
      short: '12.3k tokens · context 22%',
      label: '12.3k tokens · context 22% full. Details',
      contextPercent: 22,
      share: '22%',
    });
    // A last request past the stated window (Codex keeps 5% back) still reads as full, not 104%.
    expect(describeUsage({ ...usage, contextTokens: 198_000, contextWindow: 190_000 }).contextPercent).toBe(100);
    // A little context in use is not none.
    expect(describeUsage({ ...usage, contextTokens: 220, contextWindow: 190_000 }).short).toBe('12.3k tokens · context <1%');
    expect(describeUsage({ ...usage, contextTokens: 0, contextWindow: 190_000 }).short).toBe('12.3k tokens · context 0%');
  });
});

describe('what the agent\'s capabilities offer', () => {
  const turnSwitched: AgentCapabilities = {
    displayName: 'Codex',
    description: '',
    models: { offered: [], typed: true, example: null, switchableIn: ['headless'] },
    effort: { levels: ['xhigh', 'low', 'high'], maps: { max: 'xhigh' }, switchableIn: ['headless'] },
    modes: { values: [], switchableIn: [] },
    resumeCommand: 'tether codex resume {id}',
    relays: { requests: ['permission'], editedInput: false, sessionRules: false },
  };

  it('offers the agent\'s own effort levels in the protocol\'s order, only where it switches them; none without capabilities', () => {
    expect(effortLevelsFor({ launchKind: 'headless', capabilities: turnSwitched })).toEqual(['low', 'high', 'xhigh']);
    expect(effortLevelsFor({ launchKind: 'pty', capabilities: turnSwitched })).toBeNull();
    expect(effortLevelsFor({ launchKind: 'pty', capabilities: null })).toBeNull();
  });

  it('names the agent by its capabilities, else its kind; the default agent is left unsaid beside the launch kind', () => {
    expect(agentDisplayName('codex', turnSwitched)).toBe('Codex');
    expect(agentDisplayName('codex', null)).toBe('Codex');
    expect(agentDisplayName('claude')).toBe('Claude');
    expect(describeLaunchKind('headless', 'codex')).toEqual({ label: 'Codex · Headless', title: 'Chat only (Codex, no terminal)' });
    expect(describeLaunchKind('pty', 'claude')).toEqual({ label: 'PTY', title: "Interactive terminal (claude's live TUI)" });
  });
});
