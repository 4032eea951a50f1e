// `tether gemini --resume <id>` continues the same tether session: End from the phone ends Gemini the
// way its desk does (Ctrl-C), and the resumed run's chat goes on where it was, nothing from the first
// run sent again as new; the token usage the fake API stated reaches the hub, counted on across the
// resume.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { text, userSays, when } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';
import { GEMINI_READY } from '../harness/gemini.ts';

const defer = useCleanups();

describe('tether gemini: end and resume', () => {
  it('End from the phone ends Gemini; `tether gemini --resume <id>` continues the same chat without duplicates', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-gemini-resume-'));
    defer(() => rmSync(home, { recursive: true, force: true }));
    const { runner: first, phone, startRunner } = await startGeminiWorld(defer, {
      script: [
        when(userSays(/first question/), { ...text('first answer'), usage: { input: 1000, cached: 600, output: 50 } }),
        when(userSays(/second question/), { ...text('second answer'), usage: { input: 2000, cached: 1500, output: 70 } }),
      ],
      home,
    });
    await phone.send('first question');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('first answer')), { what: 'first answer' });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the first answer' });
    const geminiId = phone.session()!.agentSessionId!;
    expect(geminiId).toMatch(/^[0-9a-f-]{36}$/);
    await phone.waitFor(() => phone.session()?.usage?.outputTokens === 50, { what: "the first turn's usage" });
    expect(phone.session()?.usage).toEqual({ inputTokens: 1000, cachedInputTokens: 600, outputTokens: 50, contextTokens: 1050, contextWindow: null });
    expect((await phone.emit('session:stop', { sessionId: first.sessionId })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
    expect(await first.exited).toBe(0);
    const before = phone.messages().map((m) => m.id);

    const second = startRunner({ home, args: ['--resume', geminiId], sessionId: first.sessionId });
    await second.waitForScreen(GEMINI_READY, { timeoutMs: 45_000 });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'same session live again' });
    await phone.send('second question');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('second answer')), { what: 'second answer' });
    const after = phone.messages();
    expect(after.slice(0, before.length).map((m) => m.id)).toEqual(before);
    expect(after.filter((m) => m.role === 'user').map((m) => chatText(m))).toEqual(['first question', 'second question']);
    expect(phone.duplicates()).toBe(0);
    expect(phone.session()?.agentSessionId).toBe(geminiId);
    await phone.waitFor(() => phone.session()?.usage?.outputTokens === 120, { what: 'the usage of both runs' });
    expect(phone.session()?.usage).toEqual({ inputTokens: 3000, cachedInputTokens: 2100, outputTokens: 120, contextTokens: 2070, contextWindow: null });
  }, 120_000);
});
