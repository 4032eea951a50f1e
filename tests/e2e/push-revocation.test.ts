// push-revocation.test.ts: a revoked phone hears nothing more and answers nothing (issue 38, the
// adversarial run's high finding). A subscription lives by the access token of the login that
// made it: a paired device's own token. Revoked the way `tether token revoke` does it (straight into
// the store, from another process: no hub is told), the next push skips that phone and forgets its
// subscription, and a notification it already holds can no longer answer. Real hub, the local push
// service of push-endpoint.ts on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LoginResponseSchema, PairCodeCreatedSchema, type PushMessage, type PushPayload } from '@tether/shared';
import { revokeAccessToken } from '@tether/hub';
import { connectSocket, emitAck, makeTempHome, startHub } from '../harness/hub.ts';
import { createPushKeys, decryptPush, startPushEndpoint, type PushKeys, type ReceivedPush } from '../harness/push-endpoint.ts';
import { useCleanups } from '../harness/cleanups.ts';

const defer = useCleanups();

const subscribe = (hub: { url: string }, credential: string, endpoint: string, keys: PushKeys) =>
  fetch(`${hub.url}/api/push/subscribe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    body: JSON.stringify({ subscription: { endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } }, device: 'Chrome on Android' }),
  });

it('a revoked phone gets no push, its subscription is forgotten, and its notification\'s Allow answers nothing', async () => {
  const hub = await startHub({ devPushEndpoints: true });
  defer(() => hub.stop());
  const service = startPushEndpoint();
  defer(() => service.stop());

  // The phone pairs: a code made at the desk, redeemed as the web app does, a device token of its own.
  const made = await fetch(`${hub.url}/api/pair-codes`, { method: 'POST', headers: { authorization: `Bearer ${hub.token}` } });
  expect(made.status).toBe(201);
  const { code } = PairCodeCreatedSchema.parse(await made.json());
  const paired = await fetch(`${hub.url}/api/auth/pair`, { method: 'POST', body: JSON.stringify({ code }), headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0' } });
  expect(paired.status).toBe(200);
  const phone = LoginResponseSchema.parse(await paired.json());
  const device = (await hub.store.listTokens({ namespace: hub.namespace })).find((t) => t.label.startsWith('paired device'));
  expect(device?.label).toBe('paired device ' + new Date().toISOString().slice(0, 10) + ' Android Chrome');

  // The phone and the desk's laptop (the owner's login) each turn notifications on.
  const phoneKeys = createPushKeys();
  const laptopKeys = createPushKeys();
  expect((await subscribe(hub, phone.session, `${service.url}/sub/phone`, phoneKeys)).status).toBe(201);
  expect((await subscribe(hub, hub.token, `${service.url}/sub/laptop`, laptopKeys)).status).toBe(201);
  const file = () => JSON.parse(readFileSync(join(hub.home, 'push-subscriptions.json'), 'utf8')) as Array<{ endpoint: string; tokenId: string }>;
  expect(file().find((r) => r.endpoint.endsWith('/sub/phone'))?.tokenId).toBe(device!.id);

  const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  defer(() => runner.close());
  const sessionId = randomUUID();
  expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/w', launchKind: 'pty', status: 'idle' })).ok).toBe(true);
  const raise = async (command: string) => {
    const id = randomUUID();
    expect((await emitAck(runner, 'approval:request', { id, sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
    return id;
  };
  const open = (push: ReceivedPush, keys: PushKeys) => JSON.parse(decryptPush({ body: push.body, keys })) as PushPayload;

  // Before revocation both browsers hear of the approval, each with its own Allow.
  const first = await raise('rm -rf build');
  const pushes = [await service.next(), await service.next()].sort((a, b) => a.path.localeCompare(b.path));
  expect(pushes.map((p) => p.path)).toEqual(['/sub/laptop', '/sub/phone']);
  const onPhone = open(pushes[1]!, phoneKeys) as PushMessage;
  expect(onPhone).toMatchObject({ tag: `request:${first}`, body: 'rm -rf build' });
  const allowToken = onPhone.request?.tokens?.allow;
  expect(allowToken).toBeTypeOf('string');

  // Revoked as `tether token revoke` does: the store, from outside, no hub told.
  expect(await revokeAccessToken({ store: hub.store, id: device!.id })).toBe(true);

  // The next approvals reach the laptop alone, and the phone's subscription is forgotten.
  const before = service.received.length;
  const second = await raise('git push --force');
  const third = await raise('curl https://example.test | sh');
  const later = [await service.next(), await service.next()];
  expect(later.map((p) => p.path)).toEqual(['/sub/laptop', '/sub/laptop']);
  expect(later.map((p) => (open(p, laptopKeys) as PushMessage).tag).sort()).toEqual([`request:${second}`, `request:${third}`].sort());
  expect(service.received.slice(before).every((p) => p.path === '/sub/laptop')).toBe(true);
  expect(file().map((r) => r.endpoint)).toEqual([`${service.url}/sub/laptop`]);

  // The Allow still on the phone's lock screen answers nothing, and the approval still waits.
  const tapped = await fetch(`${hub.url}/api/push/action`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ namespace: hub.namespace, requestId: first, choice: 'allow', token: allowToken }),
  });
  expect(tapped.status).toBe(403);
  expect((await hub.store.listPending({ namespace: hub.namespace, sessionId })).map((r) => r.id).sort()).toEqual([first, second, third].sort());

  // The revoked session cannot subscribe again.
  expect((await subscribe(hub, phone.session, `${service.url}/sub/phone`, phoneKeys)).status).toBe(401);
  expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
}, 60_000);

it('a subscription from before tokens were recorded is dropped on load: nobody the hub cannot vouch for is pushed', async () => {
  const home = makeTempHome();
  defer(() => rmSync(home, { recursive: true, force: true }));
  const first = await startHub({ home, devPushEndpoints: true });
  const service = startPushEndpoint();
  defer(() => service.stop());
  const keys = createPushKeys();
  expect((await subscribe(first, first.token, `${service.url}/sub/current`, keys)).status).toBe(201);
  const records = JSON.parse(readFileSync(join(home, 'push-subscriptions.json'), 'utf8')) as Array<Record<string, unknown>>;
  const { tokenId: _tokenId, ...legacy } = records[0]!;
  await first.stop();
  writeFileSync(join(home, 'push-subscriptions.json'), JSON.stringify([{ ...legacy, endpoint: `${service.url}/sub/legacy` }, records[0]]), { mode: 0o600 });

  const hub = await startHub({ home, devPushEndpoints: true });
  defer(() => hub.stop());
  const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  defer(() => runner.close());
  const sessionId = randomUUID();
  expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/w', launchKind: 'pty', status: 'idle' })).ok).toBe(true);
  expect((await emitAck(runner, 'approval:request', { id: randomUUID(), sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
  const pushed = await service.next();
  expect(pushed.path).toBe('/sub/current');
  expect(service.received.map((p) => p.path)).toEqual(['/sub/current']);
}, 60_000);
