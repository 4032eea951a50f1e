import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@tether/shared';
import { recordingLink as fakeLink, sentRequest as requestOf } from '../../testing/recording-link.ts';
import { createApprovals, sessionRuleUpdate, verdictFor } from './approvals.ts';

const bash = { toolName: 'Bash', toolInput: { command: 'npm test', description: 'run tests' } };

/** A Bash call claude started as `toolUseId` (PreToolUse) and then asks about, its request sent. */
async function askedAfterStart(toolUseId: string) {
  const link = fakeLink();
  const approvals = createApprovals({ sessionId: () => 's1', link: () => link });
  approvals.toolStarted({ tool_name: 'Bash', tool_input: bash.toolInput, tool_use_id: toolUseId });
  const pending = approvals.ask({ ...bash, signal: new AbortController().signal });
  await expect.poll(() => link.sent.length).toBe(1);
  return { link, approvals, pending };
}

describe('approvals (claude decides when; the hub decides what)', () => {
  it('turns the first hub answer into claude’s decision, with the tool_use id matched from PreToolUse', async () => {
    const { link, approvals, pending } = await askedAfterStart('toolu_1');
    const request = requestOf(link);
    expect(request).toMatchObject({ kind: 'permission', toolName: 'Bash', toolUseId: 'toolu_1' });
    approvals.answered({ requestId: request.id, answer: { decision: 'allow', sessionRule: { kind: 'bash-prefix', prefix: 'npm' } } });
    expect(await pending).toEqual({
      behavior: 'allow',
      updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm:*' }], behavior: 'allow', destination: 'session' }],
    });
  });

  it('sends who asks with the request when a sub-agent asks, and no such field for the session’s own', async () => {
    const link = fakeLink();
    const approvals = createApprovals({ sessionId: () => 's1', link: () => link });
    const byAda = approvals.ask({ ...bash, askedBy: { nickname: 'Ada', thread: '019a2b3c' }, signal: new AbortController().signal });
    const own = approvals.ask({ ...bash, askedBy: null, signal: new AbortController().signal });
    await expect.poll(() => link.sent.length).toBe(2);
    const [first, second] = link.sent.map((s) => s.payload as unknown as PendingRequest);
    expect(first!.askedBy).toEqual({ nickname: 'Ada', thread: '019a2b3c' });
    expect(second).not.toHaveProperty('askedBy');
    for (const request of [first!, second!]) approvals.answered({ requestId: request.id, answer: { decision: 'deny' } });
    await Promise.all([byAda, own]);
  });

  it('returns null (claude’s own dialog decides) when the hub cannot take the request: never a silent allow', async () => {
    const approvals = createApprovals({ sessionId: () => 's1', link: () => fakeLink({ refuse: true }) });
    expect(await approvals.ask({ ...bash, signal: new AbortController().signal })).toBeNull();
    const unlinked = createApprovals({ sessionId: () => 's1', link: () => null });
    expect(await unlinked.ask({ ...bash, signal: new AbortController().signal })).toBeNull();
  });

  it('a dialog answered at the desk (it leaves the screen) clears the hub at once, and the transcript fills in the choice', async () => {
    const { link, approvals, pending } = await askedAfterStart('toolu_2');
    approvals.screen('busy'); // before claude drew its dialog: nothing was answered yet
    approvals.screen('dialog');
    approvals.screen('busy'); // the dialog gave way to the running tool
    expect(await pending).toBeNull();
    const request = requestOf(link);
    expect(link.sent[1]).toEqual({ event: 'approval:desk-answer', payload: { sessionId: 's1', requestId: request.id, answer: null, device: expect.stringMatching(/^desk@/) } });
    approvals.toolResult({ toolUseId: 'toolu_2', rejected: false });
    expect(link.sent[2]).toEqual({ event: 'approval:dialog-outcome', payload: { sessionId: 's1', requestId: request.id, decision: 'allow' } });
  });

  it('a rejection in the transcript while the request waits settles it as denied at the desk', async () => {
    const link = fakeLink();
    const approvals = createApprovals({ sessionId: () => 's1', link: () => link });
    const pending = approvals.ask({ ...bash, toolUseId: 'toolu_3', signal: new AbortController().signal });
    await expect.poll(() => link.sent.length).toBe(1);
    approvals.toolResult({ toolUseId: 'toolu_3', rejected: true });
    expect(await pending).toBeNull();
    expect(link.sent.map((s) => s.event)).toEqual(['approval:request', 'approval:desk-answer', 'approval:dialog-outcome']);
    expect(link.sent[2]!.payload.decision).toBe('deny');
    // A phone answer that arrives now finds nothing waiting.
    approvals.answered({ requestId: requestOf(link).id, answer: { decision: 'allow' } });
    expect(link.sent).toHaveLength(3);
  });

  it('withdraws the request when claude stops waiting (its connection dropped)', async () => {
    const link = fakeLink();
    const approvals = createApprovals({ sessionId: () => 's1', link: () => link });
    const cancel = new AbortController();
    const pending = approvals.ask({ ...bash, signal: cancel.signal });
    await expect.poll(() => link.sent.length).toBe(1);
    cancel.abort();
    expect(await pending).toBeNull();
    expect(link.sent[1]).toMatchObject({ event: 'approval:withdraw', payload: { requestId: requestOf(link).id } });
  });

  it('answers questions through updatedInput and plans by feedback, calling onPlanApproved on approval', async () => {
    let planApproved = 0;
    const link = fakeLink();
    const approvals = createApprovals({ sessionId: () => 's1', link: () => link, onPlanApproved: () => (planApproved += 1) });
    const plan = approvals.ask({ toolName: 'ExitPlanMode', toolInput: { plan: '1. do it' }, signal: new AbortController().signal });
    await expect.poll(() => link.sent.length).toBe(1);
    approvals.answered({ requestId: requestOf(link).id, answer: { decision: 'allow' } });
    expect(await plan).toEqual({ behavior: 'allow' });
    expect(planApproved).toBe(1);
  });
});

