// A Codex session started from the phone on a machine running `tether daemon`: the daemon reports
// the agents it found installed (claude and Codex here), the phone asks for Codex in a PTY, the
// session is ready and answers, and it ends from the phone. (Headless Codex: codex-headless.test.ts.)
import { describe, expect, it } from 'vitest';
import type { Machine, Session } from '@tether/shared';
import { lastUserText, text } from '../fixtures/fake-openai/index.ts';
import { startFakeOpenAI } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { codexBin, createCodexSandbox } from '../harness/codex.ts';
import { startDaemon } from '../harness/daemon.ts';
import { emitAck, startHub } from '../harness/hub.ts';
import { chatText, watchSession } from '../harness/runner.ts';
import { connectPhone } from '../harness/world.ts';

const defer = useCleanups();
const SPAWN_ACK_MS = 60_000;

describe('Codex from the phone', () => {
  it('the daemon lists Codex; a PTY Codex session starts from the phone, answers, and ends from it', async () => {
    const fake = await startFakeOpenAI({ script: [(request) => text(`codex from afar: ${lastUserText(request)}`)] });
    defer(() => fake.stop());
    const hub = await startHub();
    defer(() => hub.stop());
    const sandbox = createCodexSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const daemon = await startDaemon({ hub, sandbox, env: { TETHER_CODEX_BIN: codexBin() } });
    defer(() => daemon.stop());
    const phone = await connectPhone(defer, hub);

    const listed = (await (await fetch(`${hub.url}/api/machines`, { headers: { authorization: `Bearer ${hub.token}` } })).json()) as { machines: Machine[] };
    expect(listed.machines.find((m) => m.id === daemon.machineId())?.agents).toEqual(['claude', 'codex']);

    const ack = await emitAck<{ session: Session }>(phone, 'session:spawn', { machineId: daemon.machineId(), cwd: sandbox.cwd, agent: 'codex', launchKind: 'pty' }, SPAWN_ACK_MS);
    expect(ack.ok).toBe(true);
    const session = ack.ok ? ack.session : null;
    expect(session).toMatchObject({ agent: 'codex', launchKind: 'pty', machineId: daemon.machineId() });
    const watch = await watchSession({ hub, sessionId: session!.id });
    defer(() => watch.stop());
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
    await watch.send('hello over there');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'codex from afar: hello over there'), { what: 'the reply' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn' });
    expect((await emitAck(phone, 'session:stop', { sessionId: session!.id }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
  }, 90_000);
});
