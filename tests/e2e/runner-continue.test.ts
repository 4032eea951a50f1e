// `tether claude -c` / `--continue` continues the same tether session: claude picks the session to
// continue, SessionStart (source resume) names it, and the runner's resume state maps it to the
// tether session, so the hub has one session whose chat goes on without duplicates.
import { describe, expect, it } from 'vitest';
import { text, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { quitWithCtrlC } from '../harness/desk.ts';
import { chatText } from '../harness/runner.ts';
import { DESK_READY, firstAnsweredTurn, startStage } from '../harness/world.ts';

const defer = useCleanups();

describe('continue', () => {
  for (const flag of ['-c', '--continue']) {
    it(`tether claude ${flag} reuses the tether session of the continued claude session`, async () => {
      const { hub, startRunner, startWatch, tempDir } = await startStage(defer, {
        script: [when(userSays(/first question/), text('first answer')), when(userSays(/second question/), text('second answer'))],
      });
      const home = tempDir('tether-continue-home-');

      const { first, phone, claudeId } = await firstAnsweredTurn({ startRunner, startWatch }, home);
      await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the first answer' });
      await first.waitForScreen(DESK_READY);
      expect(await quitWithCtrlC(first)).toBe(0);
      await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
      const before = phone.messages().map((m) => m.id);
      const titleBefore = phone.session()?.title;
      expect(titleBefore).toBeTruthy();

      // A different TETHER_SESSION_ID: only SessionStart + the resume state can lead it back.
      const second = startRunner({ home, args: [flag] });
      expect(second.sessionId).not.toBe(first.sessionId);
      await second.waitForScreen(DESK_READY);
      await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'same session live again' });
      // The session's title (claude's ai-title, or the first prompt where claude gave none) survives
      // the new runner's registration.
      expect(phone.session()?.title).toBe(titleBefore);
      expect((await phone.send('second question')).ok).toBe(true);
      await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('second answer')), { what: 'second answer' });

      const after = phone.messages();
      expect(after.slice(0, before.length).map((m) => m.id)).toEqual(before);
      expect(after.filter((m) => m.role === 'user').map(chatText)).toEqual(['first question', 'second question']);
      expect(phone.duplicates()).toBe(0);
      expect(phone.session()?.agentSessionId).toBe(claudeId);
      expect((await hub.store.listSessions({ namespace: hub.namespace })).map((s) => s.id)).toEqual([first.sessionId]);
    }, 60_000);
  }
});
