// The hub-link against a tiny socket.io server of its own that speaks the /cli contract: ordering,
// resend until acked (lost acks, hub restarts), re-registration on every connect.
import { createServer, type Server as HttpServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHubLink, type HubLink } from './link.ts';
import { openOutbox, outboxLockPath } from './outbox.ts';
import { deliverOrphanOutboxes } from './orphans.ts';
import { existsSync, writeFileSync } from 'node:fs';

const SESSION = '11111111-2222-4333-8444-555555555555';

type FakeHub = {
  port: number;
  received: string[];
  ends: Array<{ status: string; reason: string | null }>;
  registrations: number;
  /** Ack nothing for the next n message:append calls (the hub stored them but the ack was lost). */
  loseAcks(n: number): void;
  stop(): Promise<void>;
  restart(): Promise<void>;
};

async function startFakeHub(port = 0): Promise<FakeHub> {
  const received: string[] = [];
  const ends: Array<{ status: string; reason: string | null }> = [];
  let registrations = 0;
  let lose = 0;
  let http: HttpServer;
  let io: Server;
  const listen = async (at: number) => {
    http = createServer();
    io = new Server(http, { transports: ['websocket'] });
    io.of('/cli').use((socket, next) => (socket.handshake.auth.token === 'good' ? next() : next(new Error('unauthorized'))));
    io.of('/cli').on('connection', (socket) => {
      socket.on('session:register', (payload, ack) => {
        registrations += 1;
        ack({ ok: true, session: { id: payload.id } });
      });
      socket.on('message:append', (payload: { messages: Array<{ id: string }> }, ack) => {
        for (const m of payload.messages) if (!received.includes(m.id)) received.push(m.id); // idempotent by id
        if (lose > 0) {
          lose -= 1;
          return;
        }
        ack({ ok: true, added: payload.messages.length, lastSeq: received.length });
      });
      socket.on('session:update', (_payload, ack) => ack({ ok: true, session: {} }));
      socket.on('session:end', (payload: { status: string; reason: string | null }, ack) => {
        ends.push(payload);
        ack({ ok: true, session: {} });
      });
    });
    await new Promise<void>((resolve) => http.listen(at, '127.0.0.1', resolve));
    return (http.address() as { port: number }).port;
  };
  const bound = await listen(port);
  const hub: FakeHub = {
    port: bound,
    received,
    ends,
    get registrations() {
      return registrations;
    },
    loseAcks: (n) => {
      lose = n;
    },
    stop: async () => {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
    restart: async () => {
      await listen(bound);
    },
  };
  return hub;
}

function message(id: string) {
  return { id, role: 'user' as const, content: [{ type: 'text' as const, text: id }], createdAt: 1 };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function setup(hub: FakeHub, token = 'good'): { link: HubLink; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tether-outbox-'));
  const outbox = openOutbox({ dir, sessionId: SESSION });
  const link = connectHubLink({
    hubUrl: `http://127.0.0.1:${hub.port}`,
    token,
    sessionId: SESSION,
    outbox,
    registration: () => ({ id: SESSION, cwd: '/tmp', launchKind: 'pty' }),
    commands: {},
    ackTimeoutMs: 500,
  });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }), () => outbox.close(), () => link.stop());
  return { link, dir };
}

describe('hub-link outbox', () => {
  it('delivers in order and exactly once across lost acks', async () => {
    const hub = await startFakeHub();
    cleanups.push(() => hub.stop());
    const { link } = setup(hub);
    hub.loseAcks(1);
    const ids = Array.from({ length: 50 }, (_, i) => `m${i}`);
    for (const id of ids) link.push('message:append', { sessionId: SESSION, messages: [message(id)] });
    expect(await link.drain(20_000)).toBe(true);
    expect(hub.received).toEqual(ids);
  }, 30_000);

  it('buffers while the hub is down and delivers after it comes back, re-registering', async () => {
    const hub = await startFakeHub();
    const { link } = setup(hub);
    await expect.poll(() => link.connected(), { timeout: 5000 }).toBe(true);
    link.push('message:append', { sessionId: SESSION, messages: [message('before')] });
    expect(await link.drain(5000)).toBe(true);
    await hub.stop();
    await expect.poll(() => link.connected(), { timeout: 5000 }).toBe(false);
    for (const id of ['d1', 'd2', 'd3']) link.push('message:append', { sessionId: SESSION, messages: [message(id)] });
    link.push('session:update', { sessionId: SESSION, patch: { status: 'idle' } });
    await hub.restart();
    cleanups.push(() => hub.stop());
    expect(await link.drain(15_000)).toBe(true);
    expect(hub.received).toEqual(['before', 'd1', 'd2', 'd3']);
    expect(hub.registrations).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('keeps entries on disk for the next runner when the hub never answers', async () => {
    const hub = await startFakeHub();
    await hub.stop();
    const { link, dir } = setup(hub);
    link.push('message:append', { sessionId: SESSION, messages: [message('x')] });
    expect(await link.drain(300)).toBe(false);
    const again = openOutbox({ dir, sessionId: SESSION });
    expect(again.peek(10).map((e) => e.event)).toEqual(['message:append']);
    again.close();
  });
});

describe('orphan outboxes', () => {
  it('delivers an outbox whose runner is gone, ends its session, and deletes it; a live owner is left alone', async () => {
    const hub = await startFakeHub();
    cleanups.push(() => hub.stop());
    const dir = mkdtempSync(join(tmpdir(), 'tether-orphans-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const orphan = openOutbox({ dir, sessionId: SESSION });
    orphan.setMeta('registration', JSON.stringify({ id: SESSION, cwd: '/tmp', launchKind: 'pty', status: 'thinking' }));
    orphan.push('message:append', { sessionId: SESSION, messages: [message('o1')] });
    orphan.push('message:append', { sessionId: SESSION, messages: [message('o2')] });
    orphan.close();
    const LIVE = '99999999-2222-4333-8444-555555555555';
    const live = openOutbox({ dir, sessionId: LIVE });
    live.setMeta('registration', JSON.stringify({ id: LIVE, cwd: '/tmp', launchKind: 'pty' }));
    live.push('message:append', { sessionId: LIVE, messages: [message('live')] });
    cleanups.push(() => live.close());
    // A lock naming a dead pid is an orphan too.
    writeFileSync(outboxLockPath({ dir, sessionId: SESSION }), '2147483646');

    const result = await deliverOrphanOutboxes({ dir, hubUrl: `http://127.0.0.1:${hub.port}`, token: 'good' });
    expect(result.delivered).toEqual([SESSION]);
    expect(hub.received).toEqual(['o1', 'o2']);
    expect(hub.ends).toEqual([expect.objectContaining({ status: 'failed', reason: expect.stringContaining('stopped without ending') })]);
    expect(existsSync(join(dir, `${SESSION}.sqlite`))).toBe(false);
    expect(live.size()).toBe(1);
  });
});
