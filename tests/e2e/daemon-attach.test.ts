// Phone → desk hand-off with `tether attach` (real hub, real daemon, real claude against the fake
// API): a PTY session started from the phone is driven from a desk terminal and left running on
// detach (Ctrl-]); a headless one is resumed in a PTY under the same tether session and claude
// session id, and the chat continues with nothing lost or duplicated. A hub restart does not end an
// attachment.
import { DESK_READY } from '../harness/world.ts';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text } from '../fixtures/fake-anthropic/index.ts';
import { claudeBin, createClaudeSandbox } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck, startRestartableHub } from '../harness/hub.ts';
import { SPAWN_ACK_MS, startDaemon } from '../harness/daemon.ts';
import { attachDesk, expectDeskOwnsSize, expectDetached, expectNoConversationToAttach, sizeNotices } from '../harness/attach.ts';
import { chatText, runTether, watchSession } from '../harness/runner.ts';
import { connectPhone, startDaemonWorld } from '../harness/world.ts';
import type { Session } from '@tether/shared';

/** claude's idle, empty input box. */
const READY = DESK_READY;

const defer = useCleanups();

/** A daemon world answering `replies`, plus attach(): `tether attach` at a desk terminal. */
async function world(replies: string[]) {
  const started = await startDaemonWorld(defer, { script: replies.map((r) => text(r)) });
  const attach = (sessionId: string, size: { cols?: number; rows?: number } = {}) => attachDesk(defer, { world: started, sessionId, ...size, agentEnv: { TETHER_CLAUDE_BIN: claudeBin() } });
  return { ...started, attach };
}

