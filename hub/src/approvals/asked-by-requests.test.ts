// A request a sub-agent asks, over real sockets: the hub takes `askedBy` only in the protocol's bounded
// shape (anything else is refused and stores nothing), keeps it with the request, and hands it to
// the phone both live and in the session's pending list (a phone that opens later).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, type Ack } from '@tether/shared';
import { createHub, type Hub } from '../main.ts';
import { createAccessToken } from '../auth/tokens.ts';

let home: string;
let hub: Hub;
let token: string;
const sockets: Socket[] = [];

function connect(nsp: '/cli' | '/web'): Promise<Socket> {
  const socket = io(hub.url + nsp, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { protocol: PROTOCOL_VERSION.major, client: nsp === '/cli' ? 'runner' : 'web', token },
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}
const ack = async (s: Socket, event: string, payload?: unknown) => (await s.timeout(5000).emitWithAck(event, payload)) as Ack<object> & Record<string, unknown>;
const next = <T>(s: Socket, event: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event}`)), 5000);
    s.once(event, (p: T) => {
      clearTimeout(timer);
      resolve(p);
    });
  });

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'tether-asked-by-'));
  hub = await createHub({ config: { port: 0, home } });
  token = (await createAccessToken({ store: hub.store, namespace: 'alpha', label: 'phone-token' })).token;
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await hub.stop();
  rmSync(home, { recursive: true, force: true });
});

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
    expect(await hub.store.listPending({ namespace: 'alpha', sessionId })).toEqual([]);
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
    const detail = await fetch(`${hub.url}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(detail.status).toBe(200);
    expect(((await detail.json()) as { pending: unknown[] }).pending).toEqual([expect.objectContaining({ id: request.id, askedBy })]);
  });
});
