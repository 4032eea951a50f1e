// One live Codex thread on two screens: a headless Codex session a daemon started from the phone is
// joined at the machine's desk by Codex's own TUI (`tether codex --join <session>`, which runs
// `codex resume <thread> --remote ws://127.0.0.1:<port> --remote-auth-token-env …`). A prompt from
// the hub is seen on the desk's screen; a turn typed at the desk reaches the hub's chat; the desk
// quitting leaves the session going. The app server binds 127.0.0.1 only and refuses a client
// without the token; the token is in no process's command line and no log, only in a 0600 record
// that the session's end removes. A Codex before remote.ts's JOIN_UNWRITTEN_FROM (the floor pin)
// joins only once the thread's first turn is written: asked before, the desk is told why.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { codexBin, CODEX_READY } from '../harness/codex.ts';
import { startCodexDaemonWorld } from '../harness/codex-world.ts';
import { startTetherInPty } from '../harness/desk.ts';
import { emitAck } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { JOIN_UNWRITTEN_FROM } from '../../cli/src/agents/codex/remote.ts';
import { codexVersions } from '../../cli/src/agents/codex/version.ts';
import { compareVersions } from '../../cli/src/agents/version.ts';

const defer = useCleanups();

/** `tether codex --join <session>` at a desk of this world. */
function joinAtDesk(world: Awaited<ReturnType<typeof startCodexDaemonWorld>>, session: string) {
  const desk = startTetherInPty({
    args: ['codex', '--join', session],
    env: { ...world.sandbox.env, TETHER_HOME: world.daemon.home, TETHER_CODEX_BIN: codexBin() },
    cwd: world.sandbox.cwd,
    cols: 110,
    rows: 35,
  });
  defer(() => desk.stop());
  return desk;
}

/** Whether a WebSocket client with these headers gets through the app server's handshake. */
function handshake(url: string, headers: Record<string, string>): Promise<'open' | 'refused'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers } as unknown as string[]);
    socket.addEventListener('open', () => {
      socket.close();
      resolve('open');
    });
    socket.addEventListener('error', () => resolve('refused'));
  });
}

/** Every command line on this machine that holds `secret`. */
function commandLinesHolding(secret: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return line.includes(secret) ? [`${pid}: ${line.replaceAll('\0', ' ')}`] : [];
      } catch {
        return [];
      }
    });
}

/** Every file under `dir` (the runner's logs) that holds `secret`. */
function filesHolding(dir: string, secret: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    if (!entry.isFile() || entry.parentPath.endsWith('joins')) return [];
    const path = join(entry.parentPath, entry.name);
    return readFileSync(path, 'utf8').includes(secret) ? [path] : [];
  });
}

describe('Codex: one live thread on two screens', () => {
  it('the hub\'s prompt is seen in the desk\'s TUI, the desk\'s turn reaches the hub\'s chat, and the session goes on after the desk quits; only a client with the token gets in', async () => {
    // A Codex older than JOIN_UNWRITTEN_FROM (the floor pin) joins only after the thread's first turn.
    const version = codexVersions.read(codexBin())!;
    const joinsBeforeFirstTurn = compareVersions(version, JOIN_UNWRITTEN_FROM) >= 0;
    const world = await startCodexDaemonWorld(defer, {
      script: [...(joinsBeforeFirstTurn ? [] : [when(userSays('first from the hub'), text('a first answer'))]), when(userSays('from the hub'), text('the hub was answered')), when(userSays('from the desk'), text('the desk was answered')), when(userSays('after the desk'), text('still here'))],
    });
    const { session, sessionId, watch } = await world.spawn('headless');
    expect(session).toMatchObject({ agent: 'codex', launchKind: 'headless' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });

    // The record the desk reads: this user's only, a loopback listener, the live thread.
    const record = join(world.daemon.home, 'joins', `${sessionId}.json`);
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(statSync(join(world.daemon.home, 'joins')).mode & 0o777).toBe(0o700);
    const joined = JSON.parse(readFileSync(record, 'utf8')) as { url: string; token: string; agentSessionId: string };
    expect(joined.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(joined.token.length).toBeGreaterThanOrEqual(40);
    expect(await handshake(joined.url, {})).toBe('refused');
    expect(await handshake(joined.url, { Authorization: 'Bearer not-the-token' })).toBe('refused');
    expect(commandLinesHolding(joined.token)).toEqual([]);

    // Before the thread's first turn: a Codex older than JOIN_UNWRITTEN_FROM finds no conversation
    // yet (its rollout is written with the first turn), so the desk is told so and nothing starts.
    const early: string[] = [];
    if (!joinsBeforeFirstTurn) {
      const refused = joinAtDesk(world, sessionId);
      expect(await refused.exited).toBe(1);
      expect(refused.screenText()).toContain(`Codex ${version} joins a thread only once its first turn is written`);
      await watch.send('first from the hub');
      await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'a first answer'), { what: 'the first reply' });
      await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the first turn' });
      early.push('first from the hub');
    }

    const desk = joinAtDesk(world, sessionId.slice(0, 8));
    await desk.waitForScreen(CODEX_READY, { timeoutMs: 30_000 });
    expect(commandLinesHolding(joined.token)).toEqual([]);

    // The hub's prompt: a turn of the headless session, drawn live at the desk.
    await watch.send('from the hub');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'the hub was answered'), { what: 'the reply in the hub\'s chat' });
    await desk.waitForScreen(/› from the hub[^]*the hub was answered/);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the hub\'s turn' });
    await desk.waitForScreen(CODEX_READY);

    // The desk's turn: the same thread, so the hub's chat has it, prompt and reply.
    desk.paste('from the desk');
    await desk.waitForScreen('from the desk');
    desk.write('\r');
    await desk.waitForScreen(/the desk was answered/);
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'the desk was answered'), { what: 'the desk\'s reply in the hub\'s chat' });
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'user' && chatText(m) === 'from the desk'), { what: 'the desk\'s prompt in the hub\'s chat' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the desk\'s turn' });

    // The desk quits (Ctrl-C twice at an idle prompt): the session goes on for the hub.
    await desk.waitForScreen(CODEX_READY);
    desk.write('\x03');
    await Bun.sleep(300);
    desk.write('\x03');
    expect(await desk.exited).toBe(0);
    await watch.send('after the desk');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'still here'), { what: 'a reply after the desk quit' });
    const said = watch.messages().filter((m) => m.role === 'user').map(chatText);
    expect(said).toEqual([...early, 'from the hub', 'from the desk', 'after the desk']);
    expect(watch.duplicates()).toBe(0);
    expect(world.sandbox.transcripts()).toHaveLength(1);

    // Nothing of ours wrote the token down (the runner's log says where it joined, not with what);
    // the end removes the record.
    expect(readFileSync(join(world.daemon.home, 'logs', `session-${sessionId}.log`), 'utf8')).toContain(`listens on ${joined.url}`);
    expect(filesHolding(world.daemon.home, joined.token)).toEqual([]);
    expect((await emitAck(world.phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
    await watch.waitFor(() => !existsSync(record) || null, { what: 'the record removed' });
  }, 150_000);

  it('a session that is not joinable here is refused with the reason, nothing started', async () => {
    const world = await startCodexDaemonWorld(defer, {});
    const desk = joinAtDesk(world, '0b7a4f5e-1c2d-4e3f-8a9b-0c1d2e3f4a5b');
    expect(await desk.exited).toBe(1);
    expect(desk.screenText()).toMatch(/no session 0b7a4f5e-1c2d-4e3f-8a9b-0c1d2e3f4a5b can be joined on this machine/);
  }, 60_000);
});
