// auth.test.ts: tokens and web sessions end to end. Revocation (by `tether token revoke`, a separate
// process writing the hub's DB) is seen on the next REST request and the next socket (re)connect,
// including web sessions bought with the token; failed logins, bearers and handshakes are rate-limited
// (never the right token); another protocol
// major is refused with a message that says what to do.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PROTOCOL_VERSION, protocolMismatch } from '@tether/shared';
import { connectSocket, startHub, type HubHandle } from '../harness/hub.ts';
import { runTether } from '../harness/tether-cli.ts';


let hub: HubHandle;
beforeEach(async () => {
  hub = await startHub();
});
afterEach(async () => {
  await hub.stop();
});

const tether = (args: string[]) => runTether({ args, env: { TETHER_HOME: hub.home } });

const get = (path: string, credential: string) => fetch(hub.url + path, { headers: { authorization: `Bearer ${credential}` } });
const login = (token: string) => fetch(`${hub.url}/api/auth/login`, { method: 'POST', body: JSON.stringify({ token }) });

async function createWithCli(namespace: string): Promise<{ id: string; token: string }> {
  const created = await tether(['token', 'create', '--namespace', namespace, '--label', 'e2e', '--json']);
  expect(created.code, created.stderr).toBe(0);
  return JSON.parse(created.stdout) as { id: string; token: string };
}

it('a token revoked by `tether token revoke` is refused on the next request and the next socket reconnect', async () => {
  const { id, token } = await createWithCli('team');
  expect((await get('/api/sessions', token)).status).toBe(200);
  const socket = await connectSocket({ url: hub.url, nsp: '/cli', token, reconnection: true });
  try {
    const revoked = await tether(['token', 'revoke', id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${id}`);

    expect((await get('/api/sessions', token)).status).toBe(401);

    // Drop the transport: socket.io reconnects on its own, and the handshake must now fail.
    const refused = new Promise<Error>((done) => socket.once('connect_error', done));
    socket.io.engine.close();
    expect((await refused).message).toBe('unauthorized');
    await expect(connectSocket({ url: hub.url, nsp: '/web', token })).rejects.toThrow('unauthorized');

    const again = await tether(['token', 'revoke', id]);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
  } finally {
    socket.close();
  }
});

it('a web session dies with the token that bought it', async () => {
  const { id, token } = await createWithCli('team');
  const res = await login(token);
  expect(res.status).toBe(200);
  const { session, namespace } = (await res.json()) as { session: string; namespace: string };
  expect(namespace).toBe('team');
  expect((await get('/api/sessions', session)).status).toBe(200);
  const web = await connectSocket({ url: hub.url, nsp: '/web', token: session });
  web.close();
  await expect(connectSocket({ url: hub.url, nsp: '/cli', token: session }), 'a web session is not a runner credential').rejects.toThrow('unauthorized');

  expect((await tether(['token', 'revoke', id])).code).toBe(0);
  expect((await get('/api/sessions', session)).status).toBe(401);
  await expect(connectSocket({ url: hub.url, nsp: '/web', token: session })).rejects.toThrow('unauthorized');
  expect((await login(token)).status).toBe(401);
});

it('rate-limits failed logins from one address with Retry-After; the right token still logs in', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await login(`tth_wrong${'x'.repeat(30)}${i}`)).status);
  expect(statuses).toEqual(Array(10).fill(401));
  const limited = await login('tth_wrongagainwrongagainwrongagain');
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
  // Everyone on loopback (or behind a proxy without --trust-proxy) shares one address: the owner's
  // token must not be locked out by someone else's guesses.
  expect((await login(hub.token)).status).toBe(200);
  expect((await get('/api/sessions', hub.token)).status).toBe(200);
  // Wrong bearers and wrong socket handshakes from that address count the same way.
  expect((await get('/api/sessions', 'tth_wrongbearerwrongbearerwrongbearer')).status).toBe(429);
  await expect(connectSocket({ url: hub.url, nsp: '/cli', token: 'tth_wrongsocketwrongsocketwrong' })).rejects.toThrow(/too many failed attempts/);
  (await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token })).close();
});

it('drops a live socket whose token is revoked, without waiting for it to reconnect', async () => {
  const quick = await startHub({ revocationCheckMs: 50 });
  try {
    const token = await quick.createToken('team');
    const web = await connectSocket({ url: quick.url, nsp: '/web', token });
    const dropped = new Promise<string>((done) => web.once('disconnect', (reason) => done(reason)));
    const id = (await quick.store.listTokens({ namespace: 'team' }))[0]!.id;
    await quick.store.revokeToken({ id, at: Date.now() });
    expect(await dropped).toBe('io server disconnect');
  } finally {
    await quick.stop();
  }
});

it('refuses another protocol major with the clear message on both namespaces', async () => {
  for (const nsp of ['/cli', '/web'] as const) {
    for (const major of [PROTOCOL_VERSION.major + 1, PROTOCOL_VERSION.major - 1]) {
      const error = await connectSocket({ url: hub.url, nsp, token: hub.token, protocol: major }).then(
        () => null,
        (e: Error & { data?: { code?: string } }) => e,
      );
      expect(error?.message).toBe(protocolMismatch(major));
      expect(error?.data?.code).toBe('protocol_mismatch');
    }
  }
  const ok = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  ok.close();
});
