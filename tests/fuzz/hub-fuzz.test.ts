// hub-fuzz.test.ts: every socket event of /cli and /web and every REST route, fed ≥ 200 malformed
// payloads each (seeded, see malformed.ts) against a running hub. The hub must answer each with an
// error ack or a 4xx (or, for payloads over the 1 MiB cap, drop the connection), stay up (/healthz),
// and leave the database byte-for-byte as it was.
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  CliEventSchemas,
  LoginBodySchema,
  MessagePageQuerySchema,
  WebEventSchemas,
  type CliEventName,
  type WebEventName,
} from '@tether/shared';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import {
  createRandom,
  HUGE_STRING_CHARS,
  malformedBearers,
  malformedIds,
  malformedLoginBodies,
  malformedPayloads,
  malformedQueries,
} from './malformed.ts';

/** The issue asks for at least 200 per event and route. */
const PER_TARGET = 200;
/** Payloads over the cap per event: each costs a reconnect, a few prove the point. */
const HUGE_PER_EVENT = 3;
const SEED = 0x7e7e7;

let hub: HubHandle;
let db: Database;
let sessionId: string;
let requestId: string;
let promptId: string;

/** Row counts and a content hash of every table (tokens.last_used_at excluded: reads may touch it). */
function dumpDatabase(): { counts: Record<string, number>; hash: string } {
  const tables = (db.query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((t) => t.name);
  const counts: Record<string, number> = {};
  const hash = createHash('sha256');
  for (const table of tables) {
    const rows = db.query(`SELECT * FROM "${table}" ORDER BY 1, 2`).all() as Record<string, unknown>[];
    counts[table] = rows.length;
    for (const row of rows) {
      if (table === 'tokens') delete row.last_used_at;
      hash.update(`${table}:${JSON.stringify(row)}\n`);
    }
  }
  return { counts, hash: hash.digest('hex') };
}

async function healthy(): Promise<void> {
  const res = await fetch(`${hub.url}/healthz`);
  expect(res.status).toBe(200);
}

type Outcome = { kind: 'ack'; ack: { ok: boolean; code?: string } } | { kind: 'disconnected' } | { kind: 'timeout' };

function send(socket: Socket, event: string, payload: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const onDisconnect = () => resolve({ kind: 'disconnected' });
    socket.once('disconnect', onDisconnect);
    socket.timeout(10_000).emit(event, payload, (err: Error | null, ack: { ok: boolean; code?: string }) => {
      socket.off('disconnect', onDisconnect);
      resolve(err ? { kind: 'timeout' } : { kind: 'ack', ack });
    });
  });
}

