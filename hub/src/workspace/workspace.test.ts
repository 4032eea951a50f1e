// workspace.test.ts: the hub forwarding a session's files, against a real hub on port 0 with a
// socket.io client playing the runner (it answers workspace:query as a runner would, or badly).
// REST in, ack out: namespace checks, path checks before the runner is asked, the runner's answer
// checked against the schema, and the clear errors for a runner that is away or a session that ended.
// The caps on questions waiting on silent runners run against a fake runner port (no hub needed).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Namespace, Session, WorkspaceQuery } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import { createWorkspace, WORKSPACE_ANSWER_TIMEOUT_MS, WORKSPACE_MAX_WAITING_PER_NAMESPACE, WORKSPACE_MAX_WAITING_PER_SESSION, WORKSPACE_READ_TIMEOUT_MS } from './workspace.ts';

const live = hubUnderTest({ home: 'tether-workspace-', ackTimeoutMs: 10_000 });
const { connect, ack, register } = live;
/** Each session of these tests is its own namespace's, with a token labelled as the namespace. */
const token = (namespace: string) => live.token(namespace, { label: namespace });
const get = (path: string, bearer: string) => fetch(`${live.hub.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });

/** A namespace with a registered session whose runner answers with `answer(query)`. */
async function sessionWithRunner(answer: (query: WorkspaceQuery) => unknown) {
  const namespace = `ns-${randomUUID().slice(0, 8)}`;
  const t = await token(namespace);
  const socket = await connect({ nsp: '/cli', token: t });
  const sessionId = randomUUID();
  expect((await register(socket, { id: sessionId, cwd: '/home/dev/project', status: 'idle' })).ok).toBe(true);
  const asked: WorkspaceQuery[] = [];
  socket.on('workspace:query', (query: WorkspaceQuery, reply: (a: unknown) => void) => {
    asked.push(query);
    reply(answer(query));
  });
  return { token: t, namespace, socket, sessionId, asked };
}

const README = { ok: true, kind: 'read', path: 'README.md', size: 7, binary: false, text: '# demo\n', truncated: false };

describe('workspace forwarding', () => {
  it('forwards a file, a listing and the changes from the runner, as the runner answered', async () => {
    const { token: t, sessionId, asked } = await sessionWithRunner((q) => {
      if (q.kind === 'read') return README;
      if (q.kind === 'list') return { ok: true, kind: 'list', path: q.path, entries: [{ name: 'src', kind: 'dir', size: null, link: false, outside: false }], total: 1 };
      return { ok: true, kind: 'changes', git: false, reason: "the session's directory is not in a git work tree" };
    });
    const file = await get(`/api/sessions/${sessionId}/file?path=README.md`, t);
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(await file.json()).toEqual({ kind: 'read', path: 'README.md', size: 7, binary: false, text: '# demo\n', truncated: false });
    const list = await get(`/api/sessions/${sessionId}/files`, t);
    expect(await list.json()).toMatchObject({ kind: 'list', path: '', entries: [{ name: 'src' }] });
    const changes = await get(`/api/sessions/${sessionId}/changes?cursor=0`, t);
    expect(await changes.json()).toMatchObject({ kind: 'changes', git: false });
    expect(asked).toEqual([
      { kind: 'read', sessionId, path: 'README.md' },
      { kind: 'list', sessionId, path: '' },
      { kind: 'changes', sessionId, cursor: 0 },
    ]);
  });

  it("compares with the branch's base only from the base the hub recorded, never one the caller names", async () => {
    const { token: t, namespace, sessionId, asked } = await sessionWithRunner(() => ({ ok: true, kind: 'changes', git: false, reason: 'not a git work tree' }));
    const noBase = await get(`/api/sessions/${sessionId}/changes?against=base`, t);
    expect(noBase.status).toBe(400);
    expect(((await noBase.json()) as { error: string }).error).toContain('no branch base to compare with');
    expect(asked).toEqual([]);
    expect((await get(`/api/sessions/${sessionId}/changes?against=elsewhere`, t)).status).toBe(400);

    const base = { ref: 'main', commit: '0123456789abcdef' };
    await live.hub.store.setSessionWorktree({ namespace, sessionId, worktree: { path: '/home/dev/project.worktrees/fix', branch: 'fix', repo: '/home/dev/project', removedAt: null, base }, now: Date.now() });
    expect((await get(`/api/sessions/${sessionId}/changes?against=base&commit=ffffffff`, t)).status).toBe(200);
    expect((await get(`/api/sessions/${sessionId}/changes`, t)).status).toBe(200);
    expect(asked).toEqual([
      { kind: 'changes', sessionId, cursor: 0, base },
      { kind: 'changes', sessionId, cursor: 0 },
    ]);
  });

  it("another namespace's session is 404 like a missing one, and its runner is never asked", async () => {
    const { sessionId, asked } = await sessionWithRunner(() => README);
    const stranger = await token('stranger');
    for (const path of [`/api/sessions/${sessionId}/file?path=README.md`, `/api/sessions/${sessionId}/files`, `/api/sessions/${sessionId}/changes`, `/api/sessions/${randomUUID()}/file?path=README.md`]) {
      const res = await get(path, stranger);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ code: 'not_found', error: 'no such session' });
    }
    expect(asked).toEqual([]);
  });

  it('a share link gets nothing of the workspace (it is not a login)', async () => {
    const { token: t, sessionId, asked } = await sessionWithRunner(() => README);
    const created = await fetch(`${live.hub.url}/api/sessions/${sessionId}/share`, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: '{}' });
    expect(created.status).toBe(201);
    const share = ((await created.json()) as { token: string }).token;
    for (const path of [`/api/sessions/${sessionId}/file?path=README.md`, `/api/sessions/${sessionId}/changes`]) {
      expect((await get(path, share)).status, path).toBe(401);
    }
    // The share link's own routes have no workspace (an unknown route there needs a login).
    expect((await fetch(`${live.hub.url}/api/share/${share}/file?path=README.md`)).status).toBe(401);
    expect(asked).toEqual([]);
  });

});

describe('workspace forwarding: refusals', () => {
  it('refuses ../, absolute paths and NUL before asking the runner', async () => {
    const { token: t, sessionId, asked } = await sessionWithRunner(() => README);
    for (const path of ['../etc/passwd', 'src/../../x', '/etc/passwd', 'a\0b', 'C:/Windows/win.ini']) {
      const res = await get(`/api/sessions/${sessionId}/file?path=${encodeURIComponent(path)}`, t);
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { error: string };
      expect(body.error, path).toMatch(/session's directory|NUL/);
    }
    // A name longer than a disk takes, and git's own folder at any depth, whatever its case.
    for (const [path, reason] of [['x'.repeat(256), '255 bytes'], [`src/${'é'.repeat(128)}`, '255 bytes'], ['.git/config', '.git'], ['sub/.GIT', '.git']]) {
      for (const route of ['file', 'files']) {
        const res = await get(`/api/sessions/${sessionId}/${route}?path=${encodeURIComponent(path!)}`, t);
        expect(res.status, path).toBe(400);
        expect(((await res.json()) as { error: string }).error, path).toContain(reason);
      }
    }
    expect((await get(`/api/sessions/${sessionId}/changes?cursor=-1`, t)).status).toBe(400);
    expect((await get('/api/sessions/not-an-id/files', t)).status).toBe(400);
    expect(asked).toEqual([]);
  });

  it("passes the runner's refusal on (a link out is 403) and refuses an answer it cannot read", async () => {
    let reply: unknown = { ok: false, code: 'forbidden', error: '"out" leads outside the session\'s directory (a symbolic link points out of it); it is not shown' };
    const { token: t, sessionId } = await sessionWithRunner(() => reply);
    const refused = await get(`/api/sessions/${sessionId}/file?path=out`, t);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ code: 'forbidden', error: expect.stringContaining("outside the session's directory") });
    reply = { ok: true, kind: 'read', path: 'x', size: -1, text: 42 };
    const garbled = await get(`/api/sessions/${sessionId}/file?path=x`, t);
    expect(garbled.status).toBe(500);
    expect(await garbled.json()).toEqual({ code: 'internal', error: expect.stringContaining('cannot read') });
  });

  it('says the runner is not connected, and that an ended session has no files to read', async () => {
    const { token: t, socket, sessionId } = await sessionWithRunner(() => README);
    socket.close();
    // The hub sees the socket go; until then the runner room still holds it.
    await expect.poll(async () => (await get(`/api/sessions/${sessionId}/file?path=README.md`, t)).status, { timeout: 5_000 }).toBe(409);
    const away = await get(`/api/sessions/${sessionId}/file?path=README.md`, t);
    expect(await away.json()).toEqual({ code: 'conflict', error: expect.stringContaining('not connected') });

    const second = await sessionWithRunner(() => README);
    expect((await ack(second.socket, 'session:end', { sessionId: second.sessionId, status: 'ended', exitCode: 0 })).ok).toBe(true);
    const ended = await get(`/api/sessions/${second.sessionId}/changes`, second.token);
    expect(ended.status).toBe(410);
    expect(await ended.json()).toEqual({ code: 'gone', error: expect.stringContaining('has ended') });
  });

  it('a runner socket never reads another session: the query names the session, the runner room is per session', async () => {
    const first = await sessionWithRunner(() => ({ ...README, text: 'first\n' }));
    const second = await sessionWithRunner(() => ({ ...README, text: 'second\n' }));
    const res = await get(`/api/sessions/${second.sessionId}/file?path=README.md`, second.token);
    expect(await res.json()).toMatchObject({ text: 'second\n' });
    expect(first.asked).toEqual([]);
  });
});

describe('questions waiting on runners', () => {
  /** A runner port whose runners never answer until `answerAll` (or `failAll`: a timeout). */
  /** A workspace whose runners hold every question until the test answers or fails them. */
  function silentWorkspace() {
    const held: Array<{ ns: Namespace; sessionId: string; timeoutMs: number; answer: (a: unknown[]) => void; fail: (e: Error) => void }> = [];
    const runners: RunnerCommands = {
      send: () => {},
      ask: (ns, sessionId, _event, _payload, timeoutMs) => new Promise((answer, fail) => held.push({ ns, sessionId, timeoutMs, answer, fail })),
    };
    const answerAll = () => held.splice(0).forEach((h) => h.answer([README]));
    const failAll = () => held.splice(0).forEach((h) => h.fail(new Error('timeout')));
    return { workspace: createWorkspace({ sessionOf: live, runners }), held, answerAll, failAll };
  }
  const live = async () => ({ status: 'idle' }) as Session;
  const read = (sessionId: string) => ({ kind: 'read' as const, sessionId, path: 'README.md' });
  /** Lets the queries started so far reach the runner port. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('caps them per session and per namespace, answering the excess at once with the reason', async () => {
    const { workspace, ...silent } = silentWorkspace();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const waiting = Array.from({ length: WORKSPACE_MAX_WAITING_PER_SESSION }, () => workspace.query('alice', read(a)));
    await settle();
    expect(silent.held).toHaveLength(WORKSPACE_MAX_WAITING_PER_SESSION);
    expect(await workspace.query('alice', read(a))).toEqual({ ok: false, code: 'rate_limited', error: expect.stringContaining("waiting on this session's runner") });
    // Another session of the same account fills the account's share…
    waiting.push(...Array.from({ length: WORKSPACE_MAX_WAITING_PER_NAMESPACE - WORKSPACE_MAX_WAITING_PER_SESSION }, () => workspace.query('alice', read(b))));
    await settle();
    expect(silent.held).toHaveLength(WORKSPACE_MAX_WAITING_PER_NAMESPACE);
    expect(await workspace.query('alice', read(c))).toEqual({ ok: false, code: 'rate_limited', error: expect.stringContaining('of this account are already waiting') });
    // …and another account is not held by it.
    const bobs = workspace.query('bob', read(c));
    await settle();
    expect(silent.held).toHaveLength(WORKSPACE_MAX_WAITING_PER_NAMESPACE + 1);
    // Answered, the questions free their places.
    silent.answerAll();
    for (const done of [...waiting, bobs]) expect(await done).toMatchObject({ ok: true, kind: 'read' });
    const again = workspace.query('alice', read(a));
    await settle();
    silent.answerAll();
    expect(await again).toMatchObject({ ok: true });
  });

  it('a question that times out frees its place too', async () => {
    const { workspace, ...silent } = silentWorkspace();
    const a = randomUUID();
    const waiting = Array.from({ length: WORKSPACE_MAX_WAITING_PER_SESSION }, () => workspace.query('alice', read(a)));
    await settle();
    silent.failAll();
    for (const done of waiting) expect(await done).toMatchObject({ ok: false, code: 'internal', error: expect.stringContaining('did not answer within') });
    const next = workspace.query('alice', read(a));
    await settle();
    expect(silent.held).toHaveLength(1);
    silent.answerAll();
    expect(await next).toMatchObject({ ok: true });
  });

  it('a silent runner holds a listing or a file for less time than the changes', async () => {
    const { workspace, ...silent } = silentWorkspace();
    const a = randomUUID();
    const asked = [workspace.query('alice', read(a)), workspace.query('alice', { kind: 'list', sessionId: a, path: '' }), workspace.query('alice', { kind: 'changes', sessionId: a, cursor: 0 })];
    await settle();
    expect(silent.held.map((h) => h.timeoutMs)).toEqual([WORKSPACE_READ_TIMEOUT_MS, WORKSPACE_READ_TIMEOUT_MS, WORKSPACE_ANSWER_TIMEOUT_MS]);
    expect(WORKSPACE_READ_TIMEOUT_MS).toBeLessThan(WORKSPACE_ANSWER_TIMEOUT_MS);
    silent.answerAll();
    await Promise.all(asked);
  });

  it('over REST: the excess is 429 with the reason and Retry-After, answered before the runner is', async () => {
    const held: Array<() => void> = [];
    const t = await token(`ns-${randomUUID().slice(0, 8)}`);
    const socket = await connect({ nsp: '/cli', token: t });
    const sessionId = randomUUID();
    expect((await register(socket, { id: sessionId, cwd: '/home/dev/project', status: 'idle' })).ok).toBe(true);
    socket.on('workspace:query', (_q: WorkspaceQuery, reply: (a: unknown) => void) => held.push(() => reply(README)));
    const waiting = Array.from({ length: WORKSPACE_MAX_WAITING_PER_SESSION }, () => get(`/api/sessions/${sessionId}/file?path=README.md`, t));
    await expect.poll(() => held.length, { timeout: 5_000 }).toBe(WORKSPACE_MAX_WAITING_PER_SESSION);
    const refused = await get(`/api/sessions/${sessionId}/file?path=README.md`, t);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toEqual({ code: 'rate_limited', error: expect.stringContaining("waiting on this session's runner") });
    expect(held).toHaveLength(WORKSPACE_MAX_WAITING_PER_SESSION);
    for (const answer of held.splice(0)) answer();
    for (const res of await Promise.all(waiting)) expect(res.status).toBe(200);
  });
});
