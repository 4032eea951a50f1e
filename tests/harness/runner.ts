// runner.ts: run `tether claude …` as a real process with a desk TTY, the way a user does.
//
//   test ──write()──► bun-pty ──► bun cli/src/main.ts claude ──PTY──► claude ──► fake Anthropic API
//        ◄─screenText()/waitForScreen()── @xterm/headless ◄──desk bytes──┘   └──socket.io /cli──► hub
//
// The runner gets TETHER_HUB_URL/TETHER_TOKEN (when a hub is given), a private TETHER_HOME,
// TETHER_CLAUDE_BIN (the pinned claude) and TETHER_SESSION_ID (so the test knows the session id
// without asking anyone), plus the sandbox's offline claude env. stop() kills and removes it all.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeBin, type ClaudeSandbox } from './claude.ts';
import { codexBin } from './codex.ts';
import { geminiBin } from './gemini.ts';
import { DEFAULT_WAIT_MS, startTetherInPty, TETHER_MAIN, type TetherPty } from './desk.ts';
import { createWaits } from './waiting.ts';
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, type AgentKind, type ChatMessage, type PendingRequest, type Prompt, type Resolution, type Session } from '@tether/shared';

export { TETHER_MAIN };

export type RunnerHandle = TetherPty & { sessionId: string; home: string };