function basePayloads(): { [E in CliEventName]: unknown } & { [E in WebEventName as `web:${E}`]: unknown } {
  const message = { id: 'm-base', role: 'user', content: [{ type: 'text', text: 'hi' }], createdAt: 1 };
  return {
    'session:register': { id: sessionId, cwd: '/work', launchKind: 'pty', title: 't', machineId: null, status: 'idle' },
    'session:update': { sessionId, patch: { title: 'x', status: 'idle', deskAttached: true } },
    'session:end': { sessionId, status: 'ended', exitCode: 0, reason: null },
    'message:append': { sessionId, messages: [message, { ...message, id: 'm-2', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { a: 1 } }] }] },
    'prompt:status': { sessionId, promptId, status: 'delivered', reason: null },
    'session:attention': { sessionId, notificationType: 'agent_needs_input', message: 'A background agent needs your input' },
    'approval:request': { id: randomUUID(), sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: 1 },
    'approval:withdraw': { sessionId, requestId, reason: 'gone' },
    'approval:desk-answer': { sessionId, requestId, answer: { decision: 'allow' }, device: 'desk@host' },
    'approval:dialog-outcome': { sessionId, requestId, decision: 'deny' },
    'terminal:output': { sessionId, offset: 0, data: Buffer.from('hello') },
    'terminal:snapshot': { sessionId, offset: 0, cols: 80, rows: 24, data: 'screen' },
    'terminal:size': { sessionId, offset: 0, cols: 80, rows: 24, desk: false },
    'machine:register': { id: randomUUID(), name: 'desk', os: 'linux', user: 'me', home: '/home/me' },
    'web:session:watch': { sessionId, afterSeq: 0 },
    'web:session:unwatch': { sessionId },
    'web:prompt:send': { sessionId, promptId: randomUUID(), text: 'hello' },
    'web:session:abort': { sessionId },
    'web:session:set-model': { sessionId, model: 'opus' },
    'web:session:set-effort': { sessionId, level: 'low' },
    'web:session:set-mode': { sessionId, mode: 'plan' },
    'web:approval:answer': { requestId, answer: { decision: 'allow', reason: 'ok', answers: { q: 'a' } } },
    'web:terminal:subscribe': { sessionId, since: 0 },
    'web:terminal:unsubscribe': { sessionId },
    'web:terminal:input': { sessionId, data: 'ls\r' },
    'web:terminal:resize': { sessionId, cols: 80, rows: 24 },
    'web:terminal:desk': { sessionId, attached: true, cols: 80, rows: 24 },
    'web:terminal:ack': { sessionId, offset: 0 },
    'runner:exited': { sessionId, exitCode: 1, signal: null, reason: 'crashed' },
    // Unknown machine / session ids: these answer at once instead of waiting for a daemon.
    'web:session:spawn': { machineId: randomUUID(), cwd: '/work', launchKind: 'headless', createDir: false },
    'web:session:stop': { sessionId: randomUUID() },
    'web:session:resume': { sessionId },
    'web:client:visibility': { visible: false },
    // Web shells (off on this hub): the ids are well-formed, the shells do not exist.
    'shell:output': { shellId: 'a'.repeat(32), offset: 0, data: Buffer.from('$ '), reset: false },
    'shell:exit': { shellId: 'a'.repeat(32), exitCode: 0, signal: null, reason: 'exited' },
    'web:shell:open': { machineId: randomUUID(), viewerId: 'v'.repeat(32), cwd: '~', cols: 80, rows: 24 },
    'web:shell:input': { shellId: 'a'.repeat(32), data: 'ls\r' },
    'web:shell:resize': { shellId: 'a'.repeat(32), cols: 80, rows: 24 },
    'web:shell:close': { shellId: 'a'.repeat(32) },
    'web:shell:leave': { shellId: 'a'.repeat(32) },
  };
}

beforeAll(async () => {
  // The runner socket below closes at once; with the default 30 s grace its pending request would be
  // withdrawn mid-run (a real change the before/after dumps would catch, in whichever test runs then).
  hub = await startHub({ runnerGoneGraceMs: 60 * 60_000 });
  db = new Database(join(hub.home, 'hub.sqlite'), { readonly: true });
  const cli = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  const web = await connectSocket({ url: hub.url, nsp: '/web', token: hub.token });
  sessionId = randomUUID();
  requestId = randomUUID();
  promptId = randomUUID();
  expect((await emitAck(cli, 'session:register', { id: sessionId, cwd: '/work', launchKind: 'pty' })).ok).toBe(true);
  expect((await emitAck(cli, 'message:append', { sessionId, messages: [{ id: 'm0', role: 'user', content: [{ type: 'text', text: 'x' }], createdAt: 1 }] })).ok).toBe(true);
  expect((await emitAck(cli, 'approval:request', { id: requestId, sessionId, kind: 'permission', toolName: 'Bash', toolInput: {}, toolUseId: null, createdAt: 1 })).ok).toBe(true);
  expect((await emitAck(web, 'prompt:send', { sessionId, promptId, text: 'p' })).ok).toBe(true);
  cli.close();
  web.close();
});

afterAll(async () => {
  db?.close();
  await hub?.stop();
});

const SOCKET_TARGETS: Array<{ nsp: '/cli' | '/web'; event: string; key: string }> = [
  ...(Object.keys(CliEventSchemas) as CliEventName[]).map((event) => ({ nsp: '/cli' as const, event, key: event })),
  ...(Object.keys(WebEventSchemas) as WebEventName[]).map((event) => ({ nsp: '/web' as const, event, key: `web:${event}` })),
];

