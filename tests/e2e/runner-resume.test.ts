// `tether claude --resume <id>` continues the same tether session: the chat goes on where it was,
// nothing from the first run is sent again as new, and the new turn lands after the old ones.
import { describe, expect, it } from 'vitest';
import { text, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { quitWithCtrlC } from '../harness/desk.ts';
import { chatText } from '../harness/runner.ts';
import { DESK_READY, startStage } from '../harness/world.ts';

const defer = useCleanups();

describe('resume', () => {
  it('tether claude --resume <id> continues the same chat without duplicates', async () => {
    const { startRunner, startWatch, tempDir } = await startStage(defer, {
      script: [when(userSays(/first question/), text('first answer')), when(userSays(/second question/), text('second answer'))],
    });
    const home = tempDir('tether-resume-home-');

    const first = startRunner({ home });
    const phone = await startWatch(first.sessionId);
    await first.waitForScreen(DESK_READY);
    await phone.send('first question');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('first answer')), { what: 'first answer' });
    const claudeId = phone.session()!.claudeSessionId!;
    expect(claudeId).toBeTruthy();
    // Ctrl-C during the turn would interrupt it instead of exiting: wait for the turn to end.
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the first answer' });
    await first.waitForScreen(DESK_READY);
    expect(await quitWithCtrlC(first)).toBe(0);
    await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
    const before = phone.messages().map((m) => m.id);

    const second = startRunner({ home, args: ['--resume', claudeId], sessionId: first.sessionId });
    await second.waitForScreen(DESK_READY);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'same session live again' });
    const sent = await phone.send('second question');
    expect(sent.ok).toBe(true);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('second answer')), { what: 'second answer' });
    const after = phone.messages();
    expect(after.slice(0, before.length).map((m) => m.id)).toEqual(before);
    expect(after.filter((m) => m.role === 'user').map(chatText)).toEqual(['first question', 'second question']);
    expect(new Set(after.map((m) => m.id)).size).toBe(after.length);
    expect(phone.duplicates()).toBe(0);
    expect(phone.session()?.claudeSessionId).toBe(claudeId);
  }, 60_000);
});
