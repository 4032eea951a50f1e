// A past `gemini -p` conversation (the real Gemini CLI against the fake Gemini API), found by `tether
// daemon --outside` from its saved session, listed per folder, and adopted: a new tether session loads
// it with its history (the next request at the fake API carries the earlier turns).
import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { startFakeGemini, text } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, geminiBin } from '../harness/gemini.ts';
import { emitAck, startHub } from '../harness/hub.ts';
import { startDaemon } from '../harness/daemon.ts';
import { chatText, watchSession } from '../harness/runner.ts';
import { connectPhone } from '../harness/world.ts';
import { runOutsideTether, waitFound } from '../harness/outside.ts';

const defer = useCleanups();

describe('found conversations: Gemini', () => {
  it('a gemini -p conversation is listed from its saved session and, adopted, goes on with its history', { timeout: 180_000 }, async () => {
    const fake = await startFakeGemini({ script: [text('past gemini answer'), text('adopted gemini answer')] });
    defer(() => fake.stop());
    const hub = await startHub();
    defer(() => hub.stop());
    const sandbox = createGeminiSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    await runOutsideTether({ defer, argv: [geminiBin(), '-m', FAKE_GEMINI_MODEL, '-p', 'past gemini question'], cwd: sandbox.cwd, env: sandbox.env });

    const daemon = await startDaemon({ hub, sandbox, env: { TETHER_GEMINI_BIN: geminiBin() }, args: ['--outside'] });
    defer(() => daemon.stop());
    const machineId = daemon.machineId();
    const phone = await connectPhone(defer, hub);
    const found = await waitFound({ hubUrl: hub.url, token: hub.token, machineId, match: (s) => s.agent === 'gemini' && !s.live });
    expect(found).toMatchObject({ agent: 'gemini', folder: sandbox.cwd, title: 'past gemini question' });

    const ack = await emitAck<{ session: Session }>(phone, 'outside:adopt', { agentSessionId: found.agentSessionId }, 60_000);
    expect(ack).toMatchObject({ ok: true, session: { agent: 'gemini', cwd: sandbox.cwd } });
    const session = (ack as { session: Session }).session;
    const watch = await watchSession({ hub, sessionId: session.id });
    defer(() => watch.stop());
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'past gemini answer'), { what: 'the earlier answer in the chat' });
    await watch.send('next gemini question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'adopted gemini answer'), { what: 'the adopted session answers' });
    const last = JSON.stringify(fake.mainRequests().at(-1));
    expect(last).toContain('past gemini question');
    expect(last).toContain('past gemini answer');
  });
});
