// The hub-link against a tiny socket.io server of its own that speaks the /cli contract: ordering,
// resend until acked (lost acks, hub restarts), re-registration on every connect; and the daemon's
// side of it (machine registration, runner:exited reports, acked commands, giving up when refused).
import { createServer, type Server as HttpServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHubLink, type HubLink, type HubLinkState } from './link.ts';
import { memoryOutbox, openOutbox, outboxLockPath } from './outbox.ts';
import { deliverOrphanOutboxes } from './orphans.ts';
import { existsSync, writeFileSync } from 'node:fs';
import { WorktreeLossSchema } from '@tether/shared';

const SESSION = '11111111-2222-4333-8444-555555555555';
const UNKNOWN = '22222222-2222-4333-8444-555555555555';
const MACHINE = '33333333-2222-4333-8444-555555555555';

type FakeHub = {
  port: number;
  received: string[];
  ends: Array<{ status: string; reason: string | null }>;
  registrations: number;
  /** machine:register payloads and the auth `client` of each connection, in order. */
  machines: Array<{ id: string; client: string }>;
  /** runner:exited reports acked ok (a session named UNKNOWN is not_found). */
  exits: Array<{ sessionId: string; pid: number | null }>;
  /** Send a command to every connected client and collect the acks. */
  command(event: string, payload: unknown): Promise<unknown[]>;
  /** Ack nothing for the next n message:append calls (the hub stored them but the ack was lost). */
  loseAcks(n: number): void;
  stop(): Promise<void>;
  restart(): Promise<void>;
};

async function startFakeHub(port = 0): Promise<FakeHub> {
  const received: string[] = [];
  const ends: Array<{ status: string; reason: string | null }> = [];
  let registrations = 0;
  const machines: Array<{ id: string; client: string }> = [];
  const exits: Array<{ sessionId: string; pid: number | null }> = [];
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
      socket.on('machine:register', (payload: { id: string }, ack) => {
        machines.push({ id: payload.id, client: socket.handshake.auth.client });
        ack({ ok: true });
      });
      socket.on('runner:exited', (payload: { sessionId: string; pid: number | null }, ack) => {
        if (payload.sessionId === UNKNOWN) return ack({ ok: false, code: 'not_found', error: 'no such session' });
        exits.push({ sessionId: payload.sessionId, pid: payload.pid });
        ack({ ok: true });
      });
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
    machines,
    exits,
    command: (event, payload) => io.of('/cli').timeout(2000).emitWithAck(event, payload),
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

describe('the daemon on the hub link', () => {
  const refuse = () => ({ ok: false as const, code: 'bad_request' as const, error: 'not in this test' });
  const daemonLink = (hub: FakeHub, options: { token?: string; giveUpAfterRefusals?: number; onState?: (state: HubLinkState) => void } = {}) => {
    const link = connectHubLink({
      client: 'daemon',
      hubUrl: `http://127.0.0.1:${hub.port}`,
      token: options.token ?? 'good',
      outbox: memoryOutbox(),
      registration: () => ({ id: MACHINE, name: 'box', os: 'linux', user: 'me', home: '/home/me' }),
      commands: {
        'daemon:spawn': refuse,
        'daemon:kill': ({ sessionId }) => ({ ok: true, killed: sessionId === SESSION }),
        'daemon:outside': refuse,
        'daemon:rules-remove': refuse,
        'daemon:shell-open': refuse,
        'daemon:shell-input': refuse,
        'daemon:shell-resize': refuse,
        'daemon:shell-close': refuse,
        'daemon:shell-detach': refuse,
        'daemon:worktree-probe': refuse,
        'daemon:worktree-inspect': refuse,
        // Answers later: a daemon's git work is asynchronous, and the ack waits for it.
        'daemon:worktree-remove': async ({ path }) => ({ ok: true, removed: path, lost: WorktreeLossSchema.parse({ uncommitted: [], unpushed: [] }) }),
      },
      ackTimeoutMs: 500,
      ...(options.giveUpAfterRefusals ? { giveUpAfterRefusals: options.giveUpAfterRefusals } : {}),
      ...(options.onState ? { onState: options.onState } : {}),
    });
    cleanups.push(() => link.stop());
    return link;
  };

  it('registers the machine as a daemon; runner exits reported while down are delivered after it, one the hub does not know is dropped', async () => {
    const hub = await startFakeHub();
    await hub.stop();
    const link = daemonLink(hub);
    link.push('runner:exited', { sessionId: UNKNOWN, pid: 7, exitCode: null });
    link.push('runner:exited', { sessionId: SESSION, pid: 8, exitCode: 0 });
    await hub.restart();
    cleanups.push(() => hub.stop());
    expect(await link.drain(15_000)).toBe(true);
    expect(hub.machines).toEqual([{ id: MACHINE, client: 'daemon' }]);
    expect(hub.exits).toEqual([{ sessionId: SESSION, pid: 8 }]);
  }, 30_000);

  it("acks the hub's commands with the handler's answer, a bad payload with bad_request", async () => {
    const hub = await startFakeHub();
    cleanups.push(() => hub.stop());
    const link = daemonLink(hub);
    await expect.poll(() => link.connected(), { timeout: 5000 }).toBe(true);
    expect(await hub.command('daemon:kill', { sessionId: SESSION })).toEqual([{ ok: true, killed: true }]);
    expect(await hub.command('daemon:kill', { sessionId: 'nope' })).toEqual([expect.objectContaining({ ok: false, code: 'bad_request' })]);
    // An asynchronous handler's answer is the ack, once it resolves.
    expect(await hub.command('daemon:worktree-remove', { repo: '/r', path: '/r.worktrees/b' })).toEqual([{ ok: true, removed: '/r.worktrees/b', lost: { uncommitted: [], unpushed: [], ignored: [], ignoredMore: 0, rebuildable: [], rebuildableMore: 0, digest: null } }]);
  });

  it('stops and says so after giveUpAfterRefusals refused handshakes', async () => {
    const hub = await startFakeHub();
    cleanups.push(() => hub.stop());
    const states: HubLinkState[] = [];
    daemonLink(hub, { token: 'bad', giveUpAfterRefusals: 1, onState: (state) => states.push(state) });
    await expect.poll(() => states.at(-1)?.kind, { timeout: 5000 }).toBe('gave-up');
    expect(states).toEqual([
      { kind: 'connecting' },
      { kind: 'down', reason: 'unauthorized', refused: true },
      { kind: 'gave-up', reason: 'unauthorized', refusals: 1 },
    ]);
  });
});
