// headless.ts: one headless session (launch kind `headless`): `claude -p` with stream-json on stdin
// and stdout, no terminal. The hooks, approvals, transcript → chat, hub link and session end are
// session-core.ts, shared with the PTY runner (runner.ts); this file holds only what differs: how
// claude runs and how prompts get in (and when a turn is over).
//
//   hub prompt:deliver ─► queue ─(one turn at a time)─► stdin {"type":"user",…} ─► claude -p
//   claude stdout: control_response(initialize) = ready · system init = claude session id · result = turn over
//   claude control_request can_use_tool ─► approvals (hub)   hooks ─► session-core: status, transcript path
//   transcript ─► chat ─► hub
//
// Ready = claude answered the stream-json `initialize` control request (it prints nothing else before
// the first prompt); exiting before that is a failed session with claude's stderr as the reason.
// Abort = the stream-json `interrupt` control request: SIGINT makes `claude -p` exit (rc 0) instead
// of ending the turn. End = claude's input closed (end-claude.ts). A prompt is written once, never retyped; the
// transcript user line confirms it (delivered).
import type { PromptStatus } from '@tether/shared';
import { normalizePromptText } from '../../runner/prompt-queue.ts';
import { createSessionCore, describeEarlyExit, type RunnerOptions, type RunnerResult } from '../../runner/session-core.ts';
import { createHeadlessEnder, type HeadlessEnder } from './end-claude.ts';
import type { ContentBlock } from '../../attachments/attachments.ts';
import { slashCommandsFromInitialize } from './slash-commands.ts';

/** claude's stderr kept for the failure reason. */
const STDERR_KEEP_CHARS = 2_000;

/** `text` is what the transcript's user line is matched by; `content` what claude is sent (with a
 *  prompt's files: their blocks and the text). */
type Item = { promptId: string; text: string; content: string | ContentBlock[]; state: 'queued' | 'sent' };

