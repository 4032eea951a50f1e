// Several hubs behind one URL, one of them dies: hub A is SIGKILLed while claude waits on an
// approval mid-turn. The runner reconnects through nginx to hub B, the phone on B answers the
// approval that was asked on A, the turn finishes, and the chat holds every message once. A
// terminal viewer on B (over the terminal link to A until then) gets a fresh snapshot from B.
import { describe, expect, it } from 'vitest';
import type { PendingRequest, Resolution } from '@tether/shared';
import { hasToolResult, reply, streamedText, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startClusterWithRunner } from '../harness/cluster.ts';
import { chatText, watchSession } from '../harness/runner.ts';

const defer = useCleanups();

describe('a hub of several dies', () => {
  it('hub A SIGKILLed mid-turn: the runner moves to hub B, the pending approval is answered there, nothing is lost or duplicated', async () => {
    const { cluster, runner } = await startClusterWithRunner(defer, {
      script: [
        when(userSays(/go/), reply(text('Working on it.'), toolUse('Bash', { command: 'touch after-failover.txt', description: 'make a file' }))),
        when(hasToolResult({ isError: false }), streamedText(['Made ', 'the ', 'file.'], { gapMs: 200 })),
        when(userSays(/still there/), text('still here, on hub B')),
      ],
    });

    const phone = await watchSession({ hub: { url: cluster.b.url, token: cluster.b.token }, sessionId: runner.sessionId });
    defer(() => phone.stop());
    const requested: PendingRequest[] = [];
    const resolved: Resolution[] = [];
    const snapshots: Array<{ at: number; data: string }> = [];
    phone.socket.on('approval:requested', (r: PendingRequest) => (requested.push(r), phone.changed()));
    phone.socket.on('approval:resolved', (r: Resolution) => (resolved.push(r), phone.changed()));
    phone.socket.on('terminal:snapshot', (s: { data: string }) => (snapshots.push({ at: Date.now(), data: s.data }), phone.changed()));

    // A viewer on B, linked to the runner's hub A.
    expect(await phone.emit('terminal:subscribe', { sessionId: runner.sessionId })).toMatchObject({ ok: true, mode: 'snapshot' });
    await phone.waitFor(() => snapshots.length > 0, { what: 'the first snapshot, over the link from hub A' });

    const sent = await phone.send('go');
    expect(sent.ok).toBe(true);
    const request = await phone.waitFor(() => requested.find((r) => r.toolName === 'Bash'), { what: 'the Bash request, asked on hub A' });
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('Working on it.')), { what: 'the text before the tool call' });

    // Mid-turn: claude waits on the approval. Hub A dies without a word.
    const before = snapshots.length;
    const killedAt = Date.now();
    await cluster.a.kill('SIGKILL');

    // The runner comes back through the balancer (A is down, so B); the viewer on B is sent a fresh
    // snapshot once it has (B asks the runner for one as it registers).
    try {
      await phone.waitFor(() => snapshots.length > before, { timeoutMs: 30_000, what: 'a snapshot from hub B after the failover' });
    } catch (e) {
      const { readFileSync } = await import('node:fs');
      console.log('HUB B', cluster.b.output().slice(-3000));
      console.log('RUNNER', readFileSync(`${runner.home}/logs/runner.log`, 'utf8').slice(-3000));
      throw e;
    }
    const reconnectMs = Date.now() - killedAt;
    console.log(`multi-hub failover: runner back on hub B and the viewer resnapshotted ${reconnectMs} ms after hub A was killed`);

    // The approval asked on A is still pending, and answered on B.
    const answered = await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    expect(answered).toMatchObject({ ok: true });
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('Made the file.')), { what: 'the rest of the turn after the answer' });
    await runner.waitForScreen('Made the file.');
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the turn' });
    expect((await phone.send('still there?')).ok).toBe(true);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('still here, on hub B')), { what: 'a reply after the failover' });

    const messages = phone.messages();
    expect(messages.filter((m) => m.role === 'user' && chatText(m).length > 0).map(chatText)).toEqual(['go', 'still there?']);
    for (const line of ['Working on it.', 'Made the file.', 'still here, on hub B']) expect(messages.filter((m) => chatText(m).includes(line))).toHaveLength(1);
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    const seqs = messages.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(phone.duplicates()).toBe(0);
    expect(resolved.filter((r) => r.requestId === request.id)).toHaveLength(1);
    const res = await fetch(`${cluster.front.url}/api/sessions/${runner.sessionId}`, { headers: { authorization: `Bearer ${cluster.front.token}` } });
    expect(((await res.json()) as { audit: Resolution[] }).audit.filter((a) => a.requestId === request.id)).toMatchObject([{ outcome: 'answered', answer: { decision: 'allow' } }]);
    // The latest snapshot (from B) shows the screen as it is now.
    const typed = await phone.emit('terminal:input', { sessionId: runner.sessionId, data: 'typed after failover' });
    expect(typed.ok).toBe(true);
    await runner.waitForScreen('typed after failover');
  }, 120_000);
});
