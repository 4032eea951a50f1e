import { describe, expect, it } from 'vitest';
import { decideToolUse } from './decide.ts';
import { createSessionRules } from './rules.ts';

const base = { permissionMode: 'default' as const, hubConnected: true };

describe('decideToolUse', () => {
  it('auto-allows read-only tools', () => {
    for (const toolName of ['Read', 'Glob', 'Grep', 'LS', 'TodoWrite']) {
      expect(decideToolUse({ ...base, toolName, toolInput: {}, rules: createSessionRules() }).kind).toBe('allow');
    }
  });

  it('asks the hub when connected, defers to the desk dialog when not', () => {
    const input = { toolName: 'Bash', toolInput: { command: 'rm x' }, rules: createSessionRules() };
    expect(decideToolUse({ ...base, ...input })).toEqual({ kind: 'ask-hub' });
    expect(decideToolUse({ ...base, ...input, hubConnected: false })).toEqual({ kind: 'defer' });
  });

  it('honours session rules: tool, exact bash, prefix (not over chained commands)', () => {
    const rules = createSessionRules();
    rules.addFromAnswer({ rule: { kind: 'bash-prefix', prefix: 'git:*' }, toolName: 'Bash', toolInput: {} });
    rules.addFromAnswer({ rule: { kind: 'bash-exact' }, toolName: 'Bash', toolInput: { command: 'make test' } });
    rules.addFromAnswer({ rule: { kind: 'tool' }, toolName: 'WebFetch', toolInput: {} });
    const kind = (toolName: string, command?: string) => decideToolUse({ ...base, toolName, toolInput: command ? { command } : {}, rules }).kind;
    expect(kind('Bash', 'git status')).toBe('allow');
    expect(kind('Bash', 'git')).toBe('allow');
    expect(kind('Bash', 'gitk')).toBe('ask-hub');
    expect(kind('Bash', 'git status && rm -rf /')).toBe('ask-hub');
    expect(kind('Bash', 'make test')).toBe('allow');
    expect(kind('Bash', 'make test2')).toBe('ask-hub');
    expect(kind('WebFetch')).toBe('allow');
  });

  it('never auto-allows questions, even in bypass mode', () => {
    expect(decideToolUse({ ...base, permissionMode: 'bypassPermissions', toolName: 'AskUserQuestion', toolInput: {}, rules: createSessionRules() }).kind).toBe('ask-hub');
    expect(decideToolUse({ ...base, permissionMode: 'bypassPermissions', toolName: 'Bash', toolInput: {}, rules: createSessionRules() }).kind).toBe('allow');
  });
});
