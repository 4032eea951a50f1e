// A real hub and a socket.io client playing the runner (answering git:action as a runner would, or
// badly): namespace checks, bodies refused before the runner is asked, the mid-turn refusal and its
// confirm, the runner's answer checked, and each write recorded in the session's history.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GIT_HISTORY_TOOL, GIT_MID_TURN_REFUSAL, type GitQuery, type SessionStatus } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-git-actions-', ackTimeoutMs: 10_000 });

const STATE = { kind: 'state', git: true, branch: 'main', head: 'abc', upstream: 'origin/main', ahead: 1, behind: 0, files: [{ path: 'a.txt', staged: true, unstaged: false }], total: 1, pullRequests: false };
const done = (action: string, extra: object = {}) => ({ ok: true, kind: 'done', action, summary: `did ${action}`, branch: 'main', sha: null, url: null, state: STATE, ...extra });

async function sessionWithRunner(status: SessionStatus, answer: (q: GitQuery) => unknown) {
  const label = `phone-${randomUUID().slice(0, 6)}`;
  const token = await live.token(`ns-${randomUUID().slice(0, 8)}`, { label });
  const socket = await live.connect({ nsp: '/cli', token });
  const sessionId = randomUUID();
  const registered = await live.register(socket, { id: sessionId, cwd: '/home/dev/project', status });
  expect(registered.ok).toBe(true);
  const asked: GitQuery[] = [];
  socket.on('git:action', (query: GitQuery, reply: (a: unknown) => void) => {
    asked.push(query);
    reply(answer(query));
  });
  return { token, label, sessionId, asked };
}

const post = (sessionId: string, bearer: string, body: unknown) =>
  fetch(`${live.hub.url}/api/sessions/${sessionId}/git`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('git actions forwarding', () => {
  it("forwards the state and a commit, and records who, which device and what in the session's history", async () => {
    const { token, label, sessionId, asked } = await sessionWithRunner('idle', (q) => (q.action === 'state' ? { ok: true, ...STATE } : done(q.action, { sha: 'abc123def456', summary: 'Committed abc123def456 on main' })));
    const state = await fetch(`${live.hub.url}/api/sessions/${sessionId}/git`, { headers: { authorization: `Bearer ${token}` } });
    expect(state.status).toBe(200);
    expect(state.headers.get('cache-control')).toBe('no-store');
    expect(await state.json()).toEqual(STATE);
    const committed = await post(sessionId, token, { action: 'commit', message: 'From the phone', device: 'Chrome on Android' });
    expect(committed.status).toBe(200);
    expect(await committed.json()).toMatchObject({ kind: 'done', action: 'commit', sha: 'abc123def456' });
    expect(asked).toEqual([
      { sessionId, action: 'state' },
      { sessionId, action: 'commit', message: 'From the phone' },
    ]);
    const session = (await (await fetch(`${live.hub.url}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { audit: unknown[] };
    expect(session.audit).toEqual([
      expect.objectContaining({ toolName: GIT_HISTORY_TOOL, outcome: 'answered', answeredBy: label, device: 'Chrome on Android', answer: { decision: 'allow', reason: 'Committed abc123def456 on main' } }),
    ]);
  });

  it('refuses bad bodies before the runner is asked, and nothing is recorded', async () => {
    const { token, sessionId, asked } = await sessionWithRunner('idle', (q) => done(q.action));
    for (const [body, reason] of [
      [{ action: 'commit', message: '   ' }, 'a commit needs a message'],
      [{ action: 'stage', paths: ['../etc/passwd'] }, "session's directory"],
      [{ action: 'stage', paths: ['/etc/passwd'] }, "session's directory"],
      [{ action: 'stage', paths: ['.git/config'] }, '.git'],
      [{ action: 'stage', paths: [] }, 'at least one file'],
      [{ action: 'rm -rf' }, 'action'],
    ] as const) {
      const res = await post(sessionId, token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: string }).error, JSON.stringify(body)).toContain(reason);
    }
    expect(asked).toEqual([]);
    const session = (await (await fetch(`${live.hub.url}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { audit: unknown[] };
    expect(session.audit).toEqual([]);
  });

  it("another namespace's session is 404 and its runner never asked; a share link is no login", async () => {
    const { token, sessionId, asked } = await sessionWithRunner('idle', (q) => done(q.action));
    const stranger = await live.token('stranger', { label: 'stranger' });
    expect((await post(sessionId, stranger, { action: 'push' })).status).toBe(404);
    expect((await fetch(`${live.hub.url}/api/sessions/${sessionId}/git`, { headers: { authorization: `Bearer ${stranger}` } })).status).toBe(404);
    const created = await fetch(`${live.hub.url}/api/sessions/${sessionId}/share`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    const share = ((await created.json()) as { token: string }).token;
    expect((await post(sessionId, share, { action: 'push' })).status).toBe(401);
    expect(asked).toEqual([]);
  });

  it('refuses a write while the agent is mid-turn unless the person confirms', async () => {
    const { token, sessionId, asked } = await sessionWithRunner('thinking', (q) => done(q.action));
    const refused = await post(sessionId, token, { action: 'push' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ code: 'conflict', error: GIT_MID_TURN_REFUSAL });
    expect(asked).toEqual([]);
    const confirmed = await post(sessionId, token, { action: 'push', confirm: true });
    expect(confirmed.status).toBe(200);
    expect(asked).toEqual([{ sessionId, action: 'push' }]);
  });

  it("passes the runner's refusal on, and refuses an answer it cannot read or that answers another action", async () => {
    let reply: unknown = { ok: false, code: 'bad_request', error: 'the branch "topic" has no upstream' };
    const { token, sessionId } = await sessionWithRunner('idle', () => reply);
    const refused = await post(sessionId, token, { action: 'push' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ code: 'bad_request', error: 'the branch "topic" has no upstream' });
    reply = { ok: true, kind: 'done', action: 'push', sha: 42 };
    expect((await post(sessionId, token, { action: 'push' })).status).toBe(500);
    reply = done('commit');
    const other = await post(sessionId, token, { action: 'push' });
    expect(other.status).toBe(500);
    expect(await other.json()).toMatchObject({ error: expect.stringContaining('another question') });
  });
});
