// Codex's own question in a PTY (request_user_input, which Codex asks in Plan mode, entered at the
// desk with Shift+Tab) answered from the phone with a note: the question reaches the hub with its
// headline, its options and their descriptions, and a note field; the option chosen and the note
// typed from the hub reach the model (seen at the fake API), control characters removed.
// Run at the current pin (0.171.0) and the 0.160.0 floor: both draw the question alike.
import { describe, expect, it } from 'vitest';
import { FREE_TEXT_MAX_CHARS } from '@tether/shared';
import { hasToolOutput, lastToolOutputs, requestUserInput, text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexWorld } from '../harness/codex-world.ts';
import { codexBin, enterPlanModeAtDesk } from '../harness/codex.ts';

const defer = useCleanups();

const QUESTIONS = [{ id: 'database', header: 'Database', question: 'Which database should the tests use?', options: [{ label: 'SQLite (Recommended)', description: 'A file per test' }, { label: 'PostgreSQL', description: 'A throwaway cluster' }] }];

const installed = new TextDecoder().decode(Bun.spawnSync([codexBin(), '--version']).stdout).match(/\d+\.\d+\.\d+/)?.[0] ?? '';

describe(`tether codex ${installed}: its own question on the phone`, () => {
  it('the question arrives with its headline and a note field; the option and the note typed from the hub reach the model', async () => {
    const { fake, runner, phone } = await startCodexWorld(defer, {
      script: [when(userSays('ask me'), requestUserInput(QUESTIONS, { callId: 'call_q1' })), when(hasToolOutput(), text('noted your choice'))],
    });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle: its session started', timeoutMs: 45_000 });
    await enterPlanModeAtDesk(runner);
    await phone.send('ask me');
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'the question on the hub', timeoutMs: 45_000 });
    expect(dialog.toolInput).toMatchObject({
      headline: 'Which database should the tests use?',
      options: [
        { key: '1', label: 'SQLite (Recommended)', detail: 'A file per test' },
        { key: '2', label: 'PostgreSQL', detail: 'A throwaway cluster' },
        { key: '3', label: 'None of the above' },
      ],
      freeText: { notes: true, maxChars: FREE_TEXT_MAX_CHARS.codex },
    });
    const alone = await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', text: 'a note alone' } });
    expect(alone).toMatchObject({ ok: false, error: expect.stringMatching(/choose one/) });
    const long = await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: '2', text: 'x'.repeat(FREE_TEXT_MAX_CHARS.codex + 1) } });
    expect(long).toMatchObject({ ok: false, error: expect.stringMatching(/at most/) });
    expect((await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: '2', text: 'a throwaway\x1b[2J one\x07, please' } })).ok).toBe(true);
    await runner.waitForScreen('noted your choice', { timeoutMs: 45_000 });
    const output = fake.mainRequests().flatMap(lastToolOutputs).find((o) => o.callId === 'call_q1')?.output ?? '';
    expect(output).toContain('PostgreSQL');
    expect(output).toContain('a throwaway[2J one, please');
  }, 120_000);
});