describe('tether attach', () => {
  it('drives a PTY session started from the phone; Ctrl-] detaches and the session keeps running', async () => {
    const { hub, sandbox, daemon, phone, attach, startWatch } = await world(['typed at the desk, answered']);
    const ack = (await emitAck<{ session: Session }>(phone, 'session:spawn', { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'pty' }, SPAWN_ACK_MS));
    expect(ack.ok).toBe(true);
    const sessionId = ack.ok ? ack.session.id : '';
    const watch = await startWatch(sessionId);

    // The phone watches the terminal too: it hears who owns the PTY size.
    const sizes = sizeNotices({ phone, sessionId, watch });
    expect((await emitAck(phone, 'terminal:subscribe', { sessionId })).ok).toBe(true);
    expect(watch.session()?.deskAttached).toBe(false);

    const desk = attach(sessionId, { cols: 91, rows: 27 });
    await desk.waitForScreen(READY);
    // The attached desk owns the size, and the hub knows a desk is attached.
    await expectDeskOwnsSize({ watch, sizes, cols: 91, rows: 27 });
    desk.write('hello from the attached desk');
    await desk.waitForScreen('hello from the attached desk');
    await watch.waitFor(() => watch.session()?.controller === 'desk', { what: 'controller desk' });
    desk.write('\r');
    await desk.waitForScreen('typed at the desk, answered');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'typed at the desk, answered'), { what: 'reply in the chat' });
    expect(watch.messages().filter((m) => m.role === 'user').map(chatText)).toEqual(['hello from the attached desk']);

    await expectDetached({ desk, watch, sizes, sessionId });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'still idle after detach' });
    expect((await hub.store.getSession({ namespace: hub.namespace, sessionId }))?.status).toBe('idle');
    await emitAck(phone, 'session:stop', { sessionId }, 30_000);
  });

  it('an attached desk survives a hub restart: it says so, rejoins, owns the size again and keeps typing', async () => {
    const fake = await startFakeAnthropic({ script: [text('typed after the restart, answered')] });
    defer(() => fake.stop());
    const hubProcess = await startRestartableHub(defer);
    const { hub } = hubProcess;
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const daemon = await startDaemon({ hub, sandbox });
    defer(() => daemon.stop());
    const phone = await connectPhone(defer, hub);
    const ack = await emitAck<{ session: Session }>(phone, 'session:spawn', { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'pty' }, SPAWN_ACK_MS);
    expect(ack.ok).toBe(true);
    const sessionId = ack.ok ? ack.session.id : '';
    const desk = attachDesk(defer, { world: { hub, sandbox, daemon }, sessionId, cols: 91, rows: 27, agentEnv: { TETHER_CLAUDE_BIN: claudeBin() } });
    await desk.waitForScreen(READY);
    phone.close();

    await hubProcess.kill('SIGKILL');
    await desk.waitForScreen('lost the hub');
    await hubProcess.start();

    // A phone that joins after the restart sees the desk owning the size: it was announced again.
    const later = await connectPhone(defer, hub);
    const deskOwnsSize = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for the desk to own the size after the restart')), 20_000);
      later.on('terminal:size', (n: { sessionId: string; cols: number; rows: number; owner: string }) => {
        if (n.sessionId !== sessionId || n.owner !== 'desk' || n.cols !== 91 || n.rows !== 27) return;
        clearTimeout(timer);
        resolve();
      });
    });
    expect((await emitAck(later, 'terminal:subscribe', { sessionId })).ok).toBe(true);
    await deskOwnsSize;
    const watch = await watchSession({ hub, sessionId });
    defer(() => watch.stop());
    await watch.waitFor(() => watch.session()?.deskAttached === true, { what: 'deskAttached after the restart' });
    // The notice is in what the desk printed (the snapshot that follows repaints the screen).
    await watch.waitFor(() => desk.output().includes('back on the hub'), { what: 'the desk told it is back' });

    await desk.waitForScreen(READY);
    desk.write('after the restart');
    await desk.waitForScreen('after the restart');
    desk.write('\r');
    await desk.waitForScreen('typed after the restart, answered');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'typed after the restart, answered'), { what: 'reply in the chat' });
    desk.write('\x1d');
    expect(await desk.exited).toBe(0);
    await emitAck(later, 'session:stop', { sessionId }, 30_000);
  }, 120_000);

  it('a headless session is resumed in a PTY: same session, same claude session id, chat continuous', async () => {
    const { sandbox, daemon, phone, attach, startWatch } = await world(['headless answer', 'pty answer']);
    const ack = await emitAck<{ session: Session }>(phone, 'session:spawn', { machineId: daemon.machineId(), cwd: sandbox.cwd }, SPAWN_ACK_MS);
    expect(ack.ok).toBe(true);
    const sessionId = ack.ok ? ack.session.id : '';
    const watch = await startWatch(sessionId);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
    // Before its first prompt claude has written no conversation and `claude --resume` finds none:
    // the hub is not told of the claude session yet, and attach leaves the session running.
    await expectNoConversationToAttach({ sessionId, watch, attach });
    await watch.send('question from the phone');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'headless answer'), { what: 'headless answer' });
    const agentSessionId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: 'claude session id' });

    const desk = attach(sessionId);
    await desk.waitForScreen(READY, { timeoutMs: 45_000 });
    await watch.waitFor(() => watch.session()?.launchKind === 'pty' && watch.session()?.status === 'idle', { what: 'pty session idle' });
    desk.write('question from the desk');
    await desk.waitForScreen('question from the desk');
    desk.write('\r');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'pty answer'), { what: 'pty answer' });

    const texts = watch.messages().map(chatText).filter((t) => t);
    expect(texts).toEqual(['question from the phone', 'headless answer', 'question from the desk', 'pty answer']);
    expect(watch.duplicates()).toBe(0);
    expect(watch.session()).toMatchObject({ id: sessionId, agentSessionId, launchKind: 'pty' });
    expect(sandbox.transcripts()).toHaveLength(1);
    desk.write('\x1d');
    expect(await desk.exited).toBe(0);
    await emitAck(phone, 'session:stop', { sessionId }, 30_000);
  });

  it('tether sessions shows the machine; tether attach without an id lists live sessions and attaches the one picked', async () => {
    const { hub, sandbox, daemon, phone, attach, startRunner, startWatch } = await world(['spawned answer']);
    const ack = await emitAck<{ session: Session }>(phone, 'session:spawn', { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'pty' }, SPAWN_ACK_MS);
    expect(ack.ok).toBe(true);
    const spawned = ack.ok ? ack.session.id : '';
    const deskRunner = startRunner();
    await deskRunner.waitForScreen(READY);
    const env = { TETHER_HOME: daemon.home, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };

    const table = await runTether(['sessions'], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+MACHINE\s+STATUS/);
    expect(table.stdout.split('\n').find((l) => l.startsWith(spawned))).toContain('test-machine');
    // Waits until the desk runner has registered (watch retries until the hub knows the session).
    await watchSession({ hub, sessionId: deskRunner.sessionId }).then((w) => w.stop());
    const listed = await runTether(['sessions'], env);
    expect(listed.stdout.split('\n').find((l) => l.startsWith(deskRunner.sessionId))).toMatch(/^\S+\s+desk\s/);
    const json = JSON.parse((await runTether(['sessions', '--json'], env)).stdout) as { sessions: Array<Session & { machineName: string | null }> };
    expect(json.sessions.find((s) => s.id === spawned)?.machineName).toBe('test-machine');
    expect(json.sessions.find((s) => s.id === deskRunner.sessionId)?.machineName).toBeNull();

    // No TTY (or --json): print the list and fail clearly.
    const noTty = await runTether(['attach'], env);
    expect(noTty.code).toBe(2);
    expect(noTty.stdout).toContain(spawned);
    expect(noTty.stderr).toContain('no session id given');
    const asJson = await runTether(['attach', '--json'], env);
    expect(asJson.code).toBe(2);
    expect((JSON.parse(asJson.stdout) as { sessions: Session[] }).sessions.map((s) => s.id).sort()).toEqual([spawned, deskRunner.sessionId].sort());

    // With a TTY: pick the spawned session by its number.
    const desk = attach('');
    const screen = await desk.waitForScreen(/attach to which session\? \[1-2\]/);
    const row = screen.split('\n').find((l) => l.includes(spawned))!;
    desk.write(`${row.trim().split(/\s+/)[0]}\r`);
    await desk.waitForScreen(READY);
    const watch = await startWatch(spawned);
    await watch.waitFor(() => watch.session()?.deskAttached === true, { what: 'the picked session has the desk' });
    desk.write('\x1d');
    expect(await desk.exited).toBe(0);
    await emitAck(phone, 'session:stop', { sessionId: spawned }, 30_000);
  });
});
