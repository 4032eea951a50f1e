// Several hubs behind one URL: two `tether hub` processes on one PostgreSQL database behind nginx.
// A runner on hub A and a phone on hub B: chat, an approval answered from B, a prompt delivered to the
// runner, a mode change; the session list and terminal reach B. Two phones on two hubs answering
// the same request at once leave exactly one answer and one audit entry.
import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@tether/shared';
import type { Resolution, Session } from '@tether/shared';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCluster, startClusterWithRunner } from '../harness/cluster.ts';
import { withClient } from '../harness/postgres-client.ts';
import { phoneFor } from '../harness/approvals.ts';
import { connectSocket, emitAck } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';

const defer = useCleanups();

/** The approvals harness's phone (it records approval events), stopped with the test. */
async function phoneOn(hub: { url: string; token: string }, sessionId: string) {
  const phone = await phoneFor(hub, sessionId);
  defer(() => phone.stop());
  return phone;
}

describe('several hubs behind one URL', () => {
  it('runner on hub A, phone on hub B: chat, approval, prompt delivery, mode change, session list, files, terminal', async () => {
    const { cluster, runner } = await startClusterWithRunner(defer, {
      script: [
        when(userSays(/hello from B/), text('hi, phone on B')),
        when(userSays(/make a file/), toolUse('Bash', { command: 'touch from-b.txt', description: 'make a file' })),
        when(hasToolResult({ isError: false }), text('file made')),
      ],
    });
    const phone = await phoneOn({ url: cluster.b.url, token: cluster.b.token }, runner.sessionId);
    // The runner is on A: its registration reached B's phone through the shared database, and its
    // idle report through the cluster (it may follow the desk's ready screen by a moment).
    expect(phone.session()).toMatchObject({ id: runner.sessionId });
    await phone.waitFor(() => phone.session()?.status === 'idle' || null, { what: 'the session idle on hub B' });

    // A prompt sent on B is delivered to the runner on A and answered; the chat comes back to B.
    const sent = await phone.send('hello from B');
    expect(sent.ok).toBe(true);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('hi, phone on B')), { what: 'the reply on hub B' });
    await phone.waitFor(() => phone.prompts().get(sent.promptId)?.status === 'delivered', { what: 'the prompt marked delivered' });

    // An approval asked on A is answered on B; the runner gets the answer and the tool runs.
    await phone.send('make a file');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'the Bash request on hub B' });
    const answered = await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    expect(answered.ok).toBe(true);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('file made')), { what: 'the turn after the approval' });
    await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id), { what: 'approval:resolved on hub B' });

    // A mode change from B reaches the runner on A, whose report comes back as session:updated.
    const mode = await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'acceptEdits' });
    expect(mode.ok).toBe(true);
    await phone.waitFor(() => phone.session()?.permissionMode === 'acceptEdits', { timeoutMs: 20_000, what: 'the mode change on hub B' });

    // The session list over REST answers the same through either hub and the balancer.
    for (const url of [cluster.a.url, cluster.b.url, cluster.front.url]) {
      const res = await fetch(`${url}/api/sessions`, { headers: { authorization: `Bearer ${cluster.front.token}` } });
      const body = (await res.json()) as { sessions: Session[] };
      expect(body.sessions.find((s) => s.id === runner.sessionId)?.permissionMode).toBe('acceptEdits');
    }

    // The session's files through B: hub B asks the runner on A through the cluster adapter and
    // forwards its answer (the file the approved command made, untracked).
    const files = await fetch(`${cluster.b.url}/api/sessions/${runner.sessionId}/files`, { headers: { authorization: `Bearer ${cluster.b.token}` } });
    expect(files.status).toBe(200);
    expect(((await files.json()) as { entries: Array<{ name: string }> }).entries.map((e) => e.name)).toContain('from-b.txt');

    // The terminal: a viewer on B gets the screen of the runner on A (over the terminal link, from A's byte log).
    const snapshot = new Promise<{ data: string }>((resolve) => phone.socket.once('terminal:snapshot', resolve));
    const subscribed = await phone.emit('terminal:subscribe', { sessionId: runner.sessionId });
    expect(subscribed).toMatchObject({ ok: true, mode: 'snapshot' });
    // The serialized screen may move the cursor over blank cells instead of writing spaces.
    const snapshotText = (await snapshot).data.replace(/\x1b\[(\d*)C/g, (_, n: string) => ' '.repeat(Number(n || 1)));
    expect(snapshotText).toContain('make a file');
    const typed = await phone.emit('terminal:input', { sessionId: runner.sessionId, data: 'typed on B' });
    expect(typed.ok).toBe(true);
    await runner.waitForScreen('typed on B');
    expect(phone.duplicates()).toBe(0);
  }, 120_000);

  it('two phones on two hubs answer at once: exactly one answer and one audit entry', async () => {
    const { cluster, runner } = await startClusterWithRunner(defer, {
      script: [when(userSays(/race/), toolUse('Bash', { command: 'touch raced.txt', description: 'race' })), when(hasToolResult({}), text('race over'))],
    });
    const onA = await phoneOn({ url: cluster.a.url, token: cluster.a.token }, runner.sessionId);
    const onB = await phoneOn({ url: cluster.b.url, token: cluster.b.token }, runner.sessionId);
    await onA.send('race');
    const request = await onA.waitFor(() => onA.requested.find((r) => r.toolName === 'Bash'), { what: 'the request on hub A' });
    await onB.waitFor(() => onB.requested.find((r) => r.id === request.id), { what: 'the request on hub B' });

    const [fromA, fromB] = await Promise.all([
      onA.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } }),
      onB.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'no' } }),
    ]);
    const wins = [fromA, fromB].filter((ack) => ack.ok);
    expect(wins).toHaveLength(1);
    expect([fromA, fromB].find((ack) => !ack.ok)).toMatchObject({ code: 'conflict', error: 'already answered' });
    const winner = fromA.ok ? 'allow' : 'deny';
    await onA.waitFor(() => onA.messages().find((m) => chatText(m).includes('race over')), { what: 'the turn after the answer' });
    // Both phones heard the same single resolution.
    for (const phone of [onA, onB]) {
      const heard = await phone.waitFor(() => phone.resolved.filter((r) => r.requestId === request.id).length > 0 && phone.resolved.filter((r) => r.requestId === request.id), { what: 'approval:resolved' });
      expect(heard).toHaveLength(1);
      expect(heard[0]!.answer).toMatchObject({ decision: winner });
    }
    const res = await fetch(`${cluster.front.url}/api/sessions/${runner.sessionId}`, { headers: { authorization: `Bearer ${cluster.front.token}` } });
    const audit = ((await res.json()) as { audit: Resolution[] }).audit.filter((a) => a.requestId === request.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ outcome: 'answered', answer: { decision: winner } });
  }, 120_000);

  it('the hub-to-hub terminal link takes only the cluster secret, checks every payload and the session', async () => {
    const cluster = await startCluster(defer);
    const link = (secret: unknown) =>
      new Promise<{ ok: true; socket: ReturnType<typeof io> } | { ok: false; error: string }>((resolve) => {
        const socket = io(`${cluster.a.url}/hub`, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { protocol: PROTOCOL_VERSION.major, link: secret } });
        socket.once('connect', () => resolve({ ok: true, socket }));
        socket.once('connect_error', (error) => {
          socket.close();
          resolve({ ok: false, error: error.message });
        });
      });
    expect(await link('x'.repeat(43))).toEqual({ ok: false, error: 'unauthorized' });
    expect(await link(undefined)).toEqual({ ok: false, error: 'unauthorized' });

    const { rows } = await withClient(cluster.databaseUrl, (db) => db.query<{ value: string }>(`SELECT value FROM tether_cluster_secrets WHERE name = 'hub-link'`));
    const linked = await link(rows[0]!.value);
    if (!linked.ok) throw new Error(linked.error);
    defer(() => linked.socket.close());
    expect(await emitAck(linked.socket as never, 'link:subscribe', { namespace: 'default', sessionId: 42 })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await emitAck(linked.socket as never, 'link:subscribe', { namespace: 'default', sessionId: crypto.randomUUID(), viewerId: 'v1', canWrite: true })).toMatchObject({ ok: false, code: 'not_found' });
    // A session of the default namespace named under another namespace is not found either.
    const runnerSocket = await connectSocket({ url: cluster.a.url, nsp: '/cli', token: cluster.a.token });
    defer(() => runnerSocket.close());
    const sessionId = crypto.randomUUID();
    const registered = await emitAck(runnerSocket, 'session:register', { id: sessionId, title: 't', cwd: '/tmp', launchKind: 'pty', status: 'idle' });
    expect(registered.ok).toBe(true);
    expect(await emitAck(linked.socket as never, 'link:subscribe', { namespace: 'other-team', sessionId, viewerId: 'v1', canWrite: true })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await emitAck(linked.socket as never, 'link:subscribe', { namespace: 'default', sessionId, viewerId: 'v1', canWrite: true })).toMatchObject({ ok: true, mode: 'snapshot' });
    // A viewer on hub B watches over the terminal link to A: the runner's snapshot reaches it, its input reaches the runner.
    const fromB = await connectSocket({ url: cluster.b.url, nsp: '/web', token: cluster.b.token });
    defer(() => fromB.close());
    const asked = new Promise((resolve) => runnerSocket.once('terminal:snapshot-request', resolve));
    const shown = new Promise<{ data: string }>((resolve) => fromB.once('terminal:snapshot', resolve));
    expect(await emitAck(fromB, 'terminal:subscribe', { sessionId })).toMatchObject({ ok: true, mode: 'snapshot' });
    await asked;
    expect((await emitAck(runnerSocket, 'terminal:snapshot', { sessionId, offset: 0, cols: 80, rows: 24, data: 'screen of A' })).ok).toBe(true);
    expect((await shown).data).toBe('screen of A');
    const typed = new Promise<{ data: string }>((resolve) => runnerSocket.once('terminal:input', resolve));
    expect((await emitAck(fromB, 'terminal:input', { sessionId, data: 'x' })).ok).toBe(true);
    expect((await typed).data).toBe('x');
  }, 60_000);

  it('a web login on one hub is good on the other; failed logins count per client behind the balancer', async () => {
    const cluster = await startCluster(defer);
    const login = (url: string, token: string, forwardedFor?: string) =>
      fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
        body: JSON.stringify({ token }),
      });
    // Through the balancer (hub A); the signing secret is the cluster's, so hub B takes the session.
    const res = await login(cluster.front.url, cluster.front.token);
    expect(res.status).toBe(200);
    const { session } = (await res.json()) as { session: string };
    const onB = await connectSocket({ url: cluster.b.url, nsp: '/web', token: session });
    onB.close();

    // A client cannot dodge the limit with a forged X-Forwarded-For: nginx appends the address it saw.
    for (let i = 0; i < 10; i++) expect((await login(cluster.front.url, 'tth_wrong', `203.0.113.${i}`)).status).toBe(401);
    expect((await login(cluster.front.url, 'tth_wrong', '203.0.113.99')).status).toBe(429);
    // Another client (as the proxy reports it) is not locked out by that one.
    expect((await login(cluster.a.url, 'tth_wrong', '198.51.100.7')).status).toBe(401);
  }, 60_000);

  it('a phone signed out on hub A loses its socket on hub B at once (the cluster tells; the sweep is an hour away)', async () => {
    const cluster = await startCluster(defer, { hubArgs: ['--revocation-check-seconds', '3600'] });
    const made = await fetch(`${cluster.a.url}/api/pair-codes`, { method: 'POST', headers: { authorization: `Bearer ${cluster.a.token}` } });
    const { code } = (await made.json()) as { code: string };
    const paired = await fetch(`${cluster.a.url}/api/auth/pair`, { method: 'POST', body: JSON.stringify({ code }), headers: { origin: cluster.a.url, 'content-type': 'application/json' } });
    expect(paired.status).toBe(200);
    const { session, renewable } = (await paired.json()) as { session: string; renewable?: boolean };
    expect(renewable).toBe(true);
    const cookie = /^tether_refresh=([^;]+)/.exec(paired.headers.getSetCookie().find((c) => c.startsWith('tether_refresh=')) ?? '')?.[1];
    expect(cookie).toBeDefined();
    const onB = await connectSocket({ url: cluster.b.url, nsp: '/web', token: session });
    defer(() => onB.close());
    const closed = new Promise<void>((resolve) => onB.once('disconnect', () => resolve()));
    // The refresh cookie renews through either hub (they share the database).
    expect((await fetch(`${cluster.b.url}/api/auth/refresh`, { method: 'POST', headers: { cookie: `tether_refresh=${cookie}` } })).status).toBe(200);
    const out = await fetch(`${cluster.a.url}/api/auth/refresh`, { method: 'DELETE', headers: { authorization: `Bearer ${session}` } });
    expect(out.status).toBe(200);
    await closed;
    expect((await fetch(`${cluster.b.url}/api/sessions`, { headers: { authorization: `Bearer ${session}` } })).status).toBe(401);
  }, 60_000);

  it('a viewer waiting on hub B while the runner is away moves to hub A when the runner registers there', async () => {
    const cluster = await startCluster(defer);
    const sessionId = crypto.randomUUID();
    const registration = { id: sessionId, title: 't', cwd: '/tmp', launchKind: 'pty', status: 'idle' };
    const first = await connectSocket({ url: cluster.a.url, nsp: '/cli', token: cluster.a.token });
    expect((await emitAck(first, 'session:register', registration)).ok).toBe(true);
    first.close();
    // The runner is gone (it will reconnect): a viewer on B subscribes and waits there.
    const viewer = await connectSocket({ url: cluster.b.url, nsp: '/web', token: cluster.b.token });
    defer(() => viewer.close());
    expect(await emitAck(viewer, 'terminal:subscribe', { sessionId })).toMatchObject({ ok: true, mode: 'snapshot' });
    // The runner is back, on A: B hears it, links the viewer to A, whose room asks for a snapshot.
    const runner = await connectSocket({ url: cluster.a.url, nsp: '/cli', token: cluster.a.token });
    defer(() => runner.close());
    const asked = new Promise((resolve) => runner.on('terminal:snapshot-request', resolve));
    const viewers = new Promise<{ count: number }>((resolve) => runner.on('terminal:viewers', (v: { count: number }) => v.count > 0 && resolve(v)));
    expect((await emitAck(runner, 'session:register', registration)).ok).toBe(true);
    await asked;
    expect((await viewers).count).toBe(1);
    const shown = new Promise<{ data: string }>((resolve) => viewer.once('terminal:snapshot', resolve));
    expect((await emitAck(runner, 'terminal:snapshot', { sessionId, offset: 0, cols: 80, rows: 24, data: 'back on A' })).ok).toBe(true);
    expect((await shown).data).toBe('back on A');
    const bytes = new Promise<{ offset: number }>((resolve) => viewer.once('terminal:output', resolve));
    expect((await emitAck(runner, 'terminal:output', { sessionId, offset: 0, data: new TextEncoder().encode('hi') })).ok).toBe(true);
    expect((await bytes).offset).toBe(0);
  }, 60_000);
});
