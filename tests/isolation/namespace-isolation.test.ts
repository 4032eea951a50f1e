// namespace-isolation.test.ts: a token of namespace A can list, read, subscribe to or write nothing of
// namespace B, over every REST route and every socket event that takes an id. Each case is run twice:
// on A's own ids (must work: the check is not vacuous) and on B's ids (must fail, change nothing of
// B's, and deliver nothing to B's sockets).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Store } from '@tether/hub';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';

type Ids = { sessionId: string; requestId: string; promptId: string; machineId: string };

let hub: HubHandle;
let tokenA: string;
let tokenB: string;
let sessionA: string;
let sessionB: string;
let jwtA: string;
const machineB = randomUUID();
let webA: Socket;
let cliA: Socket;
let webB: Socket;
let cliB: Socket;
const heardByB: string[] = [];

function dumpNamespace(store: Store, namespace: string): string {
  const sessions = store.listSessions({ namespace });
  return JSON.stringify({
    sessions,
    messages: sessions.map((s) => store.listMessages({ namespace, sessionId: s.id, limit: 500 })),
    pending: sessions.map((s) => store.listPending({ namespace, sessionId: s.id })),
    audit: sessions.map((s) => store.listAudit({ namespace, sessionId: s.id, limit: 500 })),
    prompts: sessions.map((s) => store.listPrompts({ namespace, sessionId: s.id })),
    machines: store.listMachines({ namespace }),
  });
}

/** Fresh ids in a namespace: a pending request and a queued prompt on its session. */
async function freshIds(options: { cli: Socket; web: Socket; sessionId: string; machineId: string }): Promise<Ids> {
  const requestId = randomUUID();
  const promptId = randomUUID();
  const req = await emitAck(options.cli, 'approval:request', {
    id: requestId,
    sessionId: options.sessionId,
    kind: 'permission',
    toolName: 'Bash',
    toolInput: { command: 'rm -rf /' },
    toolUseId: null,
    createdAt: Date.now(),
  });
  expect(req.ok).toBe(true);
  const prompt = await emitAck(options.web, 'prompt:send', { sessionId: options.sessionId, promptId, text: 'secret prompt' });
  expect(prompt.ok).toBe(true);
  return { sessionId: options.sessionId, requestId, promptId, machineId: options.machineId };
}

/** A round trip on each of B's sockets: anything the hub sent them before is delivered by now. */
async function flushB(): Promise<void> {
  await emitAck(webB, 'session:unwatch', { sessionId: sessionB });
  await emitAck(webB, 'session:watch', { sessionId: sessionB });
  // An unknown event: answered with an error ack, changes nothing.
  await emitAck(cliB, 'flush:round-trip', {});
}

beforeAll(async () => {
  hub = await startHub();
  tokenA = hub.token;
  tokenB = await hub.createToken('beta');
  jwtA = ((await (await fetch(`${hub.url}/api/auth/login`, { method: 'POST', body: JSON.stringify({ token: tokenA }) })).json()) as { session: string }).session;
  cliA = await connectSocket({ url: hub.url, nsp: '/cli', token: tokenA });
  webA = await connectSocket({ url: hub.url, nsp: '/web', token: jwtA });
  cliB = await connectSocket({ url: hub.url, nsp: '/cli', token: tokenB });
  webB = await connectSocket({ url: hub.url, nsp: '/web', token: tokenB });
  sessionA = randomUUID();
  sessionB = randomUUID();
  for (const [cli, id] of [[cliA, sessionA], [cliB, sessionB]] as const) {
    expect((await emitAck(cli, 'session:register', { id, cwd: '/secret', launchKind: 'pty', title: 'private' })).ok).toBe(true);
    expect((await emitAck(cli, 'message:append', { sessionId: id, messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: 'secret' }], createdAt: 1 }] })).ok).toBe(true);
  }
  expect((await emitAck(cliB, 'machine:register', { id: machineB, name: 'b-desk', os: 'linux', user: 'b', home: '/home/b' })).ok).toBe(true);
  expect((await emitAck(webB, 'session:watch', { sessionId: sessionB })).ok).toBe(true);
  expect((await emitAck(webB, 'terminal:subscribe', { sessionId: sessionB })).ok).toBe(true);
  webB.onAny((event: string) => heardByB.push(`web:${event}`));
  cliB.onAny((event: string) => heardByB.push(`cli:${event}`));
});

