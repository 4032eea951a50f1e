// web-push.test.ts: the hub pushes to a subscribed browser when an approval waits or a turn ends and
// no tab of that namespace is on screen. The push service is a local Bun.serve; each push is checked
// the way a browser and push service would: VAPID signature (RFC 8292), then the payload decrypted
// with the subscription's private key (RFC 8291). Then a notification's Allow/Deny: the token in
// the payload answers once, as that browser, and nothing else can.
//
//   runner ─approval:request / session:update─► hub ─(no visible tab)─► POST 127.0.0.1/sub/… ─► decrypt
//   POST /api/push/action {token} ─► runner: approval:answered ; answered elsewhere ─► {kind: close}
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { PushClose, PushMessage, PushPayload, Resolution } from '@tether/shared';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import { createPushKeys, decryptPush, startPushEndpoint, verifyVapid, type PushEndpoint, type PushKeys } from '../harness/push-endpoint.ts';

describe('web push', () => {
  let hub: HubHandle;
  let endpoint: PushEndpoint;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    hub = await startHub({ devPushEndpoints: true });
    endpoint = startPushEndpoint();
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await endpoint?.stop();
    await hub?.stop();
  });

  const api = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${hub.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });

  async function subscribe(token: string, path: string, keys: PushKeys, device?: string) {
    return api(token, '/api/push/subscribe', {
      method: 'POST',
      body: JSON.stringify({
        subscription: { endpoint: `${endpoint.url}${path}`, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } },
        ...(device ? { device } : {}),
      }),
    });
  }

  async function openPayload(options: { keys: PushKeys; publicKey: string }): Promise<{ message: PushPayload; path: string }> {
    const push = await endpoint.next();
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    verifyVapid({ authorization: push.headers.authorization!, publicKey: options.publicKey, endpoint: `${endpoint.url}${push.path}` });
    return { message: JSON.parse(decryptPush({ body: push.body, keys: options.keys })) as PushPayload, path: push.path };
  }
  const openPush = async (options: { keys: PushKeys; publicKey: string }) => {
    const opened = await openPayload(options);
    expect(opened.message.kind).not.toBe('close');
    return opened as { message: PushMessage; path: string };
  };

  it('VAPID keys are made once and kept; subscriptions are validated and namespace-scoped; pushes go only when no tab is visible', async () => {
    // The key is stable across requests and stored in TETHER_HOME.
    const vapid = (await (await api(hub.token, '/api/push/vapid')).json()) as { publicKey: string };
    expect(Buffer.from(vapid.publicKey, 'base64url')).toHaveLength(65);
    expect(existsSync(join(hub.home, 'vapid.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(hub.home, 'vapid.json'), 'utf8')).publicKey).toBe(vapid.publicKey);

    // Bad subscriptions are 400s with a reason; plain http off the loopback is refused.
    const keys = createPushKeys();
    const bad = await api(hub.token, '/api/push/subscribe', {
      method: 'POST',
      body: JSON.stringify({ subscription: { endpoint: 'http://push.example.net/x', keys: { p256dh: keys.p256dh, auth: keys.auth } } }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/endpoint/);
    expect((await api(hub.token, '/api/push/subscribe', { method: 'POST', body: '{"subscription":{}}' })).status).toBe(400);
    expect((await fetch(`${hub.url}/api/push/vapid`)).status).toBe(401);

    expect((await subscribe(hub.token, '/sub/mine', keys)).status).toBe(201);
    // Another namespace subscribes too; it must never hear about this one.
    const otherToken = await hub.createToken('push-other');
    const otherKeys = createPushKeys();
    expect((await subscribe(otherToken, '/sub/other', otherKeys)).status).toBe(201);
    // And cannot remove this namespace's subscription.
    const foreign = await api(otherToken, '/api/push/subscribe', { method: 'DELETE', body: JSON.stringify({ endpoint: `${endpoint.url}/sub/mine` }) });
    expect(foreign.status).toBe(404);

    const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
    sockets.push(runner);
    const sessionId = randomUUID();
    expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/home/dev/src/shop', launchKind: 'pty', title: 'Checkout fix', status: 'idle' })).ok).toBe(true);
    const request = (toolInput: Record<string, unknown>, kind: 'permission' | 'question' = 'permission') => ({
      id: randomUUID(),
      sessionId,
      kind,
      toolName: kind === 'question' ? 'AskUserQuestion' : 'Bash',
      toolInput,
      toolUseId: null,
      createdAt: Date.now(),
    });

    // 1. Nobody is looking: an approval waits → a push, signed and readable only with the keys.
    const first = request({ command: 'npm test -- --watch=false' });
    expect((await emitAck(runner, 'approval:request', first)).ok).toBe(true);
    const pushed = await openPush({ keys, publicKey: vapid.publicKey });
    expect(pushed.path).toBe('/sub/mine');
    expect(pushed.message).toEqual({
      title: 'Checkout fix: allow Bash?',
      body: 'npm test -- --watch=false',
      url: `/sessions/${sessionId}`,
      tag: `request:${first.id}`,
      sessionId,
      kind: 'approval',
      request: {
        namespace: hub.namespace,
        id: first.id,
        actions: [
          { action: 'allow', title: 'Allow' },
          { action: 'deny', title: 'Deny' },
        ],
        tokens: { allow: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), deny: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
      },
    });

    // 2. A tab is on screen: nothing is pushed for the next request. Then the tab goes to the
    //    background and the turn ends: the next push is the turn's end (so the request was skipped).
    const tab = await connectSocket({ url: hub.url, nsp: '/web', token: hub.token, device: 'phone' });
    sockets.push(tab);
    expect((await emitAck(tab, 'client:visibility', { visible: true })).ok).toBe(true);
    expect((await emitAck(runner, 'approval:request', request({ question: 'x' }, 'question'))).ok).toBe(true);
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { status: 'thinking' } })).ok).toBe(true);
    expect((await emitAck(tab, 'client:visibility', { visible: false })).ok).toBe(true);
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { status: 'idle' } })).ok).toBe(true);
    const ended = await openPush({ keys, publicKey: vapid.publicKey });
    expect(ended.message).toMatchObject({ kind: 'turn-ended', title: 'Checkout fix: Claude is done', url: `/sessions/${sessionId}` });

    // 3. A question while the only tab is hidden: pushed with the question's text.
    const question = request({ questions: [{ question: 'Which payment provider?', header: 'Provider', options: [], multiSelect: false }] }, 'question');
    expect((await emitAck(runner, 'approval:request', question)).ok).toBe(true);
    expect((await openPush({ keys, publicKey: vapid.publicKey })).message).toEqual(
      expect.objectContaining({ kind: 'question', body: 'Which payment provider?', request: { namespace: hub.namespace, id: question.id, actions: [{ action: 'open', title: 'Open' }] } }),
    );
    expect(endpoint.received.filter((p) => p.path === '/sub/other')).toEqual([]);

    // 4. The push service says the subscription is gone (410): the hub forgets it.
    endpoint.respondWith(410);
    expect((await emitAck(runner, 'approval:request', request({ command: 'ls' }))).ok).toBe(true);
    await endpoint.next();
    endpoint.respondWith(201);
    for (let i = 0; ; i++) {
      const subs = JSON.parse(readFileSync(join(hub.home, 'push-subscriptions.json'), 'utf8')) as Array<{ endpoint: string }>;
      if (!subs.some((s) => s.endpoint.endsWith('/sub/mine'))) break;
      if (i > 100) throw new Error('the gone subscription was not forgotten');
      await new Promise((r) => setTimeout(r, 20));
    }

    // 5. Unsubscribe is scoped and works for the owner.
    const mine = await api(otherToken, '/api/push/subscribe', { method: 'DELETE', body: JSON.stringify({ endpoint: `${endpoint.url}/sub/other` }) });
    expect(mine.status).toBe(200);
  });

  it("a notification's Allow/Deny answers once, as that browser; replays, wrong bindings and answered requests change nothing; answering elsewhere closes it", async () => {
    const vapid = (await (await api(hub.token, '/api/push/vapid')).json()) as { publicKey: string };
    const ns = 'push-actions';
    const token = await hub.createToken(ns, 'phone');
    const keys = createPushKeys();
    expect((await subscribe(token, '/sub/actions', keys, 'Chrome on Android')).status).toBe(201);
    const runner = await connectSocket({ url: hub.url, nsp: '/cli', token });
    sockets.push(runner);
    const answered: Array<{ requestId: string; answer: unknown }> = [];
    runner.on('approval:answered', (event: { requestId: string; answer: unknown }) => answered.push(event));
    const sessionId = randomUUID();
    expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/home/dev/src/api', launchKind: 'pty', title: 'API', status: 'idle' })).ok).toBe(true);
    const ask = async (toolName: string, toolInput: Record<string, unknown>) => {
      const request = { id: randomUUID(), sessionId, kind: 'permission', toolName, toolInput, toolUseId: null, createdAt: Date.now() };
      expect((await emitAck(runner, 'approval:request', request)).ok).toBe(true);
      const { message } = await openPush({ keys, publicKey: vapid.publicKey });
      expect(message.request?.id).toBe(request.id);
      return { id: request.id, tokens: message.request!.tokens! };
    };
    const act = (body: Record<string, unknown>) =>
      fetch(`${hub.url}/api/push/action`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const audit = async () => ((await (await api(token, `/api/sessions/${sessionId}`)).json()) as { audit: Resolution[] }).audit;

    // Allow, with no login: the runner hears the answer, the audit names the login and the browser.
    const edit = await ask('Edit', { file_path: '/home/dev/src/api/app.ts' });
    const allowed = await act({ namespace: ns, requestId: edit.id, choice: 'allow', token: edit.tokens.allow });
    expect(allowed.status).toBe(200);
    const resolution = ((await allowed.json()) as { resolution: Resolution }).resolution;
    expect(resolution).toMatchObject({ requestId: edit.id, outcome: 'answered', answer: { decision: 'allow' }, answeredBy: 'phone', device: 'notification@Chrome on Android' });
    await expect.poll(() => answered.find((a) => a.requestId === edit.id)).toEqual({ sessionId, requestId: edit.id, answer: { decision: 'allow' } });

    // Replayed, or the other button of the answered request: refused, nothing changed.
    expect((await act({ namespace: ns, requestId: edit.id, choice: 'allow', token: edit.tokens.allow })).status).toBe(403);
    expect((await act({ namespace: ns, requestId: edit.id, choice: 'deny', token: edit.tokens.deny })).status).toBe(403);
    expect((await audit()).filter((r) => r.requestId === edit.id)).toEqual([resolution]);

    // A token for another choice, request or namespace is refused and spent; bad bodies are 400s.
    const bash = await ask('Bash', { command: 'rm -rf dist' });
    expect((await act({ namespace: ns, requestId: bash.id, choice: 'deny', token: bash.tokens.allow })).status).toBe(403);
    expect((await act({ namespace: hub.namespace, requestId: bash.id, choice: 'deny', token: bash.tokens.deny })).status).toBe(403);
    expect((await act({ namespace: ns, requestId: bash.id, choice: 'deny', token: bash.tokens.deny })).status).toBe(403);
    // A well-formed choice the token was not minted for is one more mismatch; a malformed one is a bad body.
    expect((await act({ namespace: ns, requestId: bash.id, choice: 'option-1', token: bash.tokens.deny })).status).toBe(403);
    const badBody = await act({ namespace: ns, requestId: bash.id, choice: 'Maybe; rm -rf', token: bash.tokens.deny });
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { error: string }).error).toMatch(/choice/);
    expect((await act({ namespace: ns, requestId: bash.id, choice: 'deny' })).status).toBe(400);
    expect(answered.some((a) => a.requestId === bash.id)).toBe(false);
    expect((await audit()).some((r) => r.requestId === bash.id)).toBe(false);

    // Answered from the phone instead: the notification gets a close push (same tag), and its
    // tokens are refused afterwards with nothing changed.
    const tab = await connectSocket({ url: hub.url, nsp: '/web', token, device: 'Firefox on Linux' });
    sockets.push(tab);
    const write = await ask('Write', { file_path: '/home/dev/src/api/new.ts' });
    const fromTab = await emitAck<{ resolution: Resolution }>(tab, 'approval:answer', { requestId: write.id, answer: { decision: 'deny' } });
    if (!fromTab.ok) throw new Error(`the phone's answer failed: ${fromTab.error}`);
    const close = await openPayload({ keys, publicKey: vapid.publicKey });
    expect(close).toEqual({ message: { kind: 'close', tag: `request:${write.id}` } satisfies PushClose, path: '/sub/actions' });
    expect((await act({ namespace: ns, requestId: write.id, choice: 'allow', token: write.tokens.allow })).status).toBe(403);
    expect((await audit()).filter((r) => r.requestId === write.id)).toEqual([fromTab.resolution]);
    expect(fromTab.resolution).toMatchObject({ answer: { decision: 'deny' }, device: 'Firefox on Linux' });
    // The Bash request (its tokens all spent) still waits, and is answerable from the phone.
    expect((await emitAck(tab, 'approval:answer', { requestId: bash.id, answer: { decision: 'deny' } })).ok).toBe(true);
  });

  it('claude saying a person is needed pushes when no request covers it; an elicitation pushes with Open; a covered one adds nothing', async () => {
    const token = await hub.createToken('push-attention');
    const vapid = (await (await api(token, '/api/push/vapid')).json()) as { publicKey: string };
    const keys = createPushKeys();
    expect((await subscribe(token, '/sub/attention', keys)).status).toBe(201);
    const runner = await connectSocket({ url: hub.url, nsp: '/cli', token });
    sockets.push(runner);
    const sessionId = randomUUID();
    expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/home/dev/src/deploy', launchKind: 'pty', title: 'Deploy', status: 'thinking' })).ok).toBe(true);
    /** The next push to this test's browser (pushes to the first test's other endpoints may still arrive). */
    const next = async (): Promise<PushMessage> => {
      for (;;) {
        const push = await endpoint.next();
        if (push.path !== '/sub/attention') continue;
        verifyVapid({ authorization: push.headers.authorization!, publicKey: vapid.publicKey, endpoint: `${endpoint.url}${push.path}` });
        return JSON.parse(decryptPush({ body: push.body, keys })) as PushMessage;
      }
    };

    // 1. A background agent needs input (no request covers it): one push, replaced per session by its tag.
    expect((await emitAck(runner, 'session:attention', { sessionId, notificationType: 'agent_needs_input', message: 'reviewer needs your input' })).ok).toBe(true);
    expect(await next()).toEqual({ title: 'Deploy: Claude needs you', body: 'reviewer needs your input', url: `/sessions/${sessionId}`, tag: `attention:${sessionId}`, sessionId, kind: 'attention' });

    // 2. An MCP server's form: pushed as its own request, answered in the app (Open).
    const elicitation = {
      id: randomUUID(),
      sessionId,
      kind: 'elicitation',
      toolName: 'elicit',
      toolInput: { serverName: 'elicit', message: 'Who is deploying?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      toolUseId: null,
      createdAt: Date.now(),
    };
    expect((await emitAck(runner, 'approval:request', elicitation)).ok).toBe(true);
    expect(await next()).toMatchObject({ kind: 'elicitation', title: 'Deploy: elicit asks for input', body: 'Who is deploying?', request: { id: elicitation.id, actions: [{ action: 'open', title: 'Open' }] } });

    // 3. claude's own notification about that same wait adds no second push: the next one is the turn's end.
    expect((await emitAck(runner, 'session:attention', { sessionId, notificationType: 'elicitation_dialog', message: 'Claude Code needs your input' })).ok).toBe(true);
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { status: 'thinking' } })).ok).toBe(true);
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { status: 'idle' } })).ok).toBe(true);
    expect(await next()).toMatchObject({ kind: 'turn-ended' });

    // 4. A malformed or foreign attention is refused with a reason.
    expect(await emitAck(runner, 'session:attention', { sessionId, notificationType: '' })).toMatchObject({ ok: false });
    expect(await emitAck(runner, 'session:attention', { sessionId: randomUUID(), notificationType: 'agent_needs_input' })).toMatchObject({ ok: false, code: 'not_found' });
  });
});
