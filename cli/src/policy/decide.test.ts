import { describe, expect, it } from 'vitest';
import { decideToolUse, isInsideDir } from './decide.ts';
import { createSessionRules } from './rules.ts';

const base = { permissionMode: 'default' as const, hubConnected: true, cwd: '/work/proj' };

describe('decideToolUse', () => {
  it('auto-allows read-only tools in every mode', () => {
    for (const permissionMode of ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const) {
      for (const toolName of ['Read', 'Glob', 'Grep', 'LS', 'TodoWrite']) {
        expect(decideToolUse({ ...base, permissionMode, toolName, toolInput: {}, rules: createSessionRules() }).kind).toBe('allow');
      }
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
    expect(kind('Bash', 'git log | sh')).toBe('ask-hub');
    expect(kind('Bash', 'git $(rm -rf /)')).toBe('ask-hub');
    expect(kind('Bash', 'make test')).toBe('allow');
    expect(kind('Bash', '  make test  ')).toBe('allow');
    expect(kind('Bash', 'make test2')).toBe('ask-hub');
    expect(kind('WebFetch')).toBe('allow');
    expect(kind('Write')).toBe('ask-hub');
  });

  it('a plain session-wide Bash allow covers every command', () => {
    const rules = createSessionRules();
    rules.addFromAnswer({ rule: { kind: 'tool' }, toolName: 'Bash', toolInput: { command: 'ls' } });
    expect(decideToolUse({ ...base, toolName: 'Bash', toolInput: { command: 'rm -rf build && make' }, rules }).kind).toBe('allow');
  });

  it('bypass allows only when the user asked for it; questions are never auto-allowed', () => {
    const rules = createSessionRules();
    const bypass = { ...base, permissionMode: 'bypassPermissions' as const, rules };
    expect(decideToolUse({ ...bypass, toolName: 'Bash', toolInput: { command: 'x' }, bypassAllowed: true }).kind).toBe('allow');
    expect(decideToolUse({ ...bypass, toolName: 'Bash', toolInput: { command: 'x' } }).kind).toBe('ask-hub');
    expect(decideToolUse({ ...bypass, toolName: 'AskUserQuestion', toolInput: {}, bypassAllowed: true }).kind).toBe('ask-hub');
    expect(decideToolUse({ ...bypass, toolName: 'ExitPlanMode', toolInput: {}, bypassAllowed: true }).kind).toBe('ask-hub');
  });

  it('acceptEdits allows edits inside the cwd only, and nothing else', () => {
    const rules = createSessionRules();
    const edits = { ...base, permissionMode: 'acceptEdits' as const, rules };
    expect(decideToolUse({ ...edits, toolName: 'Edit', toolInput: { file_path: '/work/proj/src/a.ts' } }).kind).toBe('allow');
    expect(decideToolUse({ ...edits, toolName: 'Write', toolInput: { file_path: 'notes.md' } }).kind).toBe('allow');
    expect(decideToolUse({ ...edits, toolName: 'NotebookEdit', toolInput: { notebook_path: '/work/proj/n.ipynb' } }).kind).toBe('allow');
    expect(decideToolUse({ ...edits, toolName: 'Edit', toolInput: { file_path: '/etc/passwd' } }).kind).toBe('ask-hub');
    expect(decideToolUse({ ...edits, toolName: 'Write', toolInput: { file_path: '/work/proj/../other/x' } }).kind).toBe('ask-hub');
    expect(decideToolUse({ ...edits, toolName: 'Write', toolInput: { file_path: '/work/project2/x' } }).kind).toBe('ask-hub');
    expect(decideToolUse({ ...edits, toolName: 'Bash', toolInput: { command: 'ls' } }).kind).toBe('ask-hub');
  });

  it('default and plan mode ask for edits', () => {
    for (const permissionMode of ['default', 'plan'] as const) {
      expect(decideToolUse({ ...base, permissionMode, toolName: 'Edit', toolInput: { file_path: '/work/proj/a' }, rules: createSessionRules() }).kind).toBe('ask-hub');
    }
  });
});

describe('isInsideDir', () => {
  it('resolves relative paths and rejects escapes', () => {
    expect(isInsideDir({ path: '/a/b', dir: '/a' })).toBe(true);
    expect(isInsideDir({ path: '/a', dir: '/a' })).toBe(true);
    expect(isInsideDir({ path: '../x', dir: '/a' })).toBe(false);
    expect(isInsideDir({ path: '/ab', dir: '/a' })).toBe(false);
  });
});
