// pre-auth.test.ts: what a socket may do before it authenticates, and which handshakes the engine
// accepts (origin.ts), against a real hub on 127.0.0.1 with raw WebSockets (a socket.io client would
// never send these).
import type { ServerWebSocket } from 'bun';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';
import { createPreAuthGate, PRE_AUTH_SOCKET_BYTES } from './pre-auth.ts';

const live = hubUnderTest({ home: 'tether-preauth-', label: 't', config: { allowedOrigins: ['https://tether.example'] } });
// The raw WebSockets are this file's own (a socket.io client would never send what they send);
// closed before the hub under test stops (after-hooks run last registered first).
const opened: WebSocket[] = [];
afterEach(() => {
  for (const ws of opened.splice(0)) ws.close();
});

/** A raw engine.io WebSocket, resolved once the engine's open packet arrived. */
async function rawSocket(headers: Record<string, string> = {}): Promise<{ ws: WebSocket; closed: Promise<number>; messages: string[] }> {
  const ws = new WebSocket(`${live.hub.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, { headers } as never);
  opened.push(ws);
  const messages: string[] = [];
  const closed = new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code)));
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('message', (e) => {
      messages.push(String(e.data));
      resolve();
    });
    ws.addEventListener('error', () => reject(new Error('websocket error')));
  });
  return { ws, closed, messages };
}

/** Resolves 'closed' if the hub closes the socket within ms, else 'open'. */
const within = (closed: Promise<number>, ms = 3000) => Promise.race([closed.then(() => 'closed' as const), Bun.sleep(ms).then(() => 'open' as const)]);

describe('before a socket authenticates', () => {
  it('a binary event header closes it before any attachment is buffered (issue 19, finding 1)', async () => {
    // The attack: announce 10 attachments, send fewer; socket.io would hold them until its timeout.
    const { ws, closed } = await rawSocket();
    const placeholders = Array.from({ length: 10 }, (_, num) => ({ _placeholder: true, num }));
    ws.send(`4510-${JSON.stringify(['terminal:output', ...placeholders])}`);
    ws.send(new Uint8Array(1024));
    expect(await within(closed)).toBe('closed');
  });

  it('a binary frame closes it', async () => {
    const { ws, closed } = await rawSocket();
    ws.send(new Uint8Array(64 * 1024));
    expect(await within(closed)).toBe('closed');
  });

  it('an event for a namespace it has not joined closes it', async () => {
    const { ws, closed } = await rawSocket();
    ws.send('42/web,["session:watch",{}]');
    expect(await within(closed)).toBe('closed');
  });

  it(`a handshake over ${PRE_AUTH_SOCKET_BYTES} bytes closes it`, async () => {
    const { ws, closed } = await rawSocket();
    ws.send(`40/web,${JSON.stringify({ token: 'x'.repeat(PRE_AUTH_SOCKET_BYTES) })}`);
    expect(await within(closed)).toBe('closed');
  });

  it('the main namespace, which has no login, is refused', async () => {
    const { ws, messages } = await rawSocket();
    ws.send('40');
    await new Promise((resolve) => ws.addEventListener('message', resolve, { once: true }));
    expect(messages.at(-1)).toMatch(/^44\{.*no such namespace/);
  });

  it('after authenticating, the same connection may send binary events', async () => {
    const { ws, closed, messages } = await rawSocket();
    ws.send(`40/cli,${JSON.stringify({ protocol: PROTOCOL_VERSION.major, client: 'runner', token: live.accessToken })}`);
    while (!messages.some((m) => m.startsWith('40/cli,'))) await new Promise((resolve) => ws.addEventListener('message', resolve, { once: true }));
    ws.send('451-/cli,0["terminal:output",{"sessionId":"00000000-0000-4000-8000-000000000000","offset":0,"data":{"_placeholder":true,"num":0}}]');
    ws.send(new Uint8Array(16));
    await new Promise((resolve) => ws.addEventListener('message', resolve, { once: true }));
    expect(messages.at(-1)).toMatch(/^43\/cli,0\[\{"ok":false/);
    expect(await within(closed, 300)).toBe('open');
  });
});

describe('over-deep payloads (issue 19, finding 6)', () => {
  const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}{}${'}'.repeat(levels)}`;

  it('a toolInput nested 50,000 deep is bad_request, nothing stored, the hub up', async () => {
    const { ws, messages } = await rawSocket();
    ws.send(`40/cli,${JSON.stringify({ protocol: PROTOCOL_VERSION.major, client: 'runner', token: live.accessToken })}`);
    const nextMessage = () => new Promise((resolve) => ws.addEventListener('message', resolve, { once: true }));
    while (!messages.some((m) => m.startsWith('40/cli,'))) await nextMessage();
    const sessionId = '00000000-0000-4000-8000-00000000000d';
    ws.send(`42/cli,1${JSON.stringify(['session:register', { id: sessionId, cwd: '/w', launchKind: 'pty' }])}`);
    while (!messages.some((m) => m.startsWith('43/cli,1'))) await nextMessage();
    const request = `{"id":"00000000-0000-4000-8000-0000000000e1","sessionId":"${sessionId}","kind":"permission","toolName":"Bash","toolUseId":null,"createdAt":1,"toolInput":${deepJson(50_000)}}`;
    ws.send(`42/cli,2["approval:request",${request}]`);
    while (!messages.some((m) => m.startsWith('43/cli,2'))) await nextMessage();
    const ack = JSON.parse(messages.find((m) => m.startsWith('43/cli,2'))!.slice('43/cli,2'.length)) as [{ ok: boolean; code: string; error: string }];
    expect(ack[0]).toMatchObject({ ok: false, code: 'bad_request' });
    expect(ack[0].error).toMatch(/nested deeper/);
    expect(await live.hub.store.listPending({ namespace: 'alpha', sessionId })).toEqual([]);
    expect((await fetch(`${live.hub.url}/healthz`)).status).toBe(200);
  });

  it('a REST body nested 50,000 deep is a 400', async () => {
    const res = await fetch(`${live.hub.url}/api/push/subscribe`, { method: 'POST', headers: { authorization: `Bearer ${live.accessToken}` }, body: `{"subscription":${deepJson(50_000)}}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('bad_request');
  });
});

describe('handshake requests', () => {
  const socketUrl = () => `${live.hub.url}/socket.io/?EIO=4&transport=polling`;

  it('long-polling is refused: WebSocket only', async () => {
    const res = await fetch(socketUrl());
    expect(res.status).toBe(403);
  });

  it('a browser page of another origin is refused', async () => {
    const ws = new WebSocket(`${live.hub.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, { headers: { Origin: 'http://evil.example' } } as never);
    opened.push(ws);
    const outcome = await new Promise<string>((resolve) => {
      ws.addEventListener('open', () => resolve('open'));
      ws.addEventListener('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
  });

  it("the hub's own origin, a configured one, and none at all (CLI) are accepted", async () => {
    for (const origin of [live.hub.url, 'https://tether.example', null]) {
      const { messages } = await rawSocket(origin ? { Origin: origin } : {});
      expect(messages[0]).toMatch(/^0\{"sid"/);
    }
    // socket.io-client on Bun sends no Origin: the CLI, daemon and hub-to-hub terminal links connect as before.
    (await live.connect({ nsp: '/web' })).close();
  });
});

describe('the hub-wide cap', () => {
  type Fake = { data: { transport: object }; closedWith: number | null; close(code: number): void };
  const fake = (): Fake => ({
    data: { transport: {} },
    closedWith: null,
    close(code) {
      this.closedWith = code;
    },
  });
  const handlerFor = (maxSockets: number) => {
    const seen: string[] = [];
    const gate = createPreAuthGate<{ transport: object }>({ key: (ws) => ws.data.transport, maxSockets });
    const handler = gate.wrap({ open() {}, message: (_ws, m) => void seen.push(String(m)), close() {} });
    const as = (f: Fake) => f as unknown as ServerWebSocket<{ transport: object }>;
    return { gate, seen, open: (f: Fake) => handler.open!(as(f)), send: (f: Fake, m: string) => handler.message!(as(f), m), close: (f: Fake) => handler.close!(as(f), 1000, '') };
  };

  it('past maxSockets unauthenticated sockets, a new one is closed; a slot frees when one authenticates or leaves', () => {
    const { gate, open, close } = handlerFor(2);
    const [a, b, c, d] = [fake(), fake(), fake(), fake()];
    open(a);
    open(b);
    open(c);
    expect(c.closedWith).toBe(1013);
    expect(gate.stats().sockets).toBe(2);
    gate.authenticated(a.data.transport);
    open(d);
    expect(d.closedWith).toBeNull();
    close(b);
    expect(gate.stats()).toEqual({ sockets: 1, bytes: 0 });
  });

  it('counts handshake bytes per socket until it authenticates; then anything passes', () => {
    const { gate, seen, open, send } = handlerFor(4);
    const a = fake();
    open(a);
    send(a, '40/web,{"token":"x"}');
    expect(gate.stats().bytes).toBe(20);
    gate.authenticated(a.data.transport);
    expect(gate.stats()).toEqual({ sockets: 0, bytes: 0 });
    send(a, '42/web,["session:watch",{}]');
    expect(seen).toEqual(['40/web,{"token":"x"}', '42/web,["session:watch",{}]']);
    expect(a.closedWith).toBeNull();
  });
});
