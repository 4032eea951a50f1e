// Several hubs behind one URL with a daemon: the daemon is connected to hub A, the phone to hub B.
// A session started from B is acked once ready (the runner registers on A; B hears it through the
// cluster), chats through B, and is stopped from B (the runner on A is told, B's wait settles).
import { describe, expect, it } from 'vitest';
import type { Machine, Session } from '@tether/shared';
import { startFakeAnthropic, text } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCluster } from '../harness/cluster.ts';
import { spawnVia, startDaemon } from '../harness/daemon.ts';
import { connectSocket, emitAck } from '../harness/hub.ts';
import { chatText, watchSession } from '../harness/runner.ts';

const defer = useCleanups();

describe('several hubs: a daemon on hub A, a phone on hub B', () => {
  it('spawns, chats and stops a session across hubs', async () => {
    const fake = await startFakeAnthropic({ script: [text('spawned across hubs')] });
    defer(() => fake.stop());
    const cluster = await startCluster(defer);
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const daemon = await startDaemon({ hub: { url: cluster.a.url, token: cluster.a.token }, sandbox });
    defer(() => daemon.stop());
    const phone = await connectSocket({ url: cluster.b.url, nsp: '/web', token: cluster.b.token });
    defer(() => phone.close());

    const res = await fetch(`${cluster.b.url}/api/machines`, { headers: { authorization: `Bearer ${cluster.b.token}` } });
    expect(((await res.json()) as { machines: Machine[] }).machines).toEqual([expect.objectContaining({ id: daemon.machineId(), online: true })]);

    const ack = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd });
    expect(ack.error).toBeUndefined();
    expect(ack.session).toMatchObject({ status: 'idle', machineId: daemon.machineId() });

    const watch = await watchSession({ hub: { url: cluster.b.url, token: cluster.b.token }, sessionId: ack.session!.id });
    defer(() => watch.stop());
    expect((await watch.send('hello across hubs')).ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => chatText(m).includes('spawned across hubs')), { what: 'the reply', timeoutMs: 30_000 });

    const stop = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId: ack.session!.id }, 30_000);
    expect(stop).toMatchObject({ ok: true, session: { status: 'ended' } });
  }, 120_000);
});