describe('fuzz: socket events', () => {
  it('covers every event of both namespaces', () => {
    expect(SOCKET_TARGETS.length).toBe(Object.keys(CliEventSchemas).length + Object.keys(WebEventSchemas).length);
  });

  it.each(SOCKET_TARGETS.map((t) => [`${t.nsp} ${t.event}`, t] as const))('%s', async (_name, target) => {
    const schemas = (target.nsp === '/cli' ? CliEventSchemas : WebEventSchemas) as Record<string, (typeof CliEventSchemas)[CliEventName]>;
    const random = createRandom(SEED ^ [...target.key].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7));
    const base = (basePayloads() as Record<string, unknown>)[target.key];
    expect(schemas[target.event]!.safeParse(base).success, 'the base payload is valid').toBe(true);
    const payloads = malformedPayloads({ random, base, schema: schemas[target.event]!, count: PER_TARGET });
    const before = dumpDatabase();
    const connect = () => connectSocket({ url: hub.url, nsp: target.nsp, token: hub.token });
    let socket = await connect();
    try {
      const codes = new Map<string, number>();
      for (const payload of payloads) {
        const outcome = await send(socket, target.event, payload);
        expect(outcome.kind, 'a payload under the cap gets an ack').toBe('ack');
        if (outcome.kind !== 'ack') continue;
        expect(outcome.ack.ok).toBe(false);
        codes.set(outcome.ack.code ?? '?', (codes.get(outcome.ack.code ?? '?') ?? 0) + 1);
      }
      expect([...codes.keys()]).toEqual(['bad_request']);
      for (let i = 0; i < HUGE_PER_EVENT; i++) {
        const huge = i === 0 ? 'x'.repeat(HUGE_STRING_CHARS) : { ...(base as object), sessionId: 'y'.repeat(HUGE_STRING_CHARS + i) };
        const outcome = await send(socket, target.event, huge);
        // Over the cap the transport drops the connection before any handler sees the bytes.
        if (outcome.kind === 'ack') expect(outcome.ack.ok).toBe(false);
        else expect(outcome.kind).toBe('disconnected');
        if (!socket.connected) socket = await connect();
      }
      // An unknown event and an event without an ack on the same socket: still answered / ignored.
      expect((await send(socket, `${target.event}:nope`, {})).kind).toBe('ack');
      socket.emit(target.event, { broken: true });
      await healthy();
      expect(dumpDatabase()).toEqual(before);
    } finally {
      socket.close();
    }
  });

  it('left Object.prototype alone', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('fuzz: REST routes', () => {
  const auth = () => ({ authorization: `Bearer ${hub.token}` });

  it('POST /api/auth/login: malformed bodies → 400, over the cap → 413', async () => {
    const before = dumpDatabase();
    const bodies = malformedLoginBodies({ random: createRandom(SEED + 1), schema: LoginBodySchema, count: PER_TARGET });
    for (const body of bodies) {
      const res = await fetch(`${hub.url}/api/auth/login`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      expect(res.status, body.slice(0, 80)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'bad_request' });
    }
    const huge = await fetch(`${hub.url}/api/auth/login`, { method: 'POST', body: JSON.stringify({ token: 'x'.repeat(HUGE_STRING_CHARS) }) });
    expect(huge.status).toBe(413);
    await healthy();
    expect(dumpDatabase()).toEqual(before);
  });

  it('GET /api/sessions/:id and /:id/messages: malformed ids → 4xx', async () => {
    const before = dumpDatabase();
    for (const id of malformedIds({ random: createRandom(SEED + 2), count: PER_TARGET })) {
      for (const path of [`/api/sessions/${id}`, `/api/sessions/${id}/messages`]) {
        const res = await fetch(hub.url + path, { headers: auth() });
        expect(res.status, path.slice(0, 80)).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    }
    await healthy();
    expect(dumpDatabase()).toEqual(before);
  });

  it('GET /api/sessions/:id/messages: malformed queries → 400', async () => {
    const before = dumpDatabase();
    for (const query of malformedQueries({ random: createRandom(SEED + 3), schema: MessagePageQuerySchema, count: PER_TARGET })) {
      const qs = Object.keys(query)
        .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(query[k]!)}`)
        .join('&');
      const res = await fetch(`${hub.url}/api/sessions/${sessionId}/messages?${qs}`, { headers: auth() });
      expect(res.status, qs).toBe(400);
    }
    await healthy();
    expect(dumpDatabase()).toEqual(before);
  });

  it.each(['/api/sessions', '/api/machines', '/api/sessions/:id', '/api/sessions/:id/messages'])('%s: malformed credentials → 401', async (route) => {
    const before = dumpDatabase();
    const path = route.replace(':id', sessionId);
    for (const header of malformedBearers({ random: createRandom(SEED + route.length), count: PER_TARGET })) {
      const res = await fetch(hub.url + path, { headers: header ? { authorization: header } : {} });
      expect(res.status, header.slice(0, 60)).toBe(401);
    }
    await healthy();
    expect(dumpDatabase()).toEqual(before);
  });
});
