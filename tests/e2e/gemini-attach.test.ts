// Phone → desk hand-off with `tether attach` for Gemini CLI (real hub, real daemon, the real Gemini CLI
// against the fake Gemini API): a PTY Gemini session started from the phone is driven from a desk
// terminal and left running on detach (Ctrl-]); the phone drives it again after. Attach knows no agent.
import { describe, expect, it } from 'vitest';
import { lastUserText, text, type ScriptTurn } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { GEMINI_READY, geminiBin } from '../harness/gemini.ts';
import { startGeminiDaemonWorld } from '../harness/gemini-world.ts';
import { startDesk } from '../harness/daemon.ts';
import { emitAck } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';

const defer = useCleanups();

describe('tether attach to Gemini', () => {
  it('drives a PTY Gemini session started from the phone; Ctrl-] detaches and the session keeps running', async () => {
    const echo: ScriptTurn = (request) => text(`answered at the desk: ${lastUserText(request)}`);
    const { hub, sandbox, daemon, phone, spawn } = await startGeminiDaemonWorld(defer, { script: [echo, echo] });
    const { sessionId, watch } = await spawn();
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle', timeoutMs: 60_000 });
    // Idle: its SessionStart hook ran too (the runner's start gate), so it named the session.
    expect(watch.session()?.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(watch.session()?.deskAttached).toBe(false);

    const desk = startDesk({
      cols: 109,
      rows: 33,
      args: ['attach', sessionId],
      cwd: sandbox.cwd,
      env: { ...sandbox.env, TETHER_HOME: daemon.home, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_GEMINI_BIN: geminiBin() },
    });
    defer(() => desk.stop());
    await desk.waitForScreen(GEMINI_READY, { timeoutMs: 30_000 });
    await watch.waitFor(() => watch.session()?.deskAttached === true, { what: 'deskAttached', timeoutMs: 30_000 });
    desk.paste('hello from the attached desk');
    await desk.waitForScreen('hello from the attached desk');
    await watch.waitFor(() => watch.session()?.controller === 'desk', { what: 'controller desk' });
    // Gemini takes an Enter within 40 ms of a paste as a newline (Agent.pasteSettleMs).
    await Bun.sleep(600);
    desk.write('\r');
    await desk.waitForScreen('answered at the desk: hello from the attached desk');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'answered at the desk: hello from the attached desk'), { what: 'reply in the chat' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn' });
    await desk.waitForScreen(GEMINI_READY);

    desk.write('\x1d');
    expect(await desk.exited).toBe(0);
    expect(desk.output()).toContain(`detached from ${sessionId}`);
    await watch.waitFor(() => watch.session()?.deskAttached === false, { what: 'desk detached', timeoutMs: 30_000 });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'still idle after detach' });
    await watch.send('from the phone after');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'answered at the desk: from the phone after'), { what: 'reply after detach' });
    expect(watch.messages().filter((m) => m.role === 'user').map(chatText)).toEqual(['hello from the attached desk', 'from the phone after']);
    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
  }, 150_000);
});
