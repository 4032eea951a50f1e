// A request a sub-agent asks, over real sockets: the hub takes `askedBy` only in the protocol's bounded
// shape (anything else is refused and stores nothing), keeps it with the request, and hands it to
// the phone both live and in the session's pending list (a phone that opens later).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-asked-by-', label: 'phone-token' });
const { ack, next } = live;
const connect = (nsp: '/cli' | '/web') => live.connect({ nsp });

describe('a request asked by a sub-agent', () => {
  it('is refused when who asks is not the bounded shape, and nothing is stored', async () => {
    const runner = await connect('/cli');
    const sessionId = randomUUID();
    expect((await ack(runner, 'session:register', { id: sessionId, cwd: '/work', launchKind: 'pty' })).ok).toBe(true);
    const base = { sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: Date.now() };
    for (const askedBy of [{}, { nickname: 'x'.repeat(200) }, { nickname: 'Ada\u001b[2J' }, { thread: 'not/an/id' }, { admin: true }]) {
      const refused = await ack(runner, 'approval:request', { ...base, id: randomUUID(), askedBy });
      expect(refused, JSON.stringify(askedBy)).toMatchObject({ ok: false, code: 'bad_request' });
    }
    expect(await live.hub.store.listPending({ namespace: 'alpha', sessionId })).toEqual([]);
  });

  it('is kept with the request and reaches the phone live and in the pending list', async () => {
    const runner = await connect('/cli');
    const phone = await connect('/web');
    const sessionId = randomUUID();
    expect((await ack(runner, 'session:register', { id: sessionId, cwd: '/work', launchKind: 'pty' })).ok).toBe(true);
    const askedBy = { nickname: 'Ada', role: 'explorer', thread: '019a2b3c' };
    const request = { id: randomUUID(), sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: Date.now(), askedBy };
    const requested = next<Record<string, unknown>>(phone, 'approval:requested');
    expect((await ack(runner, 'approval:request', request)).ok).toBe(true);
    expect(await requested).toMatchObject({ id: request.id, askedBy });
    const detail = await fetch(`${live.hub.url}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${live.accessToken}` } });
    expect(detail.status).toBe(200);
    expect(((await detail.json()) as { pending: unknown[] }).pending).toEqual([expect.objectContaining({ id: request.id, askedBy })]);
  });
});
