// namespace-isolation.test.ts: a token of namespace A can list, read, subscribe to or write nothing of
// namespace B, over every REST route and every socket event that takes an id. Each case is run twice:
// on A's own ids (must work: the check is not vacuous) and on B's ids (must fail, change nothing of
// B's, and deliver nothing to B's sockets).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Store } from '@tether/hub';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import { agentFor } from '../../cli/src/agents/index.ts';

type Ids = { sessionId: string; requestId: string; promptId: string; machineId: string };

let hub: HubHandle;
let tokenA: string;
let tokenB: string;
let sessionA: string;
let sessionB: string;
/** An attachment B uploaded to its session. */
let attachmentB: string;
let jwtA: string;
const machineB = randomUUID();
let webA: Socket;
let cliA: Socket;
let webB: Socket;
let cliB: Socket;
const heardByB: string[] = [];

async function dumpNamespace(store: Store, namespace: string): Promise<string> {
  const sessions = await store.listSessions({ namespace });
  const each = <T>(read: (sessionId: string) => Promise<T>) => Promise.all(sessions.map((s) => read(s.id)));
  return JSON.stringify({
    sessions,
    messages: await each((sessionId) => store.listMessages({ namespace, sessionId, limit: 500 })),
    pending: await each((sessionId) => store.listPending({ namespace, sessionId })),
    audit: await each((sessionId) => store.listAudit({ namespace, sessionId, limit: 500 })),
    prompts: await each((sessionId) => store.listPrompts({ namespace, sessionId })),
    commands: await each((sessionId) => store.getSessionCommands({ namespace, sessionId })),
    machines: await store.listMachines({ namespace }),
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
    // claude's capabilities, as its runner states them: the same call on A's own session must work.
    expect((await emitAck(cli, 'session:register', { id, cwd: '/secret', launchKind: 'pty', title: 'private', capabilities: agentFor('claude').capabilities })).ok).toBe(true);
    expect((await emitAck(cli, 'message:append', { sessionId: id, messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: 'secret' }], createdAt: 1 }] })).ok).toBe(true);
  }
  expect((await emitAck(cliB, 'machine:register', { id: machineB, name: 'b-desk', os: 'linux', user: 'b', home: '/home/b' })).ok).toBe(true);
  expect((await emitAck(webB, 'session:watch', { sessionId: sessionB })).ok).toBe(true);
  expect((await emitAck(webB, 'terminal:subscribe', { sessionId: sessionB })).ok).toBe(true);
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const uploaded = await fetch(`${hub.url}/api/sessions/${sessionB}/attachments?name=private.png`, { method: 'POST', headers: { authorization: `Bearer ${tokenB}` }, body: png });
  attachmentB = ((await uploaded.json()) as { attachment: { id: string } }).attachment.id;
  webB.onAny((event: string) => heardByB.push(`web:${event}`));
  cliB.onAny((event: string) => heardByB.push(`cli:${event}`));
});

afterAll(async () => {
  for (const s of [webA, cliA, webB, cliB]) s?.close();
  await hub?.stop();
});

/** `subscribe`: the control subscribes to its own terminal first (input and resize need it); the
 *  attack subscribes too (and is refused), then writes anyway. */
/** `dialog`: the request is first taken to claude's dialog by its own runner (what the event needs). */
type Case = { nsp: '/cli' | '/web'; event: string; payload: (ids: Ids) => unknown; subscribe?: boolean; dialog?: boolean };

