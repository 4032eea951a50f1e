// Gemini CLI's loop-detection dialog reaches the phone with its words, and the phone's answer takes
// effect (issue 41). The fake Gemini API answers a prompt with the same read_file call five times in
// one response (repeatedCall), and again after Gemini's own "Potential loop detected" nudge: the
// second time Gemini halts the turn and draws "A potential loop was detected" with two choices. Answered from the hub with "disable it for this session", Gemini sends
// the request again, which the fake answers. Runs at the pin, and at the 0.58.0 floor with TETHER_GEMINI_BIN.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFile, repeatedCall, text, userSays, when } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';

const defer = useCleanups();

/** The same read five times in one response. The first time Gemini tells the model (a "System:
 *  Potential loop detected" prompt, 0.58.0 and 0.61.0); the second time it halts and asks. */
const looping = (request: unknown) => repeatedCall(readFile(join(String(JSON.stringify(request).match(/"(\/[^"]*project)\\n?/)?.[1] ?? ''), 'README.md')));

describe('tether gemini: its loop detection on the phone', () => {
  it('the dialog reaches the phone with its headline and options; "disable" from the hub → Gemini sends the request again', async () => {
    const { fake, runner, phone, sandbox } = await startGeminiWorld(defer, {
      script: [when(userSays('loop'), looping), when(userSays('Potential loop detected'), looping), text('went on after the loop')],
    });
    writeFileSync(join(sandbox.cwd, 'README.md'), 'the readme\n');
    await phone.send('loop');
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'the loop dialog on the hub', timeoutMs: 60_000 });
    expect(dialog.toolInput).toMatchObject({
      title: 'A potential loop was detected',
      headline: expect.stringMatching(/repetitive tool calls[^]*Do you want to keep loop detection enabled or disable it for this session\?$/),
      options: [
        { key: '1', label: 'Keep loop detection enabled (esc)' },
        { key: '2', label: 'Disable loop detection for this session' },
      ],
    });
    const before = fake.mainRequests().length;
    expect((await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: '2' } })).ok).toBe(true);
    await runner.waitForScreen('went on after the loop');
    expect(fake.mainRequests().length).toBeGreaterThan(before);
  }, 120_000);
});