export async function runHeadlessSession(options: RunnerOptions): Promise<RunnerResult> {
  const core = createSessionCore({ options, launchKind: 'headless', deskAttached: () => false, matchPrompt: (text) => matchPrompt(text) });
  // Headless: nobody types at a desk, so every prompt and answer is remote (controller).
  const { env, log, state, patch, setStatus, controller } = core;
  const report = (promptId: string, s: Exclude<PromptStatus, 'queued'>, reason: string | null = null) =>
    core.link()?.push('prompt:status', { sessionId: state.id, promptId, status: s, reason });

  // ---- claude's stdin: one user message per turn
  let stdin: { write(data: string): unknown; flush(): unknown; end(): unknown } | null = null;
  let ready = false;
  let turnBusy = false;
  const queue: Item[] = [];
  const seen = new Set<string>();
  let controlSeq = 0;
  /** Callbacks for control requests whose answer matters (by request id). */
  const answers = new Map<string, (ok: boolean, error?: string) => void>();
  /** claude may be gone (EPIPE): its exit is handled where it is awaited, never by a throw here. */
  const writeLine = (value: unknown) => {
    try {
      stdin?.write(`${JSON.stringify(value)}\n`);
      const flushed = stdin?.flush();
      if (flushed instanceof Promise) flushed.catch((error: unknown) => log(`claude stdin: ${String(error)}`));
    } catch (error) {
      log(`claude stdin: ${String(error)}`);
    }
  };
  const control = (request: Record<string, unknown>): string => {
    const id = `tether-${++controlSeq}`;
    writeLine({ type: 'control_request', request_id: id, request });
    return id;
  };
  const pump = () => {
    if (!ready || turnBusy || !stdin) return;
    const next = queue.find((item) => item.state === 'queued');
    if (!next) return;
    next.state = 'sent';
    turnBusy = true;
    report(next.promptId, 'typing');
    writeLine({ type: 'user', message: { role: 'user', content: next.content } });
    setStatus('thinking');
  };
  const turnEnded = () => {
    // A sent prompt stays until the transcript shows it: the `result` line usually arrives before
    // the tailer's next poll reads the user line.
    turnBusy = false;
    if (ender?.turnEnded()) return;
    if (state.status !== 'starting') setStatus('idle');
    pump();
  };
  const matchPrompt = (text: string): string | null => {
    const wanted = normalizePromptText(text);
    const item = queue.find((i) => i.state === 'sent' && normalizePromptText(i.text) === wanted);
    if (!item) return null;
    queue.splice(queue.indexOf(item), 1);
    report(item.promptId, 'delivered');
    return item.promptId;
  };

  let stopClaude: (signal: NodeJS.Signals) => void = () => {};
  let ender: HeadlessEnder | null = null;
  core.startLink({
    onConnected: () => {
      approvals.reconnected();
      core.elicitations.reconnected();
    },
    commands: {
      'prompt:deliver': (delivery) => {
        controller.set('remote');
        const { promptId, text } = delivery;
        if (seen.has(promptId)) return;
        seen.add(promptId);
        core.attachments.forHeadless(delivery, {
          ready: (content) => {
            queue.push({ promptId, text, content, state: 'queued' });
            pump();
          },
          failed: (reason) => report(promptId, 'dropped', reason),
        });
      },
      'session:abort': () => {
        if (!turnBusy) return;
        control({ subtype: 'interrupt' });
        for (const item of queue.splice(0)) {
          report(item.promptId, item.state === 'sent' ? 'returned' : 'dropped', item.state === 'sent' ? 'aborted' : 'queued behind an aborted turn');
        }
      },
      'session:stop': () => {
        for (const item of queue.splice(0)) report(item.promptId, item.state === 'sent' ? 'returned' : 'dropped', 'the session was ended');
        ender?.end();
      },
      // claude -p takes a mode change over stream-json (the Agent SDK's setPermissionMode).
      'session:set-mode': ({ mode }) => {
        if (mode === 'bypassPermissions' && !core.plan.bypass) {
          log('mode switch to bypassPermissions refused: the session was not started allowing it');
          return;
        }
        const id = control({ subtype: 'set_permission_mode', mode });
        answers.set(id, (ok, error) => {
          if (ok) core.followMode(mode);
          else log(`permission mode not switched to ${mode}: ${error ?? 'refused'}`);
        });
      },
      'session:set-model': ({ model: next }) => {
        control({ subtype: 'set_model', model: next });
        state.model = next;
        patch({ model: next });
        core.finishedCommand({ command: '/model', args: next, outcome: 'applied' });
      },
      'approval:answered': ({ requestId, answer }) => {
        controller.set('remote');
        if (!core.elicitations.answered({ requestId, answer })) approvals.answered({ requestId, answer });
      },
    },
  });
  const approvals = core.createApprovals({});
  /** can_use_tool requests in flight, so claude's control_cancel_request can withdraw one. */
  const asking = new Map<string, AbortController>();
  /** claude asks over stream-json (`--permission-prompt-tool stdio`) exactly when it would ask a
   *  person: its mode and the user's rules decide. Headless there is no desk, so when the hub
   *  cannot take the question, the answer is no (plain `claude -p` denies too). */
  const canUseTool = async (requestId: string, request: Record<string, unknown>) => {
    const toolName = typeof request.tool_name === 'string' ? request.tool_name : '';
    const toolInput = request.input && typeof request.input === 'object' && !Array.isArray(request.input) ? (request.input as Record<string, unknown>) : {};
    const cancel = new AbortController();
    asking.set(requestId, cancel);
    const verdict = await approvals.ask({
      toolName,
      toolInput,
      toolUseId: typeof request.tool_use_id === 'string' ? request.tool_use_id : null,
      signal: cancel.signal,
    });
    asking.delete(requestId);
    if (cancel.signal.aborted) return;
    const response = !verdict
      ? { behavior: 'deny', message: 'tether: nobody could be asked (the hub did not take the request)' }
      : verdict.behavior === 'allow'
        ? { ...verdict, updatedInput: verdict.updatedInput ?? toolInput }
        : verdict;
    writeLine({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
  };
  core.onCleanup(() => {
    for (const cancel of asking.values()) cancel.abort();
  });

  // ---- claude binary, hooks (transcript as the PTY runner; turns end on `result`, not Stop) and settings
  const { binary, plan } = await core.prepareLaunch({
    approvals,
    hooks: {
      onTranscript: (path) => {
        const current = core.transcript();
        if (current.path === path) return;
        core.followTranscript({ path, continued: core.resumed?.transcriptPath === path && !current.tailing });
      },
    },
  });
  const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio', ...plan.args];

  // ---- claude
  let proc: ReturnType<typeof Bun.spawn<'pipe', 'pipe', 'pipe'>>;
  try {
    proc = Bun.spawn([binary, ...args], { cwd: options.cwd, env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  } catch (error) {
    return core.failEarly(`could not start ${binary}: ${error instanceof Error ? error.message : String(error)}`);
  }
  stdin = proc.stdin;
  log(`session ${state.id}: spawned headless ${binary} (pid ${proc.pid}) ${JSON.stringify(args)}`);
  stopClaude = (signal) => {
    try {
      proc.kill(signal);
    } catch {
      // gone
    }
  };
  core.stopOnSignals(() => stopClaude('SIGTERM'));
  // The phone's End / `tether stop`: claude -p reaches the end of its input (end-claude.ts).
  ender = createHeadlessEnder({
    busy: () => turnBusy,
    interrupt: () => control({ subtype: 'interrupt' }),
    closeInput: () => {
      try {
        stdin?.end();
      } catch (error) {
        log(`claude stdin: ${String(error)}`);
      }
      stdin = null;
    },
    exited: proc.exited,
    force: () => stopClaude('SIGTERM'),
    log,
  });

  let stderrText = '';
  const readStderr = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) {
      stderrText = (stderrText + decoder.decode(chunk, { stream: true })).slice(-STDERR_KEEP_CHARS);
    }
  })().catch(() => {});
  const initId = control({ subtype: 'initialize' });
  const startedAt = Date.now();
  const onLine = (line: string) => {
    core.pace.stir();
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      log(`claude stdout (not JSON): ${line.slice(0, 200)}`);
      return;
    }
    if (msg.type === 'control_request') {
      const request = msg.request as Record<string, unknown> | undefined;
      if (typeof msg.request_id === 'string' && request?.subtype === 'can_use_tool') void canUseTool(msg.request_id, request);
      else log(`claude control request not handled: ${String(request?.subtype)}`);
    } else if (msg.type === 'control_cancel_request') {
      if (typeof msg.request_id === 'string') asking.get(msg.request_id)?.abort();
    } else if (msg.type === 'control_response') {
      const response = msg.response as { request_id?: string; subtype?: string; error?: string; response?: { commands?: unknown } } | undefined;
      const answer = response?.request_id ? answers.get(response.request_id) : undefined;
      if (answer && response?.request_id) {
        answers.delete(response.request_id);
        answer(response.subtype === 'success', response.error);
      }
      if (response?.request_id === initId && !ready) {
        if (response.subtype !== 'success') {
          log(`initialize failed: ${response.error ?? 'unknown'}`);
          return;
        }
        ready = true;
        log(`ready in ${Date.now() - startedAt} ms`);
        // claude lists the slash commands it takes (built-ins, the project's and user's, plugins').
        core.reportSlashCommands(slashCommandsFromInitialize(response.response?.commands));
        setStatus('idle');
        pump();
      }
    } else if (msg.type === 'system' && msg.subtype === 'init') {
      if (typeof msg.session_id === 'string' && msg.session_id !== state.claudeSessionId) {
        state.claudeSessionId = msg.session_id;
        patch({ claudeSessionId: state.claudeSessionId });
      }
    } else if (msg.type === 'result') {
      turnEnded();
    }
  };
  const readStdout = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) onLine(line);
      }
    }
  })().catch((error: unknown) => log(`claude stdout: ${String(error)}`));

  const exitCode = await proc.exited;
  await Promise.all([readStdout, readStderr]);
  const signal = proc.signalCode ?? null;
  const failure = ready
    ? null
    : describeEarlyExit({
        exitCode,
        signal: signal ? String(signal) : null,
        before: 'it was ready',
        lines: stderrText
          .trim()
          .split('\n')
          .filter((l) => l.trim() !== ''),
      });
  const result = await core.finish({
    exitCode,
    failure,
    closePrompts: () => {
      for (const item of queue.splice(0)) report(item.promptId, item.state === 'sent' ? 'returned' : 'dropped', 'the session ended');
    },
  });
  log(`session ${state.id}: headless claude exited with ${exitCode}`);
  return result;
}
