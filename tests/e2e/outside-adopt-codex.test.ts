// A past `codex exec` conversation (the real Codex against the fake Responses API), found by `tether
// daemon --outside` from its rollout, listed per folder, and adopted: a new tether session resumes
// the thread with its history (the next request at the fake API carries the earlier turns).
import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { text } from '../fixtures/fake-openai/index.ts';
import { startFakeOpenAI } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { codexBin, createCodexSandbox } from '../harness/codex.ts';
import { emitAck, startHub } from '../harness/hub.ts';
import { startDaemon } from '../harness/daemon.ts';
import { chatText, watchSession } from '../harness/runner.ts';
import { connectPhone } from '../harness/world.ts';
import { runOutsideTether, waitFound } from '../harness/outside.ts';

const defer = useCleanups();

describe('found conversations: Codex', () => {
  it('a codex exec conversation is listed from its rollout and, adopted, goes on with its history', { timeout: 180_000 }, async () => {
    const fake = await startFakeOpenAI({ script: [text('past codex answer'), text('adopted codex answer')] });
    defer(() => fake.stop());
    const hub = await startHub();
    defer(() => hub.stop());
    const sandbox = createCodexSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    await runOutsideTether({ defer, argv: [codexBin(), 'exec', '--skip-git-repo-check', 'past codex question'], cwd: sandbox.cwd, env: sandbox.env });

    const daemon = await startDaemon({ hub, sandbox, env: { TETHER_CODEX_BIN: codexBin() }, args: ['--outside'] });
    defer(() => daemon.stop());
    const machineId = daemon.machineId();
    const phone = await connectPhone(defer, hub);
    const found = await waitFound({ hubUrl: hub.url, token: hub.token, machineId, match: (s) => s.agent === 'codex' && !s.live });
    expect(found).toMatchObject({ agent: 'codex', folder: sandbox.cwd, title: 'past codex question' });

    // Codex has no fork: refused with the reason its capabilities state, nothing started.
    expect(await emitAck(phone, 'outside:adopt', { agentSessionId: found.agentSessionId, fork: true }, 60_000)).toMatchObject({ ok: false, reason: 'not_resumable', error: expect.stringContaining('Codex has no fork') });
    const ack = await emitAck<{ session: Session }>(phone, 'outside:adopt', { agentSessionId: found.agentSessionId }, 60_000);
    expect(ack).toMatchObject({ ok: true, session: { agent: 'codex', cwd: sandbox.cwd, agentSessionId: found.agentSessionId } });
    const session = (ack as { session: Session }).session;
    const watch = await watchSession({ hub, sessionId: session.id });
    defer(() => watch.stop());
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'past codex answer'), { what: 'the earlier answer in the chat' });
    await watch.send('next codex question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'adopted codex answer'), { what: 'the adopted session answers' });
    const last = JSON.stringify(fake.mainRequests().at(-1));
    expect(last).toContain('past codex question');
    expect(last).toContain('past codex answer');
  });
});