afterAll(async () => {
  for (const s of [webA, cliA, webB, cliB]) s?.close();
  await hub?.stop();
});

/** `subscribe`: the control subscribes to its own terminal first (input and resize need it); the
 *  attack subscribes too (and is refused), then writes anyway. */
type Case = { nsp: '/cli' | '/web'; event: string; payload: (ids: Ids) => unknown; subscribe?: boolean };

const SOCKET_CASES: Case[] = [
  // /web: everything a viewer can do to a session or request
  { nsp: '/web', event: 'session:watch', payload: (i) => ({ sessionId: i.sessionId, afterSeq: 0 }) },
  { nsp: '/web', event: 'session:unwatch', payload: (i) => ({ sessionId: i.sessionId }) },
  { nsp: '/web', event: 'prompt:send', payload: (i) => ({ sessionId: i.sessionId, promptId: randomUUID(), text: 'rm -rf' }) },
  { nsp: '/web', event: 'session:abort', payload: (i) => ({ sessionId: i.sessionId }) },
  { nsp: '/web', event: 'session:set-model', payload: (i) => ({ sessionId: i.sessionId, model: 'opus' }) },
  { nsp: '/web', event: 'approval:answer', payload: (i) => ({ requestId: i.requestId, answer: { decision: 'allow' } }) },
  { nsp: '/web', event: 'terminal:subscribe', payload: (i) => ({ sessionId: i.sessionId, since: 0 }) },
  { nsp: '/web', event: 'terminal:unsubscribe', payload: (i) => ({ sessionId: i.sessionId }) },
  { nsp: '/web', event: 'terminal:input', payload: (i) => ({ sessionId: i.sessionId, data: 'whoami\r' }), subscribe: true },
  { nsp: '/web', event: 'terminal:resize', payload: (i) => ({ sessionId: i.sessionId, cols: 80, rows: 24, fit: true }), subscribe: true },
  { nsp: '/web', event: 'terminal:ack', payload: (i) => ({ sessionId: i.sessionId, offset: 0 }) },
  // /cli: a runner of A writing into B's session
  { nsp: '/cli', event: 'session:register', payload: (i) => ({ id: i.sessionId, cwd: '/evil', launchKind: 'pty', status: 'ended' }) },
  { nsp: '/cli', event: 'session:update', payload: (i) => ({ sessionId: i.sessionId, patch: { title: 'pwned', status: 'idle' } }) },
  { nsp: '/cli', event: 'session:end', payload: (i) => ({ sessionId: i.sessionId, status: 'failed', reason: 'pwned' }) },
  {
    nsp: '/cli',
    event: 'message:append',
    payload: (i) => ({ sessionId: i.sessionId, messages: [{ id: `evil-${randomUUID()}`, role: 'assistant', content: [{ type: 'text', text: 'x' }], createdAt: 1 }] }),
  },
  { nsp: '/cli', event: 'prompt:status', payload: (i) => ({ sessionId: i.sessionId, promptId: i.promptId, status: 'dropped' }) },
  {
    nsp: '/cli',
    event: 'approval:request',
    payload: (i) => ({ id: randomUUID(), sessionId: i.sessionId, kind: 'permission', toolName: 'Bash', toolInput: {}, toolUseId: null, createdAt: 1 }),
  },
  { nsp: '/cli', event: 'approval:withdraw', payload: (i) => ({ sessionId: i.sessionId, requestId: i.requestId }) },
  { nsp: '/cli', event: 'approval:desk-answer', payload: (i) => ({ sessionId: i.sessionId, requestId: i.requestId, answer: { decision: 'allow' } }) },
  { nsp: '/cli', event: 'terminal:output', payload: (i) => ({ sessionId: i.sessionId, offset: 0, data: Buffer.from('fake screen') }) },
  { nsp: '/cli', event: 'terminal:snapshot', payload: (i) => ({ sessionId: i.sessionId, offset: 0, cols: 80, rows: 24, data: 'fake' }) },
  { nsp: '/cli', event: 'terminal:size', payload: (i) => ({ sessionId: i.sessionId, offset: 0, cols: 80, rows: 24, desk: false }) },
];