export function startRunner(options: {
  hub?: { url: string; token: string } | null;
  /** The agent's sandbox: its env and project dir. */
  sandbox: Pick<ClaudeSandbox, 'env' | 'cwd'>;
  /** `tether <agent>`; default claude. */
  agent?: AgentKind;
  /** Unused: the sandbox already points claude at it. Accepted so call sites read naturally. */
  fakeApi?: unknown;
  args?: string[];
  cols?: number;
  rows?: number;
  /** Reuse a TETHER_HOME (resume tests); otherwise a fresh temp one removed by stop(). */
  home?: string;
  sessionId?: string;
  env?: Record<string, string>;
  /** The tether to run (default: this checkout's sources). */
  command?: string[];
}): RunnerHandle {
  const ownHome = !options.home;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'tether-runner-'));
  const sessionId = options.sessionId ?? crypto.randomUUID();
  const env: Record<string, string> = {
    ...options.sandbox.env,
    TETHER_HOME: home,
    TETHER_CLAUDE_BIN: options.env?.TETHER_CLAUDE_BIN ?? claudeBin(),
    TETHER_CODEX_BIN: options.env?.TETHER_CODEX_BIN ?? codexBin(),
    TETHER_GEMINI_BIN: options.env?.TETHER_GEMINI_BIN ?? geminiBin(),
    TETHER_SESSION_ID: sessionId,
    ...(options.hub ? { TETHER_HUB_URL: options.hub.url, TETHER_TOKEN: options.hub.token } : {}),
    ...options.env,
  };
  if (!options.hub) {
    delete env.TETHER_HUB_URL;
    delete env.TETHER_TOKEN;
  }
  const desk = startTetherInPty({ args: [options.agent ?? 'claude', ...(options.args ?? [])], env, cwd: options.sandbox.cwd, cols: options.cols, rows: options.rows, ...(options.command ? { command: options.command } : {}) });
  return {
    ...desk,
    sessionId,
    home,
    stop: async () => {
      await desk.stop();
      if (ownHome) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Waits for a line in the runner's own log (TETHER_HOME/logs/runner.log): what a runner with no
 *  hub to tell says about itself (e.g. its start gate opening). */
export async function waitForRunnerLog(runner: Pick<RunnerHandle, 'home'>, pattern: RegExp, options: { timeoutMs?: number } = {}): Promise<string> {
  const file = join(runner.home, 'logs', 'runner.log');
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const line = text.split('\n').find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)} in ${file}; its tail:\n${text.slice(-2000)}`);
    await Bun.sleep(100);
  }
}

/** Runs `tether <args>` without a TTY (env on top of this process's) and resolves with its exit
 *  code and output; async, so a hub in this process keeps serving meanwhile. */
export async function runTether(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, TETHER_MAIN, ...args], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

// ---- a phone's view of one session: a /web socket that watches it --------------------------------


/** How often `watchSession` retries `session:watch` until the runner has registered the session. */
const WATCH_RETRY_MS = 100;

export type SessionWatch = {
  socket: Socket;
  /** Every chat message seen, by seq (deduped by id, as a web client keeps them). */
  messages(): ChatMessage[];
  /** Count of message ids received more than once (must stay 0). */
  duplicates(): number;
  session(): Session | null;
  prompts(): Map<string, Prompt>;
  /** Every approval request heard, from the socket's first moment, and those already pending when
   *  the watch joined (the hub's watch ack): a request raised before this watch is not missed. */
  requested: PendingRequest[];
  resolved: Resolution[];
  waitFor<T>(probe: () => T | null | undefined | false, options?: { timeoutMs?: number; what?: string }): Promise<T>;
  /** Re-runs pending waitFor probes: for state a caller keeps from events of its own. */
  changed(): void;
  /** `prompt:send` as the phone does; resolves with the ack. */
  send(text: string, promptId?: string): Promise<{ ok: boolean; promptId: string; error?: string }>;
  emit(event: string, payload: unknown): Promise<{ ok: boolean } & Record<string, unknown>>;
  stop(): void;
};

export async function watchSession(options: { hub: { url: string; token: string }; sessionId: string; timeoutMs?: number }): Promise<SessionWatch> {
  const socket = io(`${options.hub.url}/web`, {
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 200,
    reconnectionDelayMax: 1000,
    auth: { protocol: PROTOCOL_VERSION.major, client: 'web', token: options.hub.token, device: 'test phone' },
  });
  const byId = new Map<string, ChatMessage>();
  const prompts = new Map<string, Prompt>();
  let duplicates = 0;
  let session: Session | null = null;
  let lastSeq = 0;
  const waits = createWaits();
  // Probes re-run after every handler of the event has run (a test's own handler on this socket
  // records what its probe reads), so a microtask later rather than inside the first handler.
  const changed = () => queueMicrotask(waits.changed);
  const take = (messages: ChatMessage[]) => {
    for (const m of messages) {
      if (byId.has(m.id)) duplicates += 1;
      byId.set(m.id, m);
      lastSeq = Math.max(lastSeq, m.seq);
    }
    changed();
  };
  socket.on('message:added', (payload: { sessionId: string; messages: ChatMessage[] }) => {
    if (payload.sessionId === options.sessionId) take(payload.messages);
  });
  /** The newer of two copies, as the web app keeps it (web/src/lib/queries.ts upsertSession): the
   *  watch ack's copy is read before its other queries, so a session:updated sent meanwhile (another
   *  hub's runner reporting idle through the cluster) can arrive first and is newer. */
  const newer = (held: Session | null, incoming: Session | null): Session | null => (held && incoming && held.updatedAt > incoming.updatedAt ? held : (incoming ?? held));
  socket.on('session:updated', (s: Session) => {
    if (s.id === options.sessionId) {
      session = newer(session, s);
      changed();
    }
  });
  const requested: PendingRequest[] = [];
  const resolved: Resolution[] = [];
  // The namespace's requests, as a phone hears them (a request announced twice is heard twice).
  socket.on('approval:requested', (request: PendingRequest) => {
    requested.push(request);
    changed();
  });
  socket.on('approval:resolved', (resolution: Resolution) => {
    resolved.push(resolution);
    changed();
  });
  socket.on('prompt:updated', (p: Prompt) => {
    if (p.sessionId === options.sessionId) {
      prompts.set(p.id, p);
      changed();
    }
  });
  const emit = async (event: string, payload: unknown) =>
    (await socket.timeout(10_000).emitWithAck(event, payload)) as { ok: boolean } & Record<string, unknown>;
  const watchOnce = async (): Promise<boolean> => {
    if (!socket.connected) return false;
    const ack = (await emit('session:watch', { sessionId: options.sessionId, ...(lastSeq > 0 ? { afterSeq: lastSeq } : {}) }).catch(() => null)) as
      | ({ ok: boolean; session?: Session; messages?: ChatMessage[]; pending?: PendingRequest[] } & Record<string, unknown>)
      | null;
    if (!ack?.ok) return false;
    session = newer(session, ack.session ?? null);
    // Pending when we joined: heard now unless its announcement came first.
    for (const request of ack.pending ?? []) if (!requested.some((r) => r.id === request.id)) requested.push(request);
    // A backfill after a reconnect may repeat what we have: that is not a duplicate delivery.
    for (const m of ack.messages ?? []) {
      byId.set(m.id, m);
      lastSeq = Math.max(lastSeq, m.seq);
    }
    changed();
    return true;
  };
  // Rejoin the room after a hub restart ('connect' fires on the namespace socket for every reconnect).
  let initialDone = false;
  socket.on('connect', () => {
    if (!initialDone) return;
    const retry = async () => {
      for (let i = 0; i < 100 && socket.connected; i++) {
        if (await watchOnce()) return;
        await new Promise((r) => setTimeout(r, WATCH_RETRY_MS));
      }
    };
    void retry();
  });
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    if (await watchOnce()) break;
    if (Date.now() > deadline) {
      socket.close();
      throw new Error(`session ${options.sessionId} never appeared on the hub`);
    }
    await new Promise((r) => setTimeout(r, WATCH_RETRY_MS));
  }
  initialDone = true;
  const waitFor = <T>(probe: () => T | null | undefined | false, waitOptions: { timeoutMs?: number; what?: string } = {}) =>
    waits.waitFor({
      probe,
      timeoutMs: waitOptions.timeoutMs ?? DEFAULT_WAIT_MS,
      timedOut: () => {
        const dump = [...byId.values()].sort((a, b) => a.seq - b.seq).map((m) => `${m.seq} ${m.role}: ${JSON.stringify(m.content).slice(0, 200)}`);
        return `timed out waiting for ${waitOptions.what ?? 'condition'}; status=${session?.status}; chat:\n${dump.join('\n')}`;
      },
    });
  return {
    socket,
    messages: () => [...byId.values()].sort((a, b) => a.seq - b.seq),
    duplicates: () => duplicates,
    session: () => session,
    prompts: () => prompts,
    requested,
    resolved,
    waitFor,
    changed,
    send: async (text, promptId = crypto.randomUUID()) => {
      const ack = await emit('prompt:send', { sessionId: options.sessionId, promptId, text });
      return { ok: ack.ok, promptId, ...(ack.ok ? {} : { error: String(ack.error) }) };
    },
    emit,
    stop: () => {
      socket.close();
    },
  };
}

/** The plain text of a chat message's text blocks. */
export function chatText(message: ChatMessage): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
