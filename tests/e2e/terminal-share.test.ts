// terminal-share.test.ts: read-only share links against a real hub and a real runner. A link lets
// its holder watch one session's terminal and chat, nothing else; revoked or expired links are
// refused over REST and at the socket handshake, and a revoked link's live socket is dropped.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import { startCommandRunner, viewTerminal, type CommandRunner } from '../harness/terminal.ts';
import { readFileSync } from 'node:fs';
import { hubPaths } from '@tether/hub';
import { createShareLinks } from '../../hub/src/auth/share-links.ts';
import { useFileCleanups } from '../harness/cleanups.ts';

let hub: HubHandle;
let runner: CommandRunner;
const defer = useFileCleanups();
beforeAll(async () => {
  hub = await startHub();
  defer(() => hub.stop());
  runner = startCommandRunner({ hub, command: `stty -echo; echo shared-screen-ready; while read -r l; do echo "got:$l"; done` });
  defer(() => runner.stop());
});

const api = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(hub.url + path, { ...init, headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) } });

async function share(sessionId: string, expiresInSec = 3600) {
  const res = await api(`/api/sessions/${sessionId}/share`, { method: 'POST', token: hub.token, body: JSON.stringify({ expiresInSec }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { url: string; token: string; jti: string; expiresAt: number };
}

describe('read-only share links', () => {
  it('watch one session’s terminal and chat; every write is refused', async () => {
    const sid = runner.sessionId;
    // The owner's viewer (writes allowed) waits for the runner to register.
    const owner = await viewTerminal({ url: hub.url, token: hub.token, sessionId: sid });
    defer(() => owner.stop());
    await owner.waitFor(() => owner.screen().includes('shared-screen-ready'), 'runner output');
    const link = await share(sid);
    expect(link.url).toBe(`${hub.url}/share/${link.token}`);
    expect(link.expiresAt).toBeGreaterThan(Date.now() + 3500_000);

    const view = await api(`/api/share/${link.token}`);
    expect(view.status).toBe(200);
    const body = (await view.json()) as { session: { id: string }; messages: unknown[]; readOnly: boolean };
    expect(body.session.id).toBe(sid);
    expect(body.readOnly).toBe(true);
    // A share link is not an API credential.
    expect((await api('/api/sessions', { token: link.token })).status).toBe(401);

    const guest = await viewTerminal({ url: hub.url, token: link.token, sessionId: sid });
    defer(() => guest.stop());
    await guest.waitFor(() => guest.screen().includes('shared-screen-ready'), 'the shared screen');
    for (const [event, payload] of [
      ['terminal:input', { sessionId: sid, data: 'guest typed\r' }],
      ['terminal:resize', { sessionId: sid, cols: 50, rows: 10, fit: true }],
      ['prompt:send', { sessionId: sid, promptId: randomUUID(), text: 'from a guest' }],
      ['session:abort', { sessionId: sid }],
      ['approval:answer', { requestId: randomUUID(), answer: { decision: 'allow' } }],
    ] as const) {
      expect(await guest.emit(event, payload), event).toMatchObject({ ok: false, code: 'forbidden' });
    }
    expect(await guest.emit('session:watch', { sessionId: sid })).toMatchObject({ ok: true });
    // Another session of the same namespace does not exist for the link.
    const other = randomUUID();
    const cli = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
    defer(() => cli.close());
    expect((await emitAck(cli, 'session:register', { id: other, cwd: '/x', launchKind: 'pty', title: 'other' })).ok).toBe(true);
    expect(await guest.emit('terminal:subscribe', { sessionId: other })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await guest.emit('session:watch', { sessionId: other })).toMatchObject({ ok: false, code: 'not_found' });

    // The owner types: the guest sees it; the guest's text never reached the PTY.
    expect((await owner.emit('terminal:input', { sessionId: sid, data: 'owner typed\r' })).ok).toBe(true);
    await guest.waitFor(() => guest.screen().includes('got:owner typed'), 'owner input echoed');
    expect(guest.screen()).not.toContain('guest typed');
    expect(owner.screen()).not.toContain('guest typed');
  });

  it('a revoked link is refused over REST and at the handshake, and its live socket is dropped', async () => {
    const sid = runner.sessionId;
    const link = await share(sid);
    const guest = await viewTerminal({ url: hub.url, token: link.token, sessionId: sid });
    defer(() => guest.stop());
    const dropped = new Promise<string>((r) => guest.socket.once('disconnect', (reason) => r(String(reason))));
    // Another namespace cannot revoke it.
    const beta = await hub.createToken('beta');
    expect((await api(`/api/sessions/${sid}/share/${link.jti}`, { method: 'DELETE', token: beta })).status).toBe(404);
    expect((await api(`/api/sessions/${sid}/share/${link.jti}`, { method: 'DELETE', token: hub.token })).status).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    expect((await api(`/api/share/${link.token}`)).status).toBe(401);
    await expect(connectSocket({ url: hub.url, nsp: '/web', token: link.token })).rejects.toThrow(/unauthorized/);
    // Revoking twice: nothing left to revoke.
    expect((await api(`/api/sessions/${sid}/share/${link.jti}`, { method: 'DELETE', token: hub.token })).status).toBe(404);
  });

  it('an expired link is refused over REST and at the handshake', async () => {
    // Made the way the hub makes them (its own secret and table), but already past its expiry.
    const secret = new Uint8Array(Buffer.from(readFileSync(hubPaths(hub.home).secret, 'utf8').trim(), 'base64url'));
    const links = createShareLinks({ store: hub.store, secret });
    const tokenId = (await hub.store.listTokens({ namespace: hub.namespace }))[0]!.id;
    const link = await links.create({ namespace: hub.namespace, sessionId: runner.sessionId, expiresInSec: 60, createdBy: 'test', tokenId, now: Date.now() - 120_000 });
    expect((await api(`/api/share/${link.token}`)).status).toBe(401);
    await expect(connectSocket({ url: hub.url, nsp: '/web', token: link.token })).rejects.toThrow(/unauthorized/);
    // The same link a minute younger would still work: the expiry is what refused it.
    const fresh = await links.create({ namespace: hub.namespace, sessionId: runner.sessionId, expiresInSec: 60, createdBy: 'test', tokenId });
    expect((await api(`/api/share/${fresh.token}`)).status).toBe(200);
  });

  it('a link to another namespace’s session cannot be made; malformed or tampered links are refused', async () => {
    const beta = await hub.createToken('beta');
    const res = await api(`/api/sessions/${runner.sessionId}/share`, { method: 'POST', token: beta, body: '{}' });
    expect(res.status).toBe(404);
    const link = await share(runner.sessionId);
    const [h, p, s] = link.token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sid: randomUUID() })).toString('base64url')}.${s}`;
    expect((await api(`/api/share/${forged}`)).status).toBe(401);
    expect((await api(`/api/share/not-a-token`)).status).toBe(401);
    await expect(connectSocket({ url: hub.url, nsp: '/web', token: forged })).rejects.toThrow(/unauthorized/);
    expect((await api(`/api/sessions/${runner.sessionId}/share`, { method: 'POST', token: hub.token, body: JSON.stringify({ expiresInSec: 5 }) })).status).toBe(400);
  });
});
