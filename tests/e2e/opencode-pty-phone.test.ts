// opencode's TUI in a PTY started from the phone (`tether daemon`): the hub's session record carries
// opencode's own session id (`ses_…`, told by the bridge's session-start); End ends it; Resume starts
// `opencode --session <id>` on the daemon, the same tether session goes live with the same id, and the
// conversation continues: the fake API sees the earlier turn in the next request. The real opencode
// (1.18.33: its TUI runs under tether from there; the floor's is refused, tests/e2e/opencode-pty.test.ts)
// against the fake chat completions API.
import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { text, userSays, when } from '../fixtures/fake-chat-completions/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck } from '../harness/hub.ts';
import { opencodeBin } from '../harness/opencode.ts';
import { startOpencodeDaemonWorld } from '../harness/opencode-world.ts';
import { chatText, type SessionWatch } from '../harness/runner.ts';
import { ptyRefusal } from '../../cli/src/agents/opencode/pty.ts';
import { opencodeVersions } from '../../cli/src/agents/opencode/version.ts';

const defer = useCleanups();
/** opencode's start and each turn take tens of seconds on a loaded 2-core machine (up to 190 s seen at load 20). */
const STEP_MS = 240_000;
/** The hub acks a resume once the session is ready: its TUI drawn (seconds; tens at load). */
const RESUME_ACK_MS = 120_000;
const floor = ptyRefusal(opencodeVersions.read(opencodeBin(), { timeoutMs: 60_000 })) !== null;

const said = (watch: SessionWatch, role: 'user' | 'assistant', words: string) => () => watch.messages().find((m) => m.role === role && chatText(m).includes(words));

describe('opencode in a PTY from the phone', () => {
  it('the hub learns its session id; End ends it; Resume continues the same conversation (at the floor: refused, with the reason)', async () => {
    const { fake, phone, spawn } = await startOpencodeDaemonWorld(defer, {
      script: [when(userSays('first question'), text('first answer')), when(userSays('second question'), text('second answer'))],
    });
    if (floor) return void (await expect(spawn({ launchKind: 'pty' })).rejects.toThrow(/does not send the server password/));
    const { sessionId, watch } = await spawn({ launchKind: 'pty' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
    expect(watch.session()).toMatchObject({ agent: 'opencode', launchKind: 'pty' });

    await watch.send('first question');
    await watch.waitFor(said(watch, 'assistant', 'first answer'), { what: 'the first answer', timeoutMs: STEP_MS });
    const agentSessionId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: "opencode's session id on the hub", timeoutMs: STEP_MS });
    expect(agentSessionId).toMatch(/^ses_[A-Za-z0-9]+$/);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn', timeoutMs: STEP_MS });

    const ended = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, 60_000);
    expect(ended.ok && ended.session.status).toBe('ended');

    const resumed = await emitAck<{ session: Session }>(phone, 'session:resume', { sessionId }, RESUME_ACK_MS);
    expect(resumed.ok).toBe(true);
    // Known before its TUI names it again: the resumed launch's `--session <id>`.
    expect(resumed.ok && resumed.session).toMatchObject({ id: sessionId, launchKind: 'pty', agentSessionId });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the resume', timeoutMs: STEP_MS });
    await watch.send('second question');
    await watch.waitFor(said(watch, 'assistant', 'second answer'), { what: 'the answer after the resume', timeoutMs: STEP_MS });
    // The same conversation: its model read the earlier turn.
    const last = JSON.stringify(fake.mainRequests().at(-1)?.messages);
    expect(last).toContain('first question');
    expect(last).toContain('first answer');
    expect(watch.session()?.agentSessionId).toBe(agentSessionId);
    expect(watch.messages().map(chatText).filter((t) => t)).toEqual(['first question', 'first answer', 'second question', 'second answer']);
    expect(watch.duplicates()).toBe(0);
    await emitAck(phone, 'session:stop', { sessionId }, 60_000);
  }, 1_200_000);
});
