import { describe, expect, it } from 'vitest';
import { createCallInputs, permissionOptions, permissionOutcome, permissionQuestion } from './permission.ts';

/** What Gemini CLI 0.61.0 offers for a shell command (seen over `gemini --acp`). */
const GEMINI_OPTIONS = permissionOptions([
  { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
]);

describe('permissionOutcome', () => {
  it('allow is the allow_once option, never a standing allow nobody chose', () => {
    expect(permissionOutcome(GEMINI_OPTIONS, { behavior: 'allow' })).toEqual({ outcome: { outcome: 'selected', optionId: 'proceed_once' }, tell: null });
  });

  it('a rule the person chose is the allow_always option', () => {
    const verdict = { behavior: 'allow' as const, updatedPermissions: [{ type: 'addRules' as const, rules: [{ toolName: 'Bash' }], behavior: 'allow' as const, destination: 'session' as const }] };
    expect(permissionOutcome(GEMINI_OPTIONS, verdict).outcome).toEqual({ outcome: 'selected', optionId: 'proceed_always' });
  });

  it('deny is reject_once with the reason to tell; nobody to ask is reject_once with nothing to tell; an edit is refused with why', () => {
    expect(permissionOutcome(GEMINI_OPTIONS, { behavior: 'deny', message: 'use make' })).toEqual({ outcome: { outcome: 'selected', optionId: 'cancel' }, tell: 'use make' });
    expect(permissionOutcome(GEMINI_OPTIONS, null)).toEqual({ outcome: { outcome: 'selected', optionId: 'cancel' }, tell: null });
    const edited = permissionOutcome(GEMINI_OPTIONS, { behavior: 'allow', updatedInput: { command: 'ls' } });
    expect(edited.outcome).toEqual({ outcome: 'selected', optionId: 'cancel' });
    expect(edited.tell).toMatch(/edited/);
  });

  it('fails closed when the agent offers no matching option: cancelled, never a reject_always or an allow_always', () => {
    const onlyAlways = permissionOptions([
      { optionId: 'a', kind: 'allow_always', name: 'Always' },
      { optionId: 'r', kind: 'reject_always', name: 'Never' },
    ]);
    expect(permissionOutcome(onlyAlways, { behavior: 'allow' }).outcome).toEqual({ outcome: 'cancelled' });
    expect(permissionOutcome(onlyAlways, { behavior: 'deny', message: 'no' }).outcome).toEqual({ outcome: 'cancelled' });
  });
});

describe('permissionOptions', () => {
  it('keeps the well-formed options only', () => {
    expect(permissionOptions('x')).toEqual([]);
    expect(permissionOptions([null, { optionId: 1, kind: 'allow_once' }, { optionId: 'o', kind: 'allow_once' }])).toEqual([{ optionId: 'o', kind: 'allow_once', name: 'o' }]);
  });
});

describe('permissionQuestion', () => {
  it('a command is Bash, with the agent\'s explanation as its description', () => {
    const call = { toolCallId: 't1', title: 'echo hi', kind: 'execute', content: [{ type: 'content', content: { type: 'text', text: 'say hi' } }] };
    expect(permissionQuestion(call)).toEqual({ toolName: 'Bash', toolInput: { command: 'echo hi', description: 'say hi' }, toolUseId: 't1' });
  });

  it('a command the agent titles by its tool names the command of its raw input (opencode 1.17: "bash")', () => {
    const call = { toolCallId: 't4', title: 'bash', kind: 'execute', rawInput: { command: 'echo ran-42 > ran.txt', description: 'write it' } };
    expect(permissionQuestion(call)).toEqual({ toolName: 'Bash', toolInput: { command: 'echo ran-42 > ran.txt', description: 'write it' }, toolUseId: 't4' });
  });

  it('a diff is Write for a new file, Edit for a changed one', () => {
    const add = { toolCallId: 't2', title: 'Writing', kind: 'edit', content: [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: 'x' }] };
    expect(permissionQuestion(add)).toMatchObject({ toolName: 'Write', toolInput: { file_path: '/w/a.txt', content: 'x' } });
    const change = { toolCallId: 't3', title: 'Editing', kind: 'edit', content: [{ type: 'diff', path: '/w/a.txt', oldText: 'x', newText: 'y' }] };
    expect(permissionQuestion(change)).toMatchObject({ toolName: 'Edit', toolInput: { file_path: '/w/a.txt', old_string: 'x', new_string: 'y' } });
  });

  it('anything else goes by its title, and junk is still a question (never a crash)', () => {
    expect(permissionQuestion({ title: 'Fetch https://x', kind: 'fetch', locations: [{ path: '/w' }] })).toEqual({ toolName: 'Fetch https://x', toolInput: { kind: 'fetch', locations: ['/w'] }, toolUseId: null });
    expect(permissionQuestion(42)).toEqual({ toolName: 'a tool', toolInput: {}, toolUseId: null });
  });
});

describe('createCallInputs', () => {
  // opencode 1.18.33 over ACP: its bash call is announced with {command, description}, then its
  // permission request carries the command only (the permission's metadata).
  it('fills a permission from what its call was announced with, the permission winning', () => {
    const calls = createCallInputs();
    calls.update({ sessionUpdate: 'tool_call', toolCallId: 'c1', status: 'pending', rawInput: {} });
    calls.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress', rawInput: { command: 'echo hi', description: 'say hi' } });
    const asked = { toolCallId: 'c1', kind: 'execute', rawInput: { command: 'echo hi!' } };
    expect(permissionQuestion(calls.fill(asked))).toEqual({ toolName: 'Bash', toolInput: { command: 'echo hi!', description: 'say hi' }, toolUseId: 'c1' });
  });

  it('forgets a call once it ended; an unknown call and junk pass as they are', () => {
    const calls = createCallInputs();
    calls.update({ sessionUpdate: 'tool_call', toolCallId: 'c1', rawInput: { description: 'old' } });
    calls.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' });
    calls.update({ sessionUpdate: 'agent_message_chunk', toolCallId: 'c2', rawInput: { description: 'not a call' } });
    const asked = { toolCallId: 'c1', rawInput: { command: 'x' } };
    expect(calls.fill(asked)).toBe(asked);
    expect(calls.fill({ toolCallId: 'c2' })).toEqual({ toolCallId: 'c2' });
    expect(calls.fill(42)).toBe(42);
  });
});
