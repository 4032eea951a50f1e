// triage.test.ts: session:pin and session:archive against a real hub on port 0 with real socket.io
// clients: the ack, what another tab of the namespace hears (and another namespace does not), the
// rules (a live session is never archived, a resumed one comes back), bad input, a foreign id and a
// share link's read-only socket.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Session } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-triage-', label: 'phone-token' });
const { connect, ack, next } = live;
/** The next session:updated for `sessionId` that `s` hears. */
const nextUpdate = (s: Socket, sessionId: string) => next<Session>(s, 'session:updated', (session) => session.id === sessionId);
const register = (s: Socket, id: string, status = 'idle') => live.register(s, { id, status });
const listed = async (id: string) => {
  const body = (await (await fetch(`${live.hub.url}/api/sessions`, { headers: { authorization: `Bearer ${live.accessToken}` } })).json()) as { sessions: Session[] };
  return body.sessions.find((s) => s.id === id);
};

describe('session:pin', () => {
  it('pins on the hub: acked, heard live by every tab of the namespace, listed over REST, never heard by another namespace', async () => {
    const runner = await connect({ nsp: '/cli' });
    const phone = await connect({ nsp: '/web', device: 'phone' });
    const laptop = await connect({ nsp: '/web', device: 'laptop' });
    const stranger = await connect({ nsp: '/web', token: await live.token('beta') });
    const heardByStranger: string[] = [];
    stranger.on('session:updated', (s: Session) => heardByStranger.push(s.id));
    const sid = randomUUID();
    expect((await register(runner, sid)).ok).toBe(true);

    const heard = nextUpdate(laptop, sid);
    const pinned = await ack<{ session: Session }>(phone, 'session:pin', { sessionId: sid, pinned: true });
    expect(pinned).toMatchObject({ ok: true, session: { id: sid, status: 'idle', archivedAt: null } });
    const pinnedAt = pinned.ok ? pinned.session.pinnedAt : null;
    expect(pinnedAt).toEqual(expect.any(Number));
    expect((await heard).pinnedAt).toBe(pinnedAt);
    expect((await listed(sid))?.pinnedAt).toBe(pinnedAt);

    const unheard = nextUpdate(phone, sid);
    expect(await ack(laptop, 'session:pin', { sessionId: sid, pinned: false })).toMatchObject({ ok: true, session: { pinnedAt: null } });
    expect((await unheard).pinnedAt).toBeNull();
    // A round trip on the stranger's socket after both facts: anything sent to it has arrived.
    await ack(stranger, 'session:unwatch', { sessionId: randomUUID() });
    expect(heardByStranger).toEqual([]);
  });
});

describe('session:archive', () => {
  it('refuses a live session (nothing it asks may be hidden), archives it once ended, and a resumed session comes back', async () => {
    const { runner, web, sid } = await live.runnerWithTab({ status: 'idle' });
    expect(await ack(web, 'session:pin', { sessionId: sid, pinned: true })).toMatchObject({ ok: true });

    const refused = await ack(web, 'session:archive', { sessionId: sid, archived: true });
    expect(refused).toMatchObject({ ok: false, code: 'conflict' });
    expect(String(refused.error)).toMatch(/only an ended session can be archived/);
    expect(await listed(sid)).toMatchObject({ archivedAt: null, pinnedAt: expect.any(Number) });

    expect(await ack(runner, 'session:end', { sessionId: sid, status: 'ended', exitCode: 0 })).toMatchObject({ ok: true });
    const heard = nextUpdate(web, sid);
    const archived = await ack<{ session: Session }>(web, 'session:archive', { sessionId: sid, archived: true });
    // Archiving unpins: pinned and archived exclude each other.
    expect(archived).toMatchObject({ ok: true, session: { status: 'ended', archivedAt: expect.any(Number), pinnedAt: null } });
    expect((await heard).archivedAt).toEqual(expect.any(Number));

    // The session is resumed (its runner registers it live again): every tab sees it unarchived.
    const back = nextUpdate(web, sid);
    const again = await connect({ nsp: '/cli' });
    expect(await register(again, sid, 'starting')).toMatchObject({ ok: true, session: { archivedAt: null } });
    expect(await back).toMatchObject({ status: 'starting', archivedAt: null });

    // Unarchive works on any session of the namespace (it only ever shows one more row).
    expect(await ack(web, 'session:archive', { sessionId: sid, archived: false })).toMatchObject({ ok: true, session: { archivedAt: null } });
  });
});

describe('bad input, foreign ids, share links', () => {
  it('answers bad payloads with bad_request, a foreign id exactly like a missing one, a share link with forbidden; nothing changes', async () => {
    const { runner, web, sid } = await live.runnerWithTab({ status: 'idle' });
    await ack(runner, 'session:end', { sessionId: sid, status: 'ended', exitCode: 0 });
    const before = await listed(sid);

    for (const [event, payload] of [
      ['session:pin', { sessionId: sid }],
      ['session:pin', { sessionId: sid, pinned: 'yes' }],
      ['session:pin', { sessionId: 'not-a-uuid', pinned: true }],
      ['session:archive', { sessionId: sid, archived: 1 }],
      ['session:archive', null],
      ['session:archive', { archived: true }],
    ] as const) {
      expect(await ack(web, event, payload), `${event} ${JSON.stringify(payload)}`).toMatchObject({ ok: false, code: 'bad_request' });
    }

    const otherRunner = await connect({ nsp: '/cli', token: await live.token('beta') });
    const theirs = randomUUID();
    await register(otherRunner, theirs);
    await ack(otherRunner, 'session:end', { sessionId: theirs, status: 'ended', exitCode: 0 });
    for (const event of ['session:pin', 'session:archive'] as const) {
      const field = event === 'session:pin' ? 'pinned' : 'archived';
      const foreign = await ack(web, event, { sessionId: theirs, [field]: true });
      const missing = await ack(web, event, { sessionId: randomUUID(), [field]: true });
      expect(foreign).toEqual({ ok: false, code: 'not_found', error: 'no such session' });
      expect(foreign).toEqual(missing);
    }
    expect(await live.hub.store.getSession({ namespace: 'beta', sessionId: theirs })).toMatchObject({ pinnedAt: null, archivedAt: null });

    const made = (await (await fetch(`${live.hub.url}/api/sessions/${sid}/share`, { method: 'POST', headers: { authorization: `Bearer ${live.accessToken}` }, body: '{}' })).json()) as { token: string };
    const viewer = await connect({ nsp: '/web', token: made.token });
    expect(await ack(viewer, 'session:pin', { sessionId: sid, pinned: true })).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await ack(viewer, 'session:archive', { sessionId: sid, archived: true })).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await listed(sid)).toEqual(before);
  });
});
