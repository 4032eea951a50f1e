// `tether codex resume <id>` continues the same tether session: End from the phone ends Codex the
// way its desk does (Ctrl-C), and the resumed run's chat goes on where it was, nothing from the first
// run sent again as new; the token usage the fake API stated reaches the hub exactly, across the resume.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { startCodexWorld } from '../harness/codex-world.ts';
import { CODEX_READY } from '../harness/codex.ts';

const defer = useCleanups();

describe('tether codex: end and resume', () => {
  it('End from the phone ends Codex; `tether codex resume <id>` continues the same chat without duplicates', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-codex-resume-'));
    defer(() => rmSync(home, { recursive: true, force: true }));
    const { runner: first, phone, startRunner } = await startCodexWorld(defer, {
      script: [
        when(userSays(/first question/), { ...text('first answer'), usage: { input: 1000, cached: 600, output: 50 } }),
        when(userSays(/second question/), { ...text('second answer'), usage: { input: 2000, cached: 1500, output: 70 } }),
      ],
      home,
      contextWindow: 200_000,
    });
    await phone.send('first question');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('first answer')), { what: 'first answer' });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the first answer' });
    const codexId = phone.session()!.agentSessionId!;
    expect(codexId).toMatch(/^[0-9a-f-]{36}$/);
    // The rollout's token_count after the reply: the fake's numbers, and the window Codex states:
    // 95% of config.toml's 200 000 (it keeps 5% back; its fallback 272 000 is stated as 258 400).
    const firstUsage = { inputTokens: 1000, cachedInputTokens: 600, outputTokens: 50, contextTokens: 1050, contextWindow: 190_000 };
    await phone.waitFor(() => phone.session()?.usage?.outputTokens === 50, { what: 'the first turn\'s usage' });
    expect(phone.session()?.usage).toEqual(firstUsage);
    // Codex's Stop hook (the session's idle) comes a moment before its turn is complete: Ctrl-C
    // then would interrupt that turn (a turn_aborted in the rollout) before it exits. Its screen
    // says when the turn is over.
    await first.waitForScreen(CODEX_READY);
    expect((await phone.emit('session:stop', { sessionId: first.sessionId })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
    expect(await first.exited).toBe(0);
    const before = phone.messages().map((m) => m.id);

    const second = startRunner({ home, args: ['resume', codexId], sessionId: first.sessionId });
    await second.waitForScreen(CODEX_READY);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'same session live again' });
    await phone.send('second question');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('second answer')), { what: 'second answer' });
    const after = phone.messages();
    expect(after.slice(0, before.length).map((m) => m.id)).toEqual(before);
    // Shown whole when it fails: which line of the rollout became which message.
    expect(after.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content))).toEqual([
      JSON.stringify([{ type: 'text', text: 'first question' }]),
      JSON.stringify([{ type: 'text', text: 'second question' }]),
    ]);
    expect(phone.duplicates()).toBe(0);
    expect(phone.session()?.agentSessionId).toBe(codexId);
    // Codex's own totals go on across its resume; the context is the last request's.
    await phone.waitFor(() => phone.session()?.usage?.outputTokens === 120, { what: 'the usage of both runs' });
    expect(phone.session()?.usage).toEqual({ inputTokens: 3000, cachedInputTokens: 2100, outputTokens: 120, contextTokens: 2070, contextWindow: 190_000 });
  }, 60_000);
});
