// `tether claude -c` / `--continue` continues the same tether session: claude picks the session to
// continue, SessionStart (source resume) names it, and the runner's resume state maps it to the
// tether session, so the hub has one session whose chat goes on without duplicates.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SIDE_REPLY_TITLE, startFakeAnthropic, text, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startHub } from '../harness/hub.ts';
import { chatText, startRunner, watchSession } from '../harness/runner.ts';

const DESK_READY = /❯\s*\n─+\n\s+\? for shortcuts/;

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn();
  cleanups = [];
});

describe('continue', () => {
  for (const flag of ['-c', '--continue']) {
    it(`tether claude ${flag} reuses the tether session of the continued claude session`, async () => {
      const fake = await startFakeAnthropic({
        script: [when(userSays(/first question/), text('first answer')), when(userSays(/second question/), text('second answer'))],
      });
      cleanups.push(() => fake.stop());
      const hub = await startHub();
      cleanups.push(() => hub.stop());
      const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
      cleanups.push(() => sandbox.stop());
      const home = mkdtempSync(join(tmpdir(), 'tether-continue-home-'));
      cleanups.push(() => rmSync(home, { recursive: true, force: true }));

      const first = startRunner({ hub, sandbox, home });
      cleanups.push(() => first.stop());
      const phone = await watchSession({ hub, sessionId: first.sessionId });
      cleanups.push(() => phone.stop());
      await first.waitForScreen(DESK_READY);
      await phone.send('first question');
      await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('first answer')), { what: 'first answer' });
      const claudeId = phone.session()!.claudeSessionId!;
      await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the first answer' });
      await first.waitForScreen(DESK_READY);
      first.write('\x03');
      await first.waitForScreen(/Ctrl-C again/);
      first.write('\x03');
      expect(await first.exited).toBe(0);
      await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
      const before = phone.messages().map((m) => m.id);

      // A different TETHER_SESSION_ID: only SessionStart + the resume state can lead it back.
      const second = startRunner({ hub, sandbox, home, args: [flag] });
      cleanups.push(() => second.stop());
      expect(second.sessionId).not.toBe(first.sessionId);
      await second.waitForScreen(DESK_READY);
      await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'same session live again' });
      // The title claude gave the session survives the new runner's registration.
      expect(phone.session()?.title).toBe(SIDE_REPLY_TITLE);
      expect((await phone.send('second question')).ok).toBe(true);
      await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('second answer')), { what: 'second answer' });

      const after = phone.messages();
      expect(after.slice(0, before.length).map((m) => m.id)).toEqual(before);
      expect(after.filter((m) => m.role === 'user').map(chatText)).toEqual(['first question', 'second question']);
      expect(phone.duplicates()).toBe(0);
      expect(phone.session()?.claudeSessionId).toBe(claudeId);
      expect(hub.store.listSessions({ namespace: hub.namespace }).map((s) => s.id)).toEqual([first.sessionId]);
    }, 60_000);
  }
});
