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

  it('a web shell on hub B runs on a machine whose daemon is on hub A', async () => {
    const fake = await startFakeAnthropic({ script: [] });
    defer(() => fake.stop());
    const cluster = await startCluster(defer, { hubArgs: ['--enable-shell'] });
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const daemon = await startDaemon({ hub: { url: cluster.a.url, token: cluster.a.token }, sandbox, args: ['--allow-shell'], env: { SHELL: '/bin/sh' } });
    defer(() => daemon.stop());
    const viewer = await connectSocket({ url: cluster.b.url, nsp: '/web', token: cluster.b.token });
    defer(() => viewer.close());
    let printed = '';
    const decoder = new TextDecoder();
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => pattern.test(printed) && (viewer.off('shell:output', check), resolve());
        viewer.on('shell:output', check);
        check();
      });
    viewer.on('shell:output', (p: { data: ArrayBuffer | Uint8Array; reset?: boolean }) => {
      if (p.reset) printed = '';
      printed += decoder.decode(p.data instanceof Uint8Array ? p.data : new Uint8Array(p.data));
    });
    const opened = await emitAck<{ shellId: string }>(viewer, 'shell:open', { machineId: daemon.machineId(), viewerId: crypto.randomUUID().replace(/-/g, ''), cols: 80, rows: 24, cwd: sandbox.cwd });
    expect(opened).toMatchObject({ ok: true, reattached: false });
    const shellId = (opened as { shellId: string }).shellId;
    expect((await emitAck(viewer, 'shell:input', { shellId, data: 'echo across-$((40+2))\r' })).ok).toBe(true);
    await seen(/across-42/);
    const exited = new Promise<{ reason: string }>((resolve) => viewer.once('shell:exit', resolve));
    expect((await emitAck(viewer, 'shell:close', { shellId })).ok).toBe(true);
    await exited;
  }, 120_000);
});
