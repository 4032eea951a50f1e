// bridge.ts: opencode's TUI in tether's PTY, heard through its own server instead of hooks (opencode
// has none that wait on an answer). tether reads the server's events (server-events.ts) and tells the
// runner what a hook would, at the runner's own hook endpoint, in claude's words:
//
//   its session appears          ─► session-start {session_id, transcript_path: the chat log,
//                                   source: resume when an earlier launch wrote that log} (a
//                                   resumed one, `--session <id>`, is known to be its own)
//   a user message (desk, phone) ─► the chat log's user line, user-prompt-submit (a turn starts)
//   text, reasoning, tool parts  ─► the chat log (acp/chat-log.ts's lines; the runner tails it)
//   the session goes idle        ─► stop
//   permission.asked             ─► permission-request, held open while a person decides; the
//                                   verdict is replied over REST (allow once, or reject)
//   permission.replied           ─► the held request is dropped (answered at the desk: withdrawn)
//
// First answer wins both ways: the desk's reply withdraws the phone's request; the phone's reply
// makes the TUI drop its dialog. Fail closed: nothing is allowed unless a person allowed it (no
// verdict leaves the TUI's own dialog up).
import { appendFileSync, chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { HOOK_SECRET_HEADER, type HookEndpoint, type HookEventArg } from '../../hooks/events.ts';
import { chatLogPath, type ChatLogLine } from '../acp/chat-log.ts';
import { createOpencodeEventReader, type OpencodeAction, type OpencodeAsk } from './server-events.ts';
import { readEvents, replyPermission, type OpencodeServer } from './server-link.ts';

/** How often tether tries the event stream while the TUI's server is not up (it takes seconds to tens). */
const RETRY_MS = 500;
/** A fact's hook answers at once; a permission waits on a person (a day bounds their thinking). */
const FACT_TIMEOUT_MS = 30_000;
const PERSON_TIMEOUT_MS = 86_400_000;

export type OpencodeBridge = {
  /** Settles once its server's event stream answered: what the TUI does from then on is heard (a
   *  prompt typed before it was not: a rehearsal's hub chat had the answer, not the prompt). */
  hearing: Promise<void>;
  stop(): void;
};

export function startOpencodeBridge(o: { server: OpencodeServer; endpoint: HookEndpoint; chatDir: string; cwd: string; opened: string | null; log?: (line: string) => void }): OpencodeBridge {
  const stopped = new AbortController();
  const reader = createOpencodeEventReader({ opened: o.opened });
  const held = new Map<string, AbortController>();
  let logPath: string | null = null;
  let heard: () => void = () => {};
  const hearing = new Promise<void>((resolve) => (heard = resolve));

  const post = async (event: HookEventArg, payload: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown> | null> => {
    const response = await fetch(`http://127.0.0.1:${o.endpoint.port}/hook/${event}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HOOK_SECRET_HEADER]: o.endpoint.secret },
      body: JSON.stringify(payload),
      signal,
      timeout: false,
    } as RequestInit);
    const answer: unknown = await response.json().catch(() => null);
    return response.ok && answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : null;
  };
  const fact = (event: HookEventArg, payload: Record<string, unknown>) =>
    void post(event, payload, AbortSignal.any([stopped.signal, AbortSignal.timeout(FACT_TIMEOUT_MS)])).catch((error) => o.log?.(`opencode: ${event} not told: ${String(error)}`));

  const write = (line: ChatLogLine) => {
    if (!logPath) return;
    appendFileSync(logPath, `${JSON.stringify(line)}\n`, { mode: 0o600 });
  };

  const ask = async (request: OpencodeAsk) => {
    const controller = new AbortController();
    held.set(request.id, controller);
    try {
      const signal = AbortSignal.any([controller.signal, stopped.signal, AbortSignal.timeout(PERSON_TIMEOUT_MS)]);
      const answer = await post('permission-request', { session_id: request.sessionId, tool_name: request.toolName, tool_input: request.toolInput }, signal);
      const reply = answer?.reply;
      // No verdict (nobody to ask, the runner gone): the TUI's own dialog stays up at the desk.
      if (reply !== 'once' && reply !== 'reject') return;
      const message = typeof answer?.message === 'string' ? answer.message : undefined;
      const taken = await replyPermission({ server: o.server, id: request.id, reply, ...(message ? { message } : {}) });
      if (!taken) o.log?.(`opencode: permission ${request.id} was answered already (at the desk)`);
    } catch (error) {
      if (!controller.signal.aborted && !stopped.signal.aborted) o.log?.(`opencode: permission ${request.id}: ${String(error)}`);
    } finally {
      held.delete(request.id);
    }
  };

  const act = (action: OpencodeAction) => {
    switch (action.kind) {
      case 'session': {
        logPath = chatLogPath({ dir: o.chatDir, agent: 'opencode', sessionId: action.sessionId });
        mkdirSync(dirname(logPath), { recursive: true, mode: 0o700 });
        // Lines of an earlier launch (`--session <id>`): the runner goes on from where it left them.
        const source = existsSync(logPath) && statSync(logPath).size > 0 ? 'resume' : 'startup';
        appendFileSync(logPath, '', { mode: 0o600 });
        // A file left by an earlier launch keeps its mode: prompts are private.
        chmodSync(logPath, 0o600);
        return fact('session-start', { session_id: action.sessionId, transcript_path: logPath, source, cwd: o.cwd });
      }
      case 'prompt':
        return fact('user-prompt-submit', { session_id: action.sessionId, prompt: action.text });
      case 'line':
        return write(action.line);
      case 'turn-ended':
        return fact('stop', { session_id: action.sessionId });
      case 'ask':
        return void ask(action.ask);
      case 'replied':
        return held.get(action.id)?.abort();
    }
  };

  void (async () => {
    while (!stopped.signal.aborted) {
      try {
        await readEvents({ server: o.server, signal: stopped.signal, onEvent: (event) => reader.read(event).forEach(act), onOpen: heard });
      } catch {
        // Not up yet, or gone (the TUI exited): tried again until stopped.
      }
      await Bun.sleep(RETRY_MS);
    }
  })();

  return {
    hearing,
    stop: () => {
      stopped.abort();
      for (const controller of held.values()) controller.abort();
      held.clear();
    },
  };
}