const SOCKET_CASES: Case[] = [
  // /web: everything a viewer can do to a session or request
  { nsp: '/web', event: 'session:watch', payload: (i) => ({ sessionId: i.sessionId, afterSeq: 0 }) },
  { nsp: '/web', event: 'session:unwatch', payload: (i) => ({ sessionId: i.sessionId }) },
  { nsp: '/web', event: 'prompt:send', payload: (i) => ({ sessionId: i.sessionId, promptId: randomUUID(), text: 'rm -rf' }) },
  { nsp: '/web', event: 'session:abort', payload: (i) => ({ sessionId: i.sessionId }) },
  { nsp: '/web', event: 'session:set-model', payload: (i) => ({ sessionId: i.sessionId, model: 'opus' }) },
  { nsp: '/web', event: 'session:set-effort', payload: (i) => ({ sessionId: i.sessionId, level: 'low' }) },
  { nsp: '/web', event: 'session:set-mode', payload: (i) => ({ sessionId: i.sessionId, mode: 'plan' }) },
  { nsp: '/web', event: 'session:pin', payload: (i) => ({ sessionId: i.sessionId, pinned: true }) },
  // Unarchive: the sessions here run, and only an ended session may be archived.
  { nsp: '/web', event: 'session:archive', payload: (i) => ({ sessionId: i.sessionId, archived: false }) },
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
  { nsp: '/cli', event: 'session:command-finished', payload: (i) => ({ sessionId: i.sessionId, command: '/model', args: 'sonnet', outcome: 'kept' }) },
  { nsp: '/cli', event: 'prompt:status', payload: (i) => ({ sessionId: i.sessionId, promptId: i.promptId, status: 'dropped' }) },
  { nsp: '/cli', event: 'session:commands', payload: (i) => ({ sessionId: i.sessionId, commands: [{ name: 'pwn', description: 'x', source: 'project' }] }) },
  {
    nsp: '/cli',
    event: 'approval:request',
    payload: (i) => ({ id: randomUUID(), sessionId: i.sessionId, kind: 'permission', toolName: 'Bash', toolInput: {}, toolUseId: null, createdAt: 1 }),
  },
  { nsp: '/cli', event: 'approval:withdraw', payload: (i) => ({ sessionId: i.sessionId, requestId: i.requestId }) },
  { nsp: '/cli', event: 'approval:desk-answer', payload: (i) => ({ sessionId: i.sessionId, requestId: i.requestId, answer: { decision: 'allow' } }) },
  { nsp: '/cli', event: 'approval:dialog-outcome', payload: (i) => ({ sessionId: i.sessionId, requestId: i.requestId, decision: 'allow' }), dialog: true },
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
    if (c.dialog) {
      for (const [cli, ids] of [[cliA, mine], [cliB, theirs]] as const) {
        expect(await emitAck(cli, 'approval:desk-answer', { sessionId: ids.sessionId, requestId: ids.requestId, answer: null, device: 'desk' })).toMatchObject({ ok: true, won: true });
      }
      await flushB();
      heardByB.splice(0);
    }
    const control = await emitAck(socket, c.event, c.payload(mine));
    expect(control, 'the same call on A’s own ids works').toMatchObject({ ok: true });

    const before = await dumpNamespace(hub.store, 'beta');
    if (c.subscribe) expect(await emitAck(socket, 'terminal:subscribe', { sessionId: theirs.sessionId })).toMatchObject({ ok: false, code: 'not_found' });
    const attack = await emitAck(socket, c.event, c.payload(theirs));
    expect(attack.ok).toBe(false);
    expect(['not_found', 'forbidden']).toContain(!attack.ok && attack.code);
    await flushB();
    expect(await dumpNamespace(hub.store, 'beta')).toBe(before);
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
    const before = await dumpNamespace(hub.store, 'beta');
    expect(await emitAck(cliA, 'machine:register', { id: machineB, name: 'evil', os: 'x', user: 'x', home: '/x' })).toMatchObject({ ok: true });
    await flushB();
    expect(await dumpNamespace(hub.store, 'beta')).toBe(before);
    expect(heardByB).toEqual([]);
    expect((await hub.store.listMachines({ namespace: 'beta' }))[0]?.name).toBe('b-desk');
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
    { name: 'GET /api/sessions/:id/commands', path: () => `/api/sessions/${sessionB}/commands`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/attachments/:aid', path: () => `/api/sessions/${sessionB}/attachments/${attachmentB}`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/messages?after', path: () => `/api/sessions/${sessionB}/messages?after=0`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/messages?before', path: () => `/api/sessions/${sessionB}/messages?before=9`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/changes', path: () => `/api/sessions/${sessionB}/changes`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/files', path: () => `/api/sessions/${sessionB}/files?path=src`, foreign: async (res) => expect(res.status).toBe(404) },
    { name: 'GET /api/sessions/:id/file', path: () => `/api/sessions/${sessionB}/file?path=README.md`, foreign: async (res) => expect(res.status).toBe(404) },
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

  it('A cannot upload to, delete from or send with B’s attachments, and B’s stay as they were', async () => {
    const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
    for (const credential of [tokenA, jwtA]) {
      const auth = { authorization: `Bearer ${credential}` };
      const uploaded = await fetch(`${hub.url}/api/sessions/${sessionB}/attachments?name=x.png`, { method: 'POST', headers: auth, body: png });
      expect(uploaded.status).toBe(404);
      const deleted = await fetch(`${hub.url}/api/sessions/${sessionB}/attachments/${attachmentB}`, { method: 'DELETE', headers: auth });
      expect(deleted.status).toBe(404);
      // B's id named in A's own session is unknown there.
      const sent = await emitAck(webA, 'prompt:send', { sessionId: sessionA, promptId: randomUUID(), text: 'see', attachments: [attachmentB] });
      expect(sent).toMatchObject({ ok: false, code: 'bad_request' });
    }
    const own = await fetch(`${hub.url}/api/sessions/${sessionB}/attachments/${attachmentB}`, { headers: { authorization: `Bearer ${tokenB}` } });
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(png);
    expect(await hub.store.findAttachments({ namespace: 'beta', sessionId: sessionB, ids: [attachmentB] })).toHaveLength(1);
  });

  it('B’s own token sees B’s session (the routes are not simply broken)', async () => {
    const res = await fetch(`${hub.url}/api/sessions/${sessionB}/messages`, { headers: { authorization: `Bearer ${tokenB}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { messages: unknown[] }).messages).toHaveLength(1);
  });
});

/** Web shells (shared/src/shell.ts) on a hub that enables them, with a stand-in daemon per namespace
 *  that allows shells and answers every command: A's viewer and A's daemon reach A's shells only. */
describe('namespace isolation: web shells', () => {
  let shellHub: HubHandle;
  const sockets: Socket[] = [];
  type Side = { web: Socket; daemon: Socket; machineId: string };
  let sideA: Side;
  let sideB: Side;
  const heard: string[] = [];

  async function side(token: string, listen: boolean): Promise<Side> {
    const machineId = randomUUID();
    const daemon = await connectSocket({ url: shellHub.url, nsp: '/cli', token, client: 'daemon' });
    const web = await connectSocket({ url: shellHub.url, nsp: '/web', token });
    sockets.push(daemon, web);
    daemon.onAny((event: string, ...args: unknown[]) => {
      if (listen) heard.push(`daemon:${event}`);
      const ack = args[args.length - 1];
      if (typeof ack === 'function') (ack as (a: unknown) => void)(event === 'daemon:shell-open' ? { ok: true, reattached: false, pid: 1 } : { ok: true });
    });
    if (listen) web.onAny((event: string) => heard.push(`web:${event}`));
    expect(await emitAck(daemon, 'machine:register', { id: machineId, name: 'shell-desk', os: 'linux', user: 'u', home: '/home/u', shell: true })).toMatchObject({ ok: true });
    return { web, daemon, machineId };
  }
  const openShell = async (s: Side) => {
    const ack = await emitAck<{ shellId: string }>(s.web, 'shell:open', { machineId: s.machineId, viewerId: randomUUID().replace(/-/g, ''), cols: 80, rows: 24 });
    expect(ack).toMatchObject({ ok: true });
    return ack.ok ? ack.shellId : '';
  };

  beforeAll(async () => {
    shellHub = await startHub({ shell: true });
    sideA = await side(shellHub.token, false);
    sideB = await side(await shellHub.createToken('beta'), true);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await shellHub?.stop();
  });

  type ShellCase = { via: 'web' | 'daemon'; event: string; payload: (ids: { machineId: string; shellId: string }) => unknown };
  const SHELL_CASES: ShellCase[] = [
    { via: 'web', event: 'shell:open', payload: (i) => ({ machineId: i.machineId, viewerId: 'same-viewer-id-0123456789', cols: 80, rows: 24 }) },
    { via: 'web', event: 'shell:input', payload: (i) => ({ shellId: i.shellId, data: 'whoami\r' }) },
    { via: 'web', event: 'shell:resize', payload: (i) => ({ shellId: i.shellId, cols: 20, rows: 5 }) },
    { via: 'web', event: 'shell:close', payload: (i) => ({ shellId: i.shellId }) },
    { via: 'web', event: 'shell:leave', payload: (i) => ({ shellId: i.shellId }) },
    { via: 'daemon', event: 'shell:output', payload: (i) => ({ shellId: i.shellId, offset: 0, data: Buffer.from('fake prompt $ ') }) },
    { via: 'daemon', event: 'shell:exit', payload: (i) => ({ shellId: i.shellId, exitCode: 0 }) },
  ];

  it.each(SHELL_CASES.map((c) => [`${c.via} ${c.event}`, c] as const))('%s', async (_name, c) => {
    const mine = { machineId: sideA.machineId, shellId: await openShell(sideA) };
    const theirs = { machineId: sideB.machineId, shellId: await openShell(sideB) };
    const socket = c.via === 'web' ? sideA.web : sideA.daemon;
    expect(await emitAck(socket, c.event, c.payload(mine)), 'the same call on A’s own ids works').toMatchObject({ ok: true });
    heard.splice(0);
    const attack = await emitAck(socket, c.event, c.payload(theirs));
    expect(attack).toMatchObject({ ok: false, code: 'not_found' });
    // A round trip on each of B's sockets: anything sent to them before is delivered by now.
    await emitAck(sideB.web, 'client:visibility', { visible: false });
    await emitAck(sideB.daemon, 'flush:round-trip', {});
    expect(heard).toEqual([]);
  });
});
