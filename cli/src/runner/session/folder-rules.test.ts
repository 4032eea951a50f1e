import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProjectRuleFile } from '../../agents/agent.ts';
import type { HubLink } from '../../hub-link/link.ts';
import { createFolderRules } from './folder-rules.ts';

const S1 = '11111111-1111-4111-8111-111111111111';
const R1 = '22222222-2222-4222-8222-222222222222';
const R2 = '33333333-3333-4333-8333-333333333333';

/** An agent's rule file in memory: its entries, and a problem to report while set. */
type MemoryFile = ProjectRuleFile & { problem: string | null; entries: Set<string> };

function memoryFile(): MemoryFile {
  const entries = new Set<string>();
  const file: MemoryFile = {
    problem: null,
    entries,
    seenWithinMs: 1_000,
    writeProblem: () => file.problem,
    update: (rule) => ({ type: 'addRules', rules: [rule], behavior: 'allow', destination: 'localSettings' }),
    holds: ({ rule }) => entries.has(rule.ruleContent),
    remove: ({ rule }) => (file.problem ? { error: file.problem } : { removed: entries.delete(rule.ruleContent) }),
  };
  return file;
}

function world() {
  const reports: unknown[] = [];
  const link = { send: (event: string, payload: unknown) => (reports.push({ event, payload }), true) } as unknown as HubLink;
  const file = memoryFile();
  const rules = createFolderRules({ file, folder: '/work/app', sessionId: () => S1, link: () => link, log: () => {} });
  return { reports, file, rules };
}
const bash = (command: string) => ({ toolName: 'Bash', toolInput: { command } });
const report = (ruleId: string, outcome: string, error: string | null = null) => ({ event: 'rules:report', payload: { sessionId: S1, ruleId, outcome, error } });

afterEach(() => vi.useRealTimers());

describe("a folder's accepted rules in the runner", () => {
  it('the next call a rule covers is allowed with the rule, once; the agent wrote it → written', async () => {
    vi.useFakeTimers();
    const { reports, file, rules } = world();
    expect(rules.updateFor(bash('npm test'))).toBeNull(); // nothing accepted yet: asked as usual
    rules.sync([{ id: R1, toolName: 'Bash', ruleContent: 'npm run:*', action: 'write' }]);
    expect(rules.updateFor(bash('npm test'))).toBeNull();
    expect(rules.updateFor({ toolName: 'Write', toolInput: { command: 'npm run x' } })).toBeNull();
    expect(rules.updateFor(bash('npm run build'))).toEqual([{ type: 'addRules', rules: [{ id: R1, toolName: 'Bash', ruleContent: 'npm run:*', action: 'write' }], behavior: 'allow', destination: 'localSettings' }]);
    expect(rules.updateFor(bash('npm run build'))).toBeNull(); // handed over once: the agent's own rule covers the rest
    file.entries.add('npm run:*');
    await vi.advanceTimersByTimeAsync(200);
    expect(reports).toEqual([report(R1, 'written')]);
  });

  it('a file the agent must not write (a link, not JSON): asked as usual, the hub hears why, tried again at the next call', () => {
    const { reports, file, rules } = world();
    rules.sync([{ id: R1, toolName: 'Bash', ruleContent: 'npm test', action: 'write' }]);
    file.problem = '/work/app/.claude is a link';
    expect(rules.updateFor(bash('npm test'))).toBeNull();
    expect(reports).toEqual([report(R1, 'failed', '/work/app/.claude is a link')]);
    file.problem = null;
    expect(rules.updateFor(bash('npm test'))).not.toBeNull();
  });

  it('the agent did not write it within its time → failed', async () => {
    vi.useFakeTimers();
    const { reports, rules } = world();
    rules.sync([{ id: R1, toolName: 'Bash', ruleContent: 'npm test', action: 'write' }]);
    rules.updateFor(bash('npm test'));
    // Slow is not failed: claude writes the file in its own time, later than its turn on a loaded machine.
    await vi.advanceTimersByTimeAsync(6_000);
    expect(reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(reports).toEqual([report(R1, 'failed', 'the agent did not write Bash(npm test) into its rule file')]);
  });

  it('a revoked rule leaves the file, reported once the running agent has read the file again; a failed removal says why', async () => {
    vi.useFakeTimers();
    const { reports, file, rules } = world();
    file.entries.add('npm test');
    rules.sync([{ id: R1, toolName: 'Bash', ruleContent: 'npm test', action: 'remove' }]);
    expect(file.entries.has('npm test')).toBe(false);
    await vi.advanceTimersByTimeAsync(999);
    expect(reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reports).toEqual([report(R1, 'removed')]);
    file.problem = 'not valid JSON';
    rules.sync([{ id: R2, toolName: 'Bash', ruleContent: 'ls', action: 'remove' }]);
    expect(reports.at(-1)).toEqual(report(R2, 'failed', 'not valid JSON'));
  });
});
