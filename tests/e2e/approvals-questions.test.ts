// Questions and plans answered from the phone with real claude: claude asks through its
// PermissionRequest hook while it draws its own picker at the desk; the phone's AskUserQuestion
// answers go back in updatedInput and close the picker; ExitPlanMode is approved, or rejected with
// feedback that claude gets as the reason.
import { afterEach, describe, expect, it } from 'vitest';
import { buildQuestionAnswers } from '@tether/shared';
import { PIZZA_QUESTIONS } from '../fixtures/questions.ts';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { DESK_DIALOG, DESK_READY_PLAN, startApprovalWorld, type ApprovalWorld } from '../harness/approvals.ts';

let world: ApprovalWorld | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});


describe('questions and plans', () => {
  it('AskUserQuestion: two questions (multi-select + free text) → exactly those answers, no picker drawn', async () => {
    world = await startApprovalWorld({
      script: [
        when(userSays(/pizza/), toolUse('AskUserQuestion', { questions: PIZZA_QUESTIONS }, { id: 'toolu_q1' })),
        when(hasToolResult({ id: 'toolu_q1' }), text('pizza ordered')),
      ],
    });
    const { phone, runner } = world;
    await phone.send('pizza please');
    const request = await world.nextRequest('AskUserQuestion');
    expect(request.kind).toBe('question');
    // The desk could answer in claude's own picker meanwhile.
    await runner.waitForScreen(DESK_DIALOG);
    const answers = buildQuestionAnswers({
      questions: PIZZA_QUESTIONS,
      picks: [{ labels: ['Cheese', 'Olives'] }, { labels: [], other: 'well done, on a stone' }],
    });
    expect(answers).toEqual({ 'Which toppings do you want?': 'Cheese, Olives', 'How should it be baked?': 'well done, on a stone' });
    expect((await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow', answers } })).ok).toBe(true);
    await runner.waitForScreen('pizza ordered');
    const result = world.toolResults().find((r) => r.toolUseId === 'toolu_q1');
    expect(result?.isError).toBe(false);
    expect(result?.text).toContain('"Which toppings do you want?"="Cheese, Olives"');
    expect(result?.text).toContain('"How should it be baked?"="well done, on a stone"');
    // The phone's answer closed the desk's picker.
    expect(runner.screenText()).not.toMatch(DESK_DIALOG);
    // The picker was the hook request's: the dialog bridge never asked about it a second time.
    expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]);
  }, 60_000);

  it('ExitPlanMode approved → claude leaves plan mode and goes on', async () => {
    world = await startApprovalWorld({
      args: ['--permission-mode', 'plan'],
      ready: DESK_READY_PLAN,
      script: [
        when(userSays(/plan it/), toolUse('ExitPlanMode', { plan: '1. write hello.txt\n2. done' }, { id: 'toolu_plan1' })),
        when(hasToolResult({ id: 'toolu_plan1', isError: false }), text('plan approved, starting')),
      ],
    });
    const { phone, runner } = world;
    await phone.send('plan it');
    const request = await world.nextRequest('ExitPlanMode');
    expect(request).toMatchObject({ kind: 'plan', toolInput: { plan: expect.stringContaining('write hello.txt') } });
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    await runner.waitForScreen('plan approved, starting');
    expect(world.toolResults().find((r) => r.toolUseId === 'toolu_plan1')?.isError).toBe(false);
    // "Exit plan mode?" (which 2.1.330 keeps up after the hook allowed) was the plan request's, not a dialog request.
    expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]);
  }, 60_000);

  for (const planMode of ['acceptEdits', 'default'] as const) {
    it(`ExitPlanMode approved with "${planMode === 'acceptEdits' ? 'accept edits' : 'ask before edits'}" → claude works on in ${planMode} mode`, async () => {
      world = await startApprovalWorld({
        args: ['--permission-mode', 'plan'],
        ready: DESK_READY_PLAN,
        script: [
          when(userSays(/plan it/), toolUse('ExitPlanMode', { plan: '1. write hello.txt' }, { id: 'toolu_plan_m' })),
          when(hasToolResult({ id: 'toolu_plan_m', isError: false }), text('plan approved, starting')),
        ],
      });
      const { phone, runner } = world;
      await phone.send('plan it');
      const request = await world.nextRequest('ExitPlanMode');
      await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow', planMode } });
      await runner.waitForScreen('plan approved, starting');
      await phone.waitFor(() => phone.session()?.permissionMode === planMode, { what: `permission mode ${planMode}` });
      expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]);
    }, 60_000);
  }

  it('ExitPlanMode rejected with feedback → claude keeps planning with that feedback', async () => {
    world = await startApprovalWorld({
      args: ['--permission-mode', 'plan'],
      ready: DESK_READY_PLAN,
      script: [
        when(userSays(/plan it/), toolUse('ExitPlanMode', { plan: '1. rm -rf build' }, { id: 'toolu_plan2' })),
        when(hasToolResult({ id: 'toolu_plan2', isError: true }), text('revising the plan')),
      ],
    });
    const { phone, runner } = world;
    await phone.send('plan it');
    const request = await world.nextRequest('ExitPlanMode');
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'keep the build dir, clean only dist/' } });
    await runner.waitForScreen('revising the plan');
    expect(world.toolResults().find((r) => r.toolUseId === 'toolu_plan2')).toMatchObject({ isError: true, text: expect.stringContaining('keep the build dir, clean only dist/') });
  }, 60_000);
});
