// opencode's TUI in a PTY started from the phone (`tether daemon`): the hub's session record carries
// opencode's own session id (`ses_…`, told by the bridge's session-start); End ends it; Resume starts
// `opencode --session <id>` on the daemon, the same tether session goes live with the same id, and the
// conversation continues: the fake API sees the earlier turn in the next request. The real opencode
// (1.18.33: its TUI with its own server; the floor's, 1.17.0, `opencode attach` to a server tether
// starts, which takes no model of tether's: one asked for is refused with the reason, none asked for
// runs with its config's) against the fake chat completions API.
import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { text, userSays, when } from '../fixtures/fake-chat-completions/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck } from '../harness/hub.ts';
import { opencodeBin } from '../harness/opencode.ts';
import { startOpencodeDaemonWorld } from '../harness/opencode-world.ts';
import { chatText, type SessionWatch } from '../harness/runner.ts';
import { tuiRoute } from '../../cli/src/agents/opencode/pty.ts';
import { opencodeVersions } from '../../cli/src/agents/opencode/version.ts';

const defer = useCleanups();
/** opencode's start and each turn take tens of seconds on a loaded 2-core machine (up to 190 s seen at load 20). */
const STEP_MS = 240_000;
/** The hub acks a resume once the session is ready: its TUI drawn (seconds; tens at load). */
const RESUME_ACK_MS = 120_000;
/** The floor's TUI is `opencode attach`, which takes no model of tether's (pty.ts). */
const attached = tuiRoute(opencodeVersions.read(opencodeBin(), { timeoutMs: 60_000 })) === 'attach';

const said = (watch: SessionWatch, role: 'user' | 'assistant', words: string) => () => watch.messages().find((m) => m.role === role && chatText(m).includes(words));

describe('opencode in a PTY from the phone', () => {
  it('the hub learns its session id; End ends it; Resume continues the same conversation (at the floor: a model asked for refused, with the reason)', async () => {
    const { fake, phone, spawn } = await startOpencodeDaemonWorld(defer, {
      script: [when(userSays('first question'), text('first answer')), when(userSays('second question'), text('second answer'))],
    });
    if (attached) await expect(spawn({ launchKind: 'pty' })).rejects.toThrow(/runs under tether as `opencode attach`, which takes --session only \(not --model\)/);
    const { sessionId, watch } = await spawn({ launchKind: 'pty', ...(attached ? { model: null } : {}) });
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
