// Phone → desk hand-off with `tether attach` for Codex (real hub, real daemon, the real Codex CLI
// against the fake Responses API): a PTY Codex session started from the phone is driven from a desk
// terminal and left running on detach (Ctrl-]); a headless one (codex app-server) is resumed in a PTY
// (`tether codex resume <thread>`) under the same tether session and the same Codex thread, and the
// chat continues with nothing lost or duplicated. Before its first turn there is no thread to resume,
// and attach says so without ending the session; during a turn, the hand-over interrupts that turn
// (the chat says so) and the PTY goes on from there. (claude's: daemon-attach.test.ts.)
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { delayed, lastUserText, text, userSays, when, type ScriptTurn } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { CODEX_READY, codexBin, codexStarted } from '../harness/codex.ts';
import { startCodexDaemonWorld } from '../harness/codex-world.ts';
import { attachDesk, expectDeskOwnsSize, expectDetached, expectNoConversationToAttach, sizeNotices } from '../harness/attach.ts';
import type { DeskHandle } from '../harness/daemon.ts';
import { emitAck } from '../harness/hub.ts';
import { chatText, type SessionWatch } from '../harness/runner.ts';

const defer = useCleanups();
/** The desk terminal's size: not the runner's default, so owning the size is seen. */
const DESK_SIZE = { cols: 109, rows: 33 };

/** A daemon world with Codex answering `script`, plus attach(): `tether attach` at a desk terminal. */
async function codexDaemonWorld(script: ScriptTurn[]) {
  const world = await startCodexDaemonWorld(defer, { script });
  const spawn = async (launchKind: 'pty' | 'headless') => {
    const { session, sessionId, watch } = await world.spawn(launchKind);
    expect(session).toMatchObject({ agent: 'codex', launchKind });
    return { sessionId, watch };
  };
  const attach = (sessionId: string) => attachDesk(defer, { world, sessionId, ...DESK_SIZE, agentEnv: { TETHER_CODEX_BIN: codexBin() } });
  return { ...world, spawn, attach };
}

/** The PTY turn over, the desk detaches (Ctrl-]) and the phone ends the session. */
async function detachThenEnd(o: { watch: SessionWatch; desk: DeskHandle; phone: Socket; sessionId: string }): Promise<void> {
  await o.watch.waitFor(() => o.watch.session()?.status === 'idle', { what: 'idle after the pty turn' });
  await o.desk.waitForScreen(CODEX_READY);
  o.desk.write('\x1d');
  expect(await o.desk.exited).toBe(0);
  expect((await emitAck(o.phone, 'session:stop', { sessionId: o.sessionId }, 30_000)).ok).toBe(true);
}

