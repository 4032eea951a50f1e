// Headless sessions (`claude -p`, chat only) ask through claude's own stream-json permission channel
// (`--permission-prompt-tool stdio`: can_use_tool), exactly when claude would ask a person: the phone
// allows, denies with a reason, answers a question; what the user's rules allow is never asked.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@tether/shared';
import { buildQuestionAnswers } from '@tether/shared';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { PIZZA_QUESTIONS } from '../fixtures/questions.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { startDaemonWorld } from '../harness/world.ts';
import { spawnVia } from '../harness/daemon.ts';

const defer = useCleanups();

describe('headless approvals', () => {
  it('allow, deny with a reason and a question, all from the phone; a rule-allowed call is never asked', async () => {
    const { sandbox, daemon, phone, startWatch, fake } = await startDaemonWorld(defer, {
      script: [
        when(userSays(/go/), toolUse('Bash', { command: 'touch by-rule.txt', description: 'allowed by a rule' }, { id: 'toolu_h0' })),
        when(hasToolResult({ id: 'toolu_h0' }), toolUse('Bash', { command: 'touch asked.txt', description: 'asked' }, { id: 'toolu_h1' })),
        when(hasToolResult({ id: 'toolu_h1' }), toolUse('Bash', { command: 'touch refused.txt', description: 'refused' }, { id: 'toolu_h2' })),
        when(hasToolResult({ id: 'toolu_h2' }), toolUse('AskUserQuestion', { questions: PIZZA_QUESTIONS }, { id: 'toolu_h3' })),
        when(hasToolResult({ id: 'toolu_h3' }), text('headless approvals done')),
      ],
    });
    writeFileSync(join(sandbox.configDir, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(touch by-rule.txt)'] } }));
    const ack = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, permissionMode: 'default' });
    expect(ack.ok).toBe(true);
    const watch = await startWatch(ack.session!.id);
    const requested: PendingRequest[] = [];
    watch.socket.on('approval:requested', (request: PendingRequest) => {
      requested.push(request);
      watch.changed();
    });
    await watch.send('go');
    const next = async (toolUseId: string) => watch.waitFor(() => requested.find((r) => r.toolUseId === toolUseId), { what: `request for ${toolUseId}`, timeoutMs: 30_000 });

    const asked = await next('toolu_h1');
    expect(asked).toMatchObject({ kind: 'permission', toolName: 'Bash' });
    await watch.emit('approval:answer', { requestId: asked.id, answer: { decision: 'allow' } });
    const refused = await next('toolu_h2');
    await watch.emit('approval:answer', { requestId: refused.id, answer: { decision: 'deny', reason: 'not in this repo' } });
    const question = await next('toolu_h3');
    expect(question.kind).toBe('question');
    const answers = buildQuestionAnswers({ questions: PIZZA_QUESTIONS, picks: [{ labels: ['Cheese'] }, { labels: [], other: 'crispy' }] });
    await watch.emit('approval:answer', { requestId: question.id, answer: { decision: 'allow', answers } });
    await watch.waitFor(() => watch.messages().find((m) => chatText(m).includes('headless approvals done')), { what: 'final reply', timeoutMs: 30_000 });

    expect(requested.map((r) => r.toolUseId)).toEqual(['toolu_h1', 'toolu_h2', 'toolu_h3']);
    expect(existsSync(join(sandbox.cwd, 'by-rule.txt'))).toBe(true);
    expect(existsSync(join(sandbox.cwd, 'asked.txt'))).toBe(true);
    expect(existsSync(join(sandbox.cwd, 'refused.txt'))).toBe(false);
    const results = fake.mainRequests().flatMap((r) => r.messages).flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
    const resultOf = (id: string) => JSON.stringify(results.find((b) => b.type === 'tool_result' && (b as { tool_use_id?: string }).tool_use_id === id));
    expect(resultOf('toolu_h2')).toContain('not in this repo');
    expect(resultOf('toolu_h3')).toContain('Cheese');
    expect(resultOf('toolu_h3')).toContain('crispy');
  }, 90_000);
});
