// web-push.test.ts: the hub pushes to a subscribed browser when an approval waits or a turn ends and
// no tab of that namespace is on screen. The push service is a local Bun.serve; each push is checked
// the way a browser and push service would: VAPID signature (RFC 8292), then the payload decrypted
// with the subscription's private key (RFC 8291).
//
//   runner ─approval:request / session:update─► hub ─(no visible tab)─► POST 127.0.0.1/sub/… ─► decrypt
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { PushMessage } from '@tether/shared';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import { createPushKeys, decryptPush, startPushEndpoint, verifyVapid, type PushEndpoint, type PushKeys } from '../harness/push-endpoint.ts';

describe('web push', () => {
  let hub: HubHandle;
  let endpoint: PushEndpoint;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    hub = await startHub();
    endpoint = startPushEndpoint();
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await endpoint?.stop();
    await hub?.stop();
  });

  const api = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${hub.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });

  async function subscribe(token: string, path: string, keys: PushKeys) {
    return api(token, '/api/push/subscribe', {
      method: 'POST',
      body: JSON.stringify({ subscription: { endpoint: `${endpoint.url}${path}`, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } } }),
    });
  }

  async function openPush(options: { keys: PushKeys; publicKey: string }): Promise<{ message: PushMessage; path: string }> {
    const push = await endpoint.next();
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    verifyVapid({ authorization: push.headers.authorization!, publicKey: options.publicKey, endpoint: `${endpoint.url}${push.path}` });
    return { message: JSON.parse(decryptPush({ body: push.body, keys: options.keys })) as PushMessage, path: push.path };
  }

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
    expect((await openPush({ keys, publicKey: vapid.publicKey })).message).toMatchObject({ kind: 'question', body: 'Which payment provider?' });
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
});