describe('tether attach to Codex', () => {
  it('drives a PTY Codex session started from the phone; Ctrl-] detaches and the session keeps running', async () => {
    const echo: ScriptTurn = (request) => text(`answered at the desk: ${lastUserText(request)}`);
    const { hub, sandbox, phone, spawn, attach } = await codexDaemonWorld([echo, echo]);
    const { sessionId, watch } = await spawn('pty');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
    expect(watch.session()?.deskAttached).toBe(false);
    // The phone watches the terminal too: it hears who owns the PTY size.
    const sizes = sizeNotices({ phone, sessionId, watch });
    expect((await emitAck(phone, 'terminal:subscribe', { sessionId })).ok).toBe(true);

    const desk = attach(sessionId);
    await desk.waitForScreen(CODEX_READY);
    // A desk types once Codex has started its session (codexStarted): keys pasted before were lost.
    await desk.waitForScreen(codexStarted(sandbox.cwd));
    await expectDeskOwnsSize({ watch, sizes, ...DESK_SIZE });
    desk.paste('hello from the attached desk');
    await desk.waitForScreen('hello from the attached desk');
    await watch.waitFor(() => watch.session()?.controller === 'desk', { what: 'controller desk' });
    desk.write('\r');
    await desk.waitForScreen('answered at the desk: hello from the attached desk');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'answered at the desk: hello from the attached desk'), { what: 'reply in the chat' });
    expect(watch.messages().filter((m) => m.role === 'user').map(chatText)).toEqual(['hello from the attached desk']);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn' });
    // The turn is over on Codex's screen too before the desk leaves (a key during it would interrupt).
    await desk.waitForScreen(CODEX_READY);

    await expectDetached({ desk, watch, sizes, sessionId });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'still idle after detach' });
    expect((await hub.store.getSession({ namespace: hub.namespace, sessionId }))?.status).toBe('idle');
    // Still driven from the phone after the desk left.
    await watch.send('from the phone after');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'answered at the desk: from the phone after'), { what: 'reply after detach' });
    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
  }, 120_000);

  it('a headless Codex session is resumed in a PTY: same session, same Codex thread, chat continuous', async () => {
    const echo: ScriptTurn = (request) => text(`codex says: ${lastUserText(request)}`);
    const { sandbox, phone, spawn, attach } = await codexDaemonWorld([echo, echo]);
    const { sessionId, watch } = await spawn('headless');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });

    // Before its first turn a Codex thread has no rollout and `codex resume` cannot find it: the hub
    // is not told of the thread yet, and attach leaves the session running instead of ending it.
    await expectNoConversationToAttach({ sessionId, watch, attach });

    await watch.send('question from the phone');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'codex says: question from the phone'), { what: 'headless answer' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the headless turn' });
    const threadId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: 'Codex thread id' });

    const desk = attach(sessionId);
    await desk.waitForScreen(CODEX_READY, { timeoutMs: 45_000 });
    await desk.waitForScreen(codexStarted(sandbox.cwd));
    // The hand-over is told in the session's own agent's words.
    expect(desk.output()).toContain('resuming the same codex session in a PTY');
    await watch.waitFor(() => watch.session()?.launchKind === 'pty' && watch.session()?.status === 'idle', { what: 'pty session idle' });
    desk.paste('question from the desk');
    await desk.waitForScreen('question from the desk');
    desk.write('\r');
    await desk.waitForScreen('codex says: question from the desk');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'codex says: question from the desk'), { what: 'pty answer' });

    const texts = watch.messages().map(chatText).filter((t) => t);
    expect(texts).toEqual(['question from the phone', 'codex says: question from the phone', 'question from the desk', 'codex says: question from the desk']);
    expect(watch.messages().filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content))).toEqual([
      JSON.stringify([{ type: 'text', text: 'question from the phone' }]),
      JSON.stringify([{ type: 'text', text: 'question from the desk' }]),
    ]);
    expect(watch.duplicates()).toBe(0);
    expect(watch.session()).toMatchObject({ id: sessionId, agent: 'codex', agentSessionId: threadId, launchKind: 'pty' });
    expect(sandbox.transcripts()).toHaveLength(1);
    await detachThenEnd({ watch, desk, phone, sessionId });
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
  }, 150_000);

  it('attached during a headless turn: the turn is interrupted, and the PTY carries on the same thread', async () => {
    const echo: ScriptTurn = (request) => text(`codex says: ${lastUserText(request)}`);
    // The first reply is held back far longer than the test: the turn is under way when the desk comes.
    const { sandbox, phone, spawn, attach } = await codexDaemonWorld([when(userSays('slow question'), delayed(text('too late'), 120_000)), echo]);
    const { sessionId, watch } = await spawn('headless');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
    await watch.send('slow question');
    await watch.waitFor(() => watch.session()?.status === 'thinking', { what: 'thinking' });
    const threadId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: 'Codex thread id (its rollout begun)' });

    const desk = attach(sessionId);
    await desk.waitForScreen(CODEX_READY, { timeoutMs: 45_000 });
    await desk.waitForScreen(codexStarted(sandbox.cwd));
    await watch.waitFor(() => watch.session()?.launchKind === 'pty' && watch.session()?.status === 'idle', { what: 'pty session idle' });
    desk.paste('question from the desk');
    await desk.waitForScreen('question from the desk');
    desk.write('\r');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'codex says: question from the desk'), { what: 'pty answer' });

    expect(watch.messages().map((m) => `${m.role}: ${m.content.map((b) => b.type).join(',')} ${chatText(m)}`)).toEqual([
      'user: text slow question',
      'user: interrupt ',
      'user: text question from the desk',
      'assistant: text codex says: question from the desk',
    ]);
    expect(watch.duplicates()).toBe(0);
    expect(watch.session()).toMatchObject({ id: sessionId, agentSessionId: threadId, launchKind: 'pty' });
    expect(sandbox.transcripts()).toHaveLength(1);
    await detachThenEnd({ watch, desk, phone, sessionId });
  }, 150_000);
});
