// push-endpoints.test.ts: which push endpoints a hub accepts and sends to (issue 19, findings 4
// and 5). A production hub refuses, at subscribe time, anything it must not POST to on its own; a
// subscription that got into the file anyway (an older hub) never keeps another browser from its
// pushes. Real hubs, the local push service of push-endpoint.ts on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { PushPayload } from '@tether/shared';
import { connectSocket, emitAck, makeTempHome, startHub } from '../harness/hub.ts';
import { createPushKeys, decryptPush, startPushEndpoint } from '../harness/push-endpoint.ts';
import { useCleanups } from '../harness/cleanups.ts';

const defer = useCleanups();

const subscribe = (hub: { url: string; token: string }, endpoint: string, keys: { p256dh: string; auth: string }) =>
  fetch(`${hub.url}/api/push/subscribe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ subscription: { endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } } }),
  });

it('a production hub refuses loopback, private, link-local, unparsable and plain-http endpoints when subscribing', async () => {
  const hub = await startHub();
  defer(() => hub.stop());
  const listener = startPushEndpoint();
  defer(() => listener.stop());
  const keys = createPushKeys();
  const refused = [
    'http://[::1]:99999/',
    `${listener.url}/internal/admin/anything?x=1`,
    'https://127.0.0.1/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://2130706433/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fe80::1]/x',
    'https://10.1.2.3/x',
    'https://172.20.0.1/x',
    'https://192.168.1.2/x',
    'https://100.64.0.1/x',
    'https://localhost:8443/x',
    'https://printer.local/x',
    'https://user:pw@fcm.googleapis.com/x',
    'http://push.example.net/x',
  ];
  for (const endpoint of refused) {
    const res = await subscribe(hub, endpoint, keys);
    expect(res.status, endpoint).toBe(400);
    expect(((await res.json()) as { error: string }).error, endpoint).toMatch(/endpoint/);
  }
  expect(existsSync(join(hub.home, 'push-subscriptions.json')), 'nothing was stored').toBe(false);

  // An approval waiting with nobody looking: the hub has nowhere to push, the listener hears nothing.
  const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  defer(() => runner.close());
  const sessionId = randomUUID();
  expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/w', launchKind: 'pty', status: 'idle' })).ok).toBe(true);
  expect((await emitAck(runner, 'approval:request', { id: randomUUID(), sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
  expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
  expect(listener.received).toEqual([]);

  // A real push service's endpoint is taken.
  expect((await subscribe(hub, 'https://fcm.googleapis.com/fcm/send/abc:def', keys)).status).toBe(201);
});

it('one subscription the sender cannot use never keeps the others from their pushes, nor their close', async () => {
  // A subscription an older hub accepted (new URL() rejects it: port 99999) sits in the file first.
  const home = makeTempHome();
  defer(() => rmSync(home, { recursive: true, force: true }));
  const stale = createPushKeys();
  // It names a live token (a record naming none is dropped on load, push-revocation.test.ts).
  const earlier = await startHub({ home });
  const tokenId = (await earlier.store.listTokens({}))[0]!.id;
  await earlier.stop();
  writeFileSync(
    join(home, 'push-subscriptions.json'),
    JSON.stringify([{ namespace: 'default', endpoint: 'http://[::1]:99999/', p256dh: stale.p256dh, auth: stale.auth, createdAt: 1, tokenId }]),
    { mode: 0o600 },
  );
  const hub = await startHub({ home, devPushEndpoints: true });
  defer(() => hub.stop());
  const endpoint = startPushEndpoint();
  defer(() => endpoint.stop());
  const keys = createPushKeys();
  expect((await subscribe(hub, 'http://[::1]:99999/', keys)).status, 'refused even in development').toBe(400);
  expect((await subscribe(hub, `${endpoint.url}/sub/good`, keys)).status).toBe(201);
  expect(JSON.parse(readFileSync(join(home, 'push-subscriptions.json'), 'utf8'))).toHaveLength(2);

  const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  defer(() => runner.close());
  const web = await connectSocket({ url: hub.url, nsp: '/web', token: hub.token });
  defer(() => web.close());
  const sessionId = randomUUID();
  const requestId = randomUUID();
  expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/w', launchKind: 'pty', status: 'idle' })).ok).toBe(true);
  expect((await emitAck(runner, 'approval:request', { id: requestId, sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
  const open = (body: Buffer) => JSON.parse(decryptPush({ body, keys })) as PushPayload;
  const pushed = await endpoint.next();
  expect(pushed.path).toBe('/sub/good');
  expect(open(pushed.body)).toMatchObject({ tag: `request:${requestId}`, kind: 'approval' });
  // Answered in the app: the close push reaches the good browser although the stale one cannot be parsed.
  expect((await emitAck(web, 'approval:answer', { requestId, answer: { decision: 'allow' } })).ok).toBe(true);
  const closed = await endpoint.next();
  expect(open(closed.body)).toEqual({ kind: 'close', tag: `request:${requestId}` });
  expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
});
