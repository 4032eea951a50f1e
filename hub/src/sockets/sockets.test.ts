// sockets.test.ts: /cli and /web handlers against a real hub on port 0 with real socket.io clients,
// checking both the ack and what other clients receive.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-sockets-', label: 'phone-token' });
const { connect, ack, next } = live;
const msg = (id: string, text = id) => ({ id, role: 'assistant', content: [{ type: 'text', text }], createdAt: 1 });
const register = (s: Socket, id: string) => live.register(s, { id });

describe('handshake', () => {
  it('refuses a bad handshake, a bad token and another protocol major with clear errors', async () => {
    await expect(connect({ nsp: '/cli', auth: { nope: 1 } })).rejects.toThrow(/bad handshake/);
    await expect(connect({ nsp: '/cli', token: 'tth_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).rejects.toThrow('unauthorized');
    await expect(
      connect({ nsp: '/web', auth: { protocol: PROTOCOL_VERSION.major + 1, client: 'web', token: live.accessToken } }),
    ).rejects.toThrow(/protocol version mismatch: client speaks v3, hub speaks v2/);
    // A runner of protocol 1 (claudeSessionId, no capabilities) is refused with the same words.
    await expect(connect({ nsp: '/cli', auth: { protocol: 1, client: 'runner', token: live.accessToken } })).rejects.toThrow(/protocol version mismatch: client speaks v1, hub speaks v2/);
  });
});

describe('/cli → /web', () => {
  it('limits failed handshakes per address like failed logins; the right token still connects (issue 19, finding 3)', async () => {
    const errors: string[] = [];
    for (let i = 0; i <= 10; i++) {
      const failed = await connect({ nsp: '/cli', token: `tth_wrong${'x'.repeat(34)}${i % 10}` }).catch((error: Error & { data?: { code?: string } }) => error);
      errors.push((failed as Error & { data?: { code?: string } }).data?.code ?? 'connected');
    }
    expect(errors).toEqual([...Array(10).fill('unauthorized'), 'rate_limited']);
    expect((await connect({ nsp: '/cli' })).connected).toBe(true);
    expect((await connect({ nsp: '/web' })).connected).toBe(true);
  });

  it('registers, appends idempotently, broadcasts to watchers, keeps seq across re-register', async () => {
    const runner = await connect({ nsp: '/cli' });
    const web = await connect({ nsp: '/web' });
    const sid = randomUUID();
    const updated = next<{ id: string }>(web, 'session:updated');
    expect(await register(runner, sid)).toMatchObject({ ok: true, session: { id: sid, status: 'starting' } });
    expect((await updated).id).toBe(sid);
    expect(await ack(web, 'session:watch', { sessionId: sid })).toMatchObject({ ok: true, messages: [], more: false, pending: [] });
    const added = next<{ messages: { id: string; seq: number }[] }>(web, 'message:added');
    expect(await ack(runner, 'message:append', { sessionId: sid, messages: [msg('a'), msg('b')] })).toEqual({ ok: true, added: 2, lastSeq: 2 });
    expect((await added).messages.map((m) => [m.id, m.seq])).toEqual([['a', 1], ['b', 2]]);
    expect(await ack(runner, 'message:append', { sessionId: sid, messages: [msg('b')] })).toEqual({ ok: true, added: 0, lastSeq: 2 });
    runner.close();
    const again = await connect({ nsp: '/cli' });
    expect(await register(again, sid)).toMatchObject({ ok: true, session: { lastSeq: 2 } });
    expect(await ack(again, 'message:append', { sessionId: sid, messages: [msg('c')] })).toEqual({ ok: true, added: 1, lastSeq: 3 });
    const watch = await ack<{ messages: { seq: number }[] }>(web, 'session:watch', { sessionId: sid, afterSeq: 1 });
    expect(watch.ok && watch.messages.map((m) => m.seq)).toEqual([2, 3]);
  });

  it('keeps a session alive when its runner disconnects; session:end ends it and withdraws pending', async () => {
    const { runner, web, sid } = await live.runnerWithTab();
    const rid = randomUUID();
    const requested = next<{ id: string }>(web, 'approval:requested');
    expect(await ack(runner, 'approval:request', { id: rid, sessionId: sid, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: Date.now() })).toEqual({ ok: true });
    expect((await requested).id).toBe(rid);
    expect((await live.hub.store.getSession({ namespace: 'alpha', sessionId: sid }))?.pendingCount).toBe(1);
    runner.close();
    await new Promise<void>((resolve) => web.emit('session:watch', { sessionId: sid }, () => resolve()));
    expect(await live.hub.store.getSession({ namespace: 'alpha', sessionId: sid })).toMatchObject({ status: 'starting', pendingCount: 1 });
    const back = await connect({ nsp: '/cli' });
    await register(back, sid);
    const resolved = next<{ requestId: string; outcome: string }>(web, 'approval:resolved');
    expect(await ack(back, 'session:end', { sessionId: sid, status: 'ended', exitCode: 0 })).toMatchObject({ ok: true, session: { status: 'ended' } });
    expect(await resolved).toMatchObject({ requestId: rid, outcome: 'withdrawn' });
  });

  it('a runner\'s token usage reaches the tabs as the session; a usage the shared schema refuses is bad_request and stores nothing', async () => {
    const { runner, web, sid } = await live.runnerWithTab();
    const usage = { inputTokens: 5675, cachedInputTokens: 0, outputTokens: 44, contextTokens: 1980, contextWindow: null };
    const updated = next<{ id: string; usage: unknown }>(web, 'session:updated');
    expect(await ack(runner, 'session:update', { sessionId: sid, patch: { usage } })).toMatchObject({ ok: true, session: { usage } });
    expect((await updated).usage).toEqual(usage);
    for (const bad of [
      { ...usage, inputTokens: -1 },
      { ...usage, outputTokens: 1.5 },
      { ...usage, cachedInputTokens: 6000 },
      { ...usage, inputTokens: 2e12 },
      { ...usage, contextWindow: 0 },
      { ...usage, extra: 1 },
      null,
    ]) {
      expect(await ack(runner, 'session:update', { sessionId: sid, patch: { usage: bad } })).toMatchObject({ ok: false, code: 'bad_request' });
    }
    expect(await live.hub.store.getSession({ namespace: 'alpha', sessionId: sid })).toMatchObject({ usage });
  });

  it('republishes a finished command (set or kept) to the tabs of its namespace only; refuses a session the runner does not own and bad input', async () => {
    const otherToken = await live.token('beta');
    const runner = await connect({ nsp: '/cli' });
    const mine = await connect({ nsp: '/web' });
    const theirs = await connect({ nsp: '/web', token: otherToken });
    const stranger = await connect({ nsp: '/cli', token: otherToken });
    let leaked = false;
    theirs.on('session:command-finished', () => (leaked = true));
    const sid = randomUUID();
    await register(runner, sid);
    const heard = next(mine, 'session:command-finished');
    const finished = { sessionId: sid, command: '/model', args: 'sonnet', outcome: 'kept' };
    expect(await ack(runner, 'session:command-finished', finished)).toEqual({ ok: true });
    expect(await heard).toEqual(finished);
    // Another namespace's runner cannot speak for this session; nothing reaches any tab.
    expect(await ack(stranger, 'session:command-finished', { ...finished, outcome: 'applied' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await ack(runner, 'session:command-finished', { ...finished, outcome: 'maybe' })).toMatchObject({ ok: false, code: 'bad_request' });
    await ack(theirs, 'session:unwatch', { sessionId: randomUUID() });
    expect(leaked).toBe(false);
  });

  it('sends session:updated only to the namespace it belongs to', async () => {
    const otherToken = await live.token('beta');
    const runner = await connect({ nsp: '/cli' });
    const mine = await connect({ nsp: '/web' });
    const theirs = await connect({ nsp: '/web', token: otherToken });
    let leaked = false;
    theirs.on('session:updated', () => (leaked = true));
    const got = next(mine, 'session:updated');
    await register(runner, randomUUID());
    await got;
    // A round trip on `theirs` after the broadcast: anything sent to it would have arrived by now.
    await ack(theirs, 'session:unwatch', { sessionId: randomUUID() });
    expect(leaked).toBe(false);
  });

});

describe('/cli → /web: terminals and machines', () => {
  it('streams a snapshot then bytes to a subscribed viewer and tells the runner how many watch', async () => {
    const runner = await connect({ nsp: '/cli' });
    const web = await connect({ nsp: '/web' });
    const sid = randomUUID();
    const initial = next<{ count: number }>(runner, 'terminal:viewers');
    await register(runner, sid);
    // A registering runner is told right away how many watch (none yet).
    expect((await initial).count).toBe(0);
    const viewers = next<{ count: number }>(runner, 'terminal:viewers');
    const snapshotRequest = next(runner, 'terminal:snapshot-request');
    expect(await ack(web, 'terminal:subscribe', { sessionId: sid })).toMatchObject({ ok: true });
    expect((await viewers).count).toBe(1);
    await snapshotRequest;
    const snapshot = next<{ offset: number; data: string }>(web, 'terminal:snapshot');
    expect(await ack(runner, 'terminal:snapshot', { sessionId: sid, offset: 10, cols: 80, rows: 24, data: 'screen' })).toEqual({ ok: true });
    expect(await snapshot).toMatchObject({ offset: 10, data: 'screen' });
    const output = next<{ offset: number; data: ArrayBuffer }>(web, 'terminal:output');
    expect(await ack(runner, 'terminal:output', { sessionId: sid, offset: 10, data: Buffer.from('hello') })).toEqual({ ok: true });
    const got = await output;
    expect(got.offset).toBe(10);
    expect(Buffer.from(got.data).toString()).toBe('hello');
    const input = next<{ data: string }>(runner, 'terminal:input');
    await ack(web, 'terminal:input', { sessionId: sid, data: 'ls\r' });
    expect((await input).data).toBe('ls\r');
    const gone = next<{ count: number }>(runner, 'terminal:viewers');
    web.close();
    expect((await gone).count).toBe(0);
  });

  it('refuses a subscribed viewer\'s keys once the session ended (keys skip the store lookup only while the room is live)', async () => {
    const { runner, web, sid } = await live.runnerWithTab();
    expect(await ack(web, 'terminal:subscribe', { sessionId: sid })).toMatchObject({ ok: true });
    const input = next<{ data: string }>(runner, 'terminal:input');
    expect(await ack(web, 'terminal:input', { sessionId: sid, data: 'a' })).toEqual({ ok: true });
    expect((await input).data).toBe('a');
    expect(await ack(runner, 'session:end', { sessionId: sid, status: 'ended', exitCode: 0 })).toMatchObject({ ok: true });
    expect(await ack(web, 'terminal:input', { sessionId: sid, data: 'b' })).toMatchObject({ ok: false, code: 'gone' });
  });

  it('registers machines and marks them offline when the daemon leaves', async () => {
    const daemon = await connect({ nsp: '/cli' });
    const web = await connect({ nsp: '/web' });
    const id = randomUUID();
    const online = next<{ online: boolean }>(web, 'machine:updated');
    expect(await ack(daemon, 'machine:register', { id, name: 'desk', os: 'linux', user: 'me', home: '/home/me' })).toEqual({ ok: true });
    expect((await online).online).toBe(true);
    const offline = next<{ online: boolean }>(web, 'machine:updated');
    daemon.close();
    expect((await offline).online).toBe(false);
  });
});

describe('/web → /cli', () => {
  it('queues prompts, delivers them to the runner, and re-delivers queued ones on re-register', async () => {
    const { runner, web, sid } = await live.runnerWithTab();
    const pid = randomUUID();
    const deliver = next<{ promptId: string; text: string }>(runner, 'prompt:deliver');
    const updated = next<{ status: string }>(web, 'prompt:updated');
    expect(await ack(web, 'prompt:send', { sessionId: sid, promptId: pid, text: 'hello\nworld' })).toMatchObject({
      ok: true,
      prompt: { id: pid, status: 'queued' },
    });
    expect(await deliver).toMatchObject({ promptId: pid, text: 'hello\nworld' });
    expect((await updated).status).toBe('queued');
    runner.close();
    const back = await connect({ nsp: '/cli' });
    const redeliver = next<{ promptId: string }>(back, 'prompt:deliver');
    await register(back, sid);
    expect((await redeliver).promptId).toBe(pid);
    const delivered = next<{ status: string }>(web, 'prompt:updated');
    expect(await ack(back, 'prompt:status', { sessionId: sid, promptId: pid, status: 'delivered' })).toEqual({ ok: true });
    expect((await delivered).status).toBe('delivered');
  });

  it('lets the first answer win, forwards it to the runner, and records who and from where', async () => {
    const runner = await connect({ nsp: '/cli' });
    const phone = await connect({ nsp: '/web', device: 'Pixel 8' });
    const laptop = await connect({ nsp: '/web', device: 'laptop' });
    const sid = randomUUID();
    await register(runner, sid);
    const rid = randomUUID();
    await ack(runner, 'approval:request', { id: rid, sessionId: sid, kind: 'permission', toolName: 'Bash', toolInput: {}, toolUseId: 'tu', createdAt: Date.now() - 1000 });
    const answered = next<{ requestId: string; answer: { decision: string } }>(runner, 'approval:answered');
    const resolvedElsewhere = next<{ answeredBy: string; device: string }>(laptop, 'approval:resolved');
    const [a, b] = await Promise.all([
      ack(phone, 'approval:answer', { requestId: rid, answer: { decision: 'allow' } }),
      ack(laptop, 'approval:answer', { requestId: rid, answer: { decision: 'deny' } }),
    ]);
    const wins = [a, b].filter((r) => r.ok);
    const losses = [a, b].filter((r) => !r.ok);
    expect(wins).toHaveLength(1);
    expect(losses[0]).toMatchObject({ ok: false, code: 'conflict', error: 'already answered' });
    expect((await answered).requestId).toBe(rid);
    const resolution = await resolvedElsewhere;
    expect(resolution.answeredBy).toBe('phone-token');
    expect(['Pixel 8', 'laptop']).toContain(resolution.device);
    expect((wins[0] as unknown as { resolution: { waitedMs: number } }).resolution.waitedMs).toBeGreaterThanOrEqual(1000);
  });

  it('hands an answer given while the runner was away back when it re-sends the request', async () => {
    const { runner, web, sid } = await live.runnerWithTab();
    const request = { id: randomUUID(), sessionId: sid, kind: 'permission', toolName: 'Bash', toolInput: {}, toolUseId: null, createdAt: Date.now() };
    await ack(runner, 'approval:request', request);
    runner.close();
    expect(await ack(web, 'approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).toMatchObject({ ok: true });
    const back = await connect({ nsp: '/cli' });
    await register(back, sid);
    const answered = next<{ answer: { decision: string } }>(back, 'approval:answered');
    expect(await ack(back, 'approval:request', request)).toEqual({ ok: true });
    expect((await answered).answer.decision).toBe('allow');
  });
});

describe('handle.ts', () => {
  it('answers bad payloads and unknown events, tolerates a missing ack, and keeps serving', async () => {
    const runner = await connect({ nsp: '/cli' });
    expect(await ack(runner, 'session:register', { id: 'x' })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await ack(runner, 'session:register')).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await ack(runner, 'no:such', {})).toMatchObject({ ok: false, code: 'bad_request', error: 'unknown event "no:such"' });
    runner.emit('message:append', { sessionId: randomUUID(), messages: [msg('a')] });
    runner.emit('error', {});
    runner.emit('__proto__', {});
    expect(await register(runner, randomUUID())).toMatchObject({ ok: true });
  });
});

describe('share links on /web', () => {
  it("a share viewer's session:watch gives what the REST share view gives: no pending requests or their toolInput (issue 19, finding 6)", async () => {
    const runner = await connect({ nsp: '/cli' });
    const id = randomUUID();
    expect((await register(runner, id)).ok).toBe(true);
    expect((await ack(runner, 'message:append', { sessionId: id, messages: [msg('m1', 'visible text')] })).ok).toBe(true);
    const toolInput = { command: 'curl -H "Authorization: Bearer sk-secret-value" https://internal' };
    expect((await ack(runner, 'approval:request', { id: randomUUID(), sessionId: id, kind: 'permission', toolName: 'Bash', toolInput, toolUseId: null, createdAt: 1 })).ok).toBe(true);
    const made = (await (await fetch(`${live.hub.url}/api/sessions/${id}/share`, { method: 'POST', headers: { authorization: `Bearer ${live.accessToken}` }, body: '{}' })).json()) as { token: string };
    const rest = (await (await fetch(`${live.hub.url}/api/share/${made.token}`)).json()) as Record<string, unknown>;

    const owner = await connect({ nsp: '/web' });
    expect(((await ack(owner, 'session:watch', { sessionId: id })).pending as unknown[]).length).toBe(1);
    const viewer = await connect({ nsp: '/web', token: made.token });
    const watched = await ack(viewer, 'session:watch', { sessionId: id });
    expect(watched.ok).toBe(true);
    expect(watched.pending).toEqual([]);
    expect(JSON.stringify(watched)).not.toContain('sk-secret-value');
    expect(JSON.stringify(rest)).not.toContain('sk-secret-value');
    expect({ session: watched.session, messages: watched.messages, more: watched.more }).toEqual({ session: rest.session, messages: rest.messages, more: rest.more });
  });
});