describe('namespace isolation: sockets', () => {
  it.each(SOCKET_CASES.map((c) => [`${c.nsp} ${c.event}`, c] as const))('%s', async (_name, c) => {
    const mine = await freshIds({ cli: cliA, web: webA, sessionId: sessionA, machineId: randomUUID() });
    const theirs = await freshIds({ cli: cliB, web: webB, sessionId: sessionB, machineId: machineB });
    await flushB();
    heardByB.splice(0);
    const socket = c.nsp === '/cli' ? cliA : webA;

    if (c.subscribe) expect(await emitAck(socket, 'terminal:subscribe', { sessionId: mine.sessionId })).toMatchObject({ ok: true });
    const control = await emitAck(socket, c.event, c.payload(mine));
    expect(control, 'the same call on A’s own ids works').toMatchObject({ ok: true });

    const before = dumpNamespace(hub.store, 'beta');
    if (c.subscribe) expect(await emitAck(socket, 'terminal:subscribe', { sessionId: theirs.sessionId })).toMatchObject({ ok: false, code: 'not_found' });
    const attack = await emitAck(socket, c.event, c.payload(theirs));
    expect(attack.ok).toBe(false);
    expect(['not_found', 'forbidden']).toContain(!attack.ok && attack.code);
    await flushB();
    expect(dumpNamespace(hub.store, 'beta')).toBe(before);
    expect(heardByB).toEqual([]);
  });

  it('a foreign session id answers exactly like a missing one', async () => {
    const foreign = await emitAck(webA, 'session:watch', { sessionId: sessionB });
    const missing = await emitAck(webA, 'session:watch', { sessionId: randomUUID() });
    expect(foreign).toEqual(missing);
  });

  it('machine:register with B’s machine id only touches A’s own row', async () => {
    await flushB();
    heardByB.splice(0);
    const before = dumpNamespace(hub.store, 'beta');
    expect(await emitAck(cliA, 'machine:register', { id: machineB, name: 'evil', os: 'x', user: 'x', home: '/x' })).toMatchObject({ ok: true });
    await flushB();
    expect(dumpNamespace(hub.store, 'beta')).toBe(before);
    expect(heardByB).toEqual([]);
    expect(hub.store.listMachines({ namespace: 'beta' })[0]?.name).toBe('b-desk');
  });
});

describe('namespace isolation: REST', () => {
  const ROUTES: Array<{ name: string; path: () => string; foreign: (res: Response) => Promise<void> }> = [
    {
      name: 'GET /api/sessions',
      path: () => '/api/sessions',
      foreign: async (res) => {
        const body = (await res.json()) as { sessions: { id: string }[] };
        expect(body.sessions.map((s) => s.id)).toEqual([sessionA]);
      },
    },
    { name: 'GET /api/sessions/:id', path: () => `/api/sessions/${sessionB}`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/messages', path: () => `/api/sessions/${sessionB}/messages`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/messages?after', path: () => `/api/sessions/${sessionB}/messages?after=0`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/messages?before', path: () => `/api/sessions/${sessionB}/messages?before=9`, foreign: async (res) => expect(res.status).toBe(404) },
    {
      name: 'GET /api/machines',
      path: () => '/api/machines',
      foreign: async (res) => {
        const body = (await res.json()) as { machines: { id: string; name: string }[] };
        expect(body.machines.every((m) => m.name !== 'b-desk')).toBe(true);
      },
    },
  ];
  for (const via of ['access token', 'web session'] as const) {
    it.each(ROUTES.map((r) => [r.name, r] as const))(`%s (${via})`, async (_name, route) => {
      const credential = via === 'access token' ? tokenA : jwtA;
      const res = await fetch(hub.url + route.path(), { headers: { authorization: `Bearer ${credential}` } });
      const text = await res.clone().text();
      expect(text).not.toContain(sessionB);
      expect(text).not.toContain('b-desk');
      await route.foreign(res);
    });
  }

  it('B’s own token sees B’s session (the routes are not simply broken)', async () => {
    const res = await fetch(`${hub.url}/api/sessions/${sessionB}/messages`, { headers: { authorization: `Bearer ${tokenB}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { messages: unknown[] }).messages).toHaveLength(1);
  });
});