describe('verdicts', () => {
  const request = (toolName: string, toolInput: Record<string, unknown>): PendingRequest => ({
    id: '00000000-0000-4000-8000-000000000001',
    sessionId: '00000000-0000-4000-8000-000000000002',
    kind: toolName === 'AskUserQuestion' ? 'question' : toolName === 'ExitPlanMode' ? 'plan' : 'permission',
    toolName,
    toolInput,
    toolUseId: null,
    createdAt: 1,
  });

  it('a deny carries the reason (or a default per kind) as the message the model reads', () => {
    expect(verdictFor({ request: request('Bash', {}), answer: { decision: 'deny', reason: '  not now ' } })).toEqual({ behavior: 'deny', message: 'not now' });
    expect(verdictFor({ request: request('ExitPlanMode', {}), answer: { decision: 'deny' } })).toEqual({ behavior: 'deny', message: 'The user wants to keep planning.' });
  });

  it('question answers go into updatedInput next to the questions', () => {
    const input = { questions: [{ question: 'Color?' }] };
    expect(verdictFor({ request: request('AskUserQuestion', input), answer: { decision: 'allow', answers: { 'Color?': 'Blue' } } })).toEqual({
      behavior: 'allow',
      updatedInput: { questions: [{ question: 'Color?' }], answers: { 'Color?': 'Blue' } },
    });
  });

  it('an edited input replaces those fields of claude’s input for a permission, and nothing else', () => {
    const input = { command: 'rm -rf build', description: 'Clean the build' };
    expect(verdictFor({ request: request('Bash', input), answer: { decision: 'allow', updatedInput: { command: 'rm -rf build/tmp' } } })).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'rm -rf build/tmp', description: 'Clean the build' },
    });
    // A plan is not the person's to rewrite through this field: claude gets its own input.
    expect(verdictFor({ request: request('ExitPlanMode', { plan: 'x' }), answer: { decision: 'allow', updatedInput: { plan: 'y' } } })).toEqual({ behavior: 'allow' });
  });

  it('an approved plan may name the mode claude works in next, as claude’s own plan dialog does', () => {
    expect(verdictFor({ request: request('ExitPlanMode', { plan: 'x' }), answer: { decision: 'allow', planMode: 'acceptEdits' } })).toEqual({
      behavior: 'allow',
      updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    });
    expect(verdictFor({ request: request('Bash', { command: 'ls' }), answer: { decision: 'allow', planMode: 'acceptEdits' } })).toEqual({ behavior: 'allow' });
  });

  it('session rules become claude’s own rule strings', () => {
    const input = { command: '  git status ' };
    expect(sessionRuleUpdate({ rule: { kind: 'bash-exact' }, toolName: 'Bash', toolInput: input })[0]!.rules).toEqual([{ toolName: 'Bash', ruleContent: 'git status' }]);
    expect(sessionRuleUpdate({ rule: { kind: 'bash-prefix', prefix: 'git:*' }, toolName: 'Bash', toolInput: input })[0]!.rules).toEqual([{ toolName: 'Bash', ruleContent: 'git:*' }]);
    expect(sessionRuleUpdate({ rule: { kind: 'tool' }, toolName: 'Write', toolInput: {} })[0]!.rules).toEqual([{ toolName: 'Write' }]);
    expect(sessionRuleUpdate({ rule: { kind: 'bash-exact' }, toolName: 'Bash', toolInput: {} })).toEqual([]);
  });
});
