// The phone is asked exactly when plain claude would ask the desk: claude's mode and the user's own
// settings rules decide, tether re-decides nothing (real claude, real runner, real hub).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { startApprovalWorld, type ApprovalWorld } from '../harness/approvals.ts';
import { PIZZA_QUESTIONS } from '../fixtures/questions.ts';

let world: ApprovalWorld | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

/** A program that writes a file: claude asks about it in manual and accept-edits modes alike. */
const WRITING_PROGRAM = (file: string) => `node -e "require('fs').writeFileSync('${file}', 'x')"`;
/** Matches the desk once any turn is idle again, whatever claude's footer says in this mode. */
const IDLE_BOX = /❯[\s\u00a0]*\n─+/;

describe('claude decides when the phone is asked', () => {
  it("a command the user's settings allow runs with no hub request; one they deny is refused with none", async () => {
    world = await startApprovalWorld({
      userSettings: { permissions: { allow: ['Bash(touch allowed.txt)'], deny: ['Bash(touch denied.txt)'] } },
      script: [
        when(userSays(/go/), toolUse('Bash', { command: 'touch allowed.txt', description: 'allowed' }, { id: 'toolu_allow' })),
        when(hasToolResult({ id: 'toolu_allow' }), toolUse('Bash', { command: 'touch denied.txt', description: 'denied' }, { id: 'toolu_deny' })),
        when(hasToolResult({ id: 'toolu_deny' }), text('rules done')),
      ],
    });
    const { phone, runner, sandbox } = world;
    await phone.send('go');
    await runner.waitForScreen('rules done');
    expect(existsSync(join(sandbox.cwd, 'allowed.txt'))).toBe(true);
    expect(existsSync(join(sandbox.cwd, 'denied.txt'))).toBe(false);
    expect(world.toolResults().find((r) => r.toolUseId === 'toolu_deny')?.isError).toBe(true);
    expect(phone.requested).toEqual([]);
  }, 60_000);

  it('acceptEdits: an edit in the project runs unasked; a program that writes is asked on the phone', async () => {
    world = await startApprovalWorld({
      args: ['--permission-mode', 'acceptEdits'],
      ready: IDLE_BOX,
      script: [
        when(userSays(/go/), toolUse('Write', { file_path: 'notes.txt', content: 'hello\n' }, { id: 'toolu_w' })),
        when(hasToolResult({ id: 'toolu_w' }), toolUse('Bash', { command: WRITING_PROGRAM('program.txt'), description: 'write via node' }, { id: 'toolu_n' })),
        when(hasToolResult({ id: 'toolu_n' }), text('edits done')),
      ],
    });
    const { phone, runner, sandbox } = world;
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    expect(request.toolUseId).toBe('toolu_n');
    expect(existsSync(join(sandbox.cwd, 'notes.txt'))).toBe(true);
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    await runner.waitForScreen('edits done');
    expect(existsSync(join(sandbox.cwd, 'program.txt'))).toBe(true);
    expect(phone.requested.map((r) => r.toolName)).toEqual(['Bash']);
  }, 60_000);

  it('plan: reading runs unasked; leaving plan mode is asked on the phone', async () => {
    world = await startApprovalWorld({
      args: ['--permission-mode', 'plan'],
      ready: IDLE_BOX,
      script: [
        when(userSays(/go/), toolUse('Read', { file_path: 'README.md' }, { id: 'toolu_r' })),
        when(hasToolResult({ id: 'toolu_r' }), toolUse('ExitPlanMode', { plan: '1. nothing to do' }, { id: 'toolu_x' })),
        when(hasToolResult({ id: 'toolu_x' }), text('plan left')),
      ],
    });
    const { phone, runner } = world;
    await phone.send('go');
    const request = await world.nextRequest('ExitPlanMode');
    expect(phone.requested.map((r) => r.toolName)).toEqual(['ExitPlanMode']);
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    await runner.waitForScreen('plan left');
  }, 60_000);

  it('auto: what auto mode clears runs unasked; a question claude asks still reaches the phone', async () => {
    world = await startApprovalWorld({
      args: ['--permission-mode', 'auto'],
      ready: IDLE_BOX,
      script: [
        when(userSays(/go/), toolUse('Bash', { command: 'touch auto-safe.txt', description: 'a file in the project' }, { id: 'toolu_a' })),
        when(hasToolResult({ id: 'toolu_a' }), toolUse('AskUserQuestion', { questions: PIZZA_QUESTIONS.slice(0, 1) }, { id: 'toolu_q' })),
        when(hasToolResult({ id: 'toolu_q' }), text('auto done')),
      ],
    });
    const { phone, runner, sandbox } = world;
    await phone.send('go');
    const question = await world.nextRequest('AskUserQuestion');
    expect(existsSync(join(sandbox.cwd, 'auto-safe.txt'))).toBe(true);
    expect(phone.requested.map((r) => r.toolName)).toEqual(['AskUserQuestion']);
    const first = PIZZA_QUESTIONS[0]!;
    await phone.emit('approval:answer', { requestId: question.id, answer: { decision: 'allow', answers: { [first.question]: first.options[0]!.label } } });
    await runner.waitForScreen('auto done');
  }, 60_000);
});
