// headless.ts: one headless session (launch kind `headless`): `claude -p` with stream-json on stdin
// and stdout, no terminal. Same hooks, same approvals, same transcript tailer and hub link as the
// PTY runner; only the way prompts get in differs.
//
//   hub prompt:deliver ─► queue ─(one turn at a time)─► stdin {"type":"user",…} ─► claude -p
//   claude stdout: control_response(initialize) = ready · system init = claude session id · result = turn over
//   hooks ─► hook server ─► status, transcript path, approvals      transcript ─► chat ─► hub
//
// Ready = claude answered the stream-json `initialize` control request (it prints nothing else before
// the first prompt); exiting before that is a failed session with claude's stderr as the reason.
// Abort = the stream-json `interrupt` control request: SIGINT makes `claude -p` exit (rc 0) instead
// of ending the turn. Stop = SIGTERM to claude. A prompt is written once, never retyped; the
// transcript user line confirms it (delivered).
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PermissionMode, PromptStatus, SessionPatch, SessionRegistration, SessionStatus } from '@tether/shared';
import { findClaudeBinary } from '../claude/find-binary.ts';
import { buildLaunchArgs, type LaunchPlan } from '../claude/launch-args.ts';
import { buildClaudeEnv } from '../claude/env.ts';
import { startHookServer, type HookRequest } from '../hooks/server.ts';
import { writeHookSettings, type HookSettingsDir } from '../hooks/settings.ts';
import { createSessionRules } from '../policy/rules.ts';
import { openOutbox, type Outbox } from '../hub-link/outbox.ts';
import { connectHubLink, type HubLink } from '../hub-link/link.ts';
import { tailTranscript, TRANSCRIPT_POLL_MS, type TranscriptTail } from '../transcript/tail.ts';
import { subagentDirFor, tailSubagents, type SubagentTails } from '../transcript/subagents.ts';
import { createSessionTitle } from './session-title.ts';
import { parseTranscriptLines } from '../transcript/parse.ts';
import { createApprovals } from './approvals.ts';
import { createControllerTracker } from './controller.ts';
import { normalizePromptText } from './prompt-queue.ts';
import { loadResumeState, saveResumeState } from './resume-state.ts';
import { RunnerStartError, type RunnerOptions, type RunnerResult } from './runner.ts';

/** How long a finished session waits for the hub to take what it is owed (as the PTY runner). */
const EXIT_DRAIN_MS = 3_000;
const APPEND_CHUNK = 100;
/** claude's stderr kept for the failure reason. */
const STDERR_KEEP_CHARS = 2_000;

type Item = { promptId: string; text: string; state: 'queued' | 'sent' };

export async function runHeadlessSession(options: RunnerOptions): Promise<RunnerResult> {
  const env = buildClaudeEnv({ env: options.env });
  const logFile = options.logFile ?? join(options.tetherHome, 'logs', 'runner.log');
  mkdirSync(join(logFile, '..'), { recursive: true, mode: 0o700 });
  const log = (line: string) => {
    try {
      appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // logging never breaks the session
    }
  };
  const cleanups: Array<() => void> = [];
  const cleanup = () => {
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        fn();
      } catch (error) {
        log(`cleanup: ${String(error)}`);
      }
    }
  };

  let plan: LaunchPlan;
  try {
    plan = buildLaunchArgs({ userArgs: options.userArgs, settingsPath: '' });
  } catch (error) {
    throw new RunnerStartError(error instanceof Error ? error.message : String(error));
  }
  const resumed = plan.resumeId ? loadResumeState({ home: options.tetherHome, claudeSessionId: plan.resumeId }) : null;
  const sessionId = resumed?.sessionId ?? options.env.TETHER_SESSION_ID ?? crypto.randomUUID();
  const createdAt = Date.now();
  let status: SessionStatus = 'starting';
  let claudeSessionId: string | null = plan.resumeId;
  let model: string | null = plan.model;
  let permissionMode: PermissionMode = plan.permissionMode;

  // ---- hub link
  let outbox: Outbox | null = null;
  let link: HubLink | null = null;
  const title = createSessionTitle({
    initial: resumed?.title ? { title: resumed.title, source: resumed.titleSource ?? 'prompt' } : { title: basename(options.cwd), source: 'cwd' },
    onChange: (next) => {
      patch({ title: next });
      saveState();
    },
  });
  const registration = (): SessionRegistration => ({
    id: sessionId,
    machineId: options.env.TETHER_MACHINE_ID || null,
    title: title.title,
    cwd: options.cwd,
    launchKind: 'headless',
    status,
    claudeSessionId,
    model,
    permissionMode,
    deskAttached: false,
    createdAt,
  });
  const patch = (p: SessionPatch) => link?.push('session:update', { sessionId, patch: p });
  // Headless: nobody types at a desk, so every prompt and answer is remote.
  const controller = createControllerTracker({ report: (next) => patch({ controller: next }) });
  const setStatus = (next: Exclude<SessionStatus, 'ended' | 'failed'>) => {
    if (status === next || status === 'ended' || status === 'failed') return;
    status = next;
    patch({ status: next });
  };
  const report = (promptId: string, s: Exclude<PromptStatus, 'queued'>, reason: string | null = null) =>
    link?.push('prompt:status', { sessionId, promptId, status: s, reason });

  // ---- claude's stdin: one user message per turn
  let stdin: { write(data: string): unknown; flush(): unknown; end(): unknown } | null = null;
  let ready = false;
  let turnBusy = false;
  const queue: Item[] = [];
  const seen = new Set<string>();
  let controlSeq = 0;
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
    writeLine({ type: 'user', message: { role: 'user', content: next.text } });
    setStatus('thinking');
  };
  const turnEnded = () => {
    // A sent prompt stays until the transcript shows it: the `result` line usually arrives before
    // the tailer's next poll reads the user line.
    turnBusy = false;
    if (status !== 'starting') setStatus('idle');
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

  const rules = createSessionRules();
  let stopClaude: (signal: NodeJS.Signals) => void = () => {};
  if (options.hub) {
    outbox = openOutbox({ dir: join(options.tetherHome, 'outbox'), sessionId });
    link = connectHubLink({
      hubUrl: options.hub.url,
      token: options.hub.token,
      sessionId,
      outbox,
      registration,
      onState: (state) => {
        log(`hub: ${state.kind}${state.kind === 'down' ? ` (${state.reason})` : ''}`);
        if (state.kind === 'connected') approvals.reconnected();
      },
      onProblem: (message) => log(`hub: ${message}`),
      commands: {
        'prompt:deliver': ({ promptId, text }) => {
          controller.set('remote');
          if (seen.has(promptId)) return;
          seen.add(promptId);
          queue.push({ promptId, text, state: 'queued' });
          pump();
        },
        'session:abort': () => {
          if (!turnBusy) return;
          control({ subtype: 'interrupt' });
          for (const item of queue.splice(0)) {
            report(item.promptId, item.state === 'sent' ? 'returned' : 'dropped', item.state === 'sent' ? 'aborted' : 'queued behind an aborted turn');
          }
        },
        'session:stop': () => stopClaude('SIGTERM'),
        'session:set-model': ({ model: next }) => {
          control({ subtype: 'set_model', model: next });
          model = next;
          patch({ model: next });
        },
        'approval:answered': ({ requestId, answer }) => {
          controller.set('remote');
          approvals.answered({ requestId, answer });
        },
      },
    });
  }
  const approvals = createApprovals({
    sessionId: () => sessionId,
    link: () => link,
    rules,
    permissionMode: () => permissionMode,
    cwd: options.cwd,
    bypassAllowed: plan.bypass,
    desk: null,
    log,
  });
  cleanups.push(() => approvals.stop());
  const stopLink = () => {
    link?.stop();
    if (outbox) {
      if (outbox.size() === 0) outbox.destroy();
      else outbox.close();
    }
  };
  const failEarly = async (reason: string): Promise<never> => {
    status = 'failed';
    link?.push('session:end', { sessionId, status: 'failed', exitCode: null, reason: reason.slice(0, 500) });
    await link?.drain(EXIT_DRAIN_MS);
    stopLink();
    cleanup();
    throw new RunnerStartError(reason);
  };

  let binary: string;
  try {
    binary = findClaudeBinary({ env: options.env });
  } catch (error) {
    return failEarly(error instanceof Error ? error.message : String(error));
  }

  // ---- transcript → chat (as the PTY runner)
  let tail: TranscriptTail | null = null;
  let subagents: SubagentTails | null = null;
  let transcriptPath: string | null = null;
  let transcriptOffset = 0;
  function saveState() {
    if (!claudeSessionId || !transcriptPath) return;
    saveResumeState({
      home: options.tetherHome,
      claudeSessionId,
      state: { sessionId, transcriptPath, offset: transcriptOffset, title: title.title, titleSource: title.source, subagentOffsets: subagents?.offsets() ?? {} },
    });
  }
  const appendMessages = (messages: ReturnType<typeof parseTranscriptLines>) => {
    for (let i = 0; i < messages.length; i += APPEND_CHUNK) {
      link?.push('message:append', { sessionId, messages: messages.slice(i, i + APPEND_CHUNK) });
    }
  };
  const onTranscriptLines = (lines: string[], endOffset: number) => {
    const messages = parseTranscriptLines(lines, { matchPrompt, onBadLine: (reason) => log(`transcript: ${reason}`) });
    appendMessages(messages);
    transcriptOffset = endOffset;
    title.take(lines, messages);
    saveState();
  };
  const followTranscript = (path: string) => {
    const continued = resumed && resumed.transcriptPath === path && !tail;
    const fromOffset = continued ? resumed.offset : 0;
    if (transcriptPath === path) return;
    transcriptPath = path;
    transcriptOffset = fromOffset;
    if (!tail) tail = tailTranscript({ path, fromOffset, onLines: onTranscriptLines, onError: (error) => log(`transcript: ${String(error)}`) });
    else tail.switchTo(path, fromOffset);
    subagents?.stop();
    subagents = tailSubagents({
      dir: subagentDirFor(path),
      ...(continued && resumed.subagentOffsets ? { fromOffsets: resumed.subagentOffsets } : {}),
      onLines: (lines) => {
        appendMessages(parseTranscriptLines(lines, { onBadLine: (reason) => log(`subagent transcript: ${reason}`) }));
        saveState();
      },
      onError: (error) => log(`subagent transcript: ${String(error)}`),
    });
  };
  cleanups.push(() => tail?.stop());
  cleanups.push(() => subagents?.stop());

  // ---- hooks
  const onHook = async (request: HookRequest): Promise<Record<string, unknown>> => {
    const p = request.payload;
    switch (request.event) {
      case 'session-start':
        if (typeof p.session_id === 'string' && p.session_id !== claudeSessionId) {
          claudeSessionId = p.session_id;
          patch({ claudeSessionId });
        }
        if (typeof p.model === 'string' && !model) {
          model = p.model.replace(/\[[^\]]*\]$/, '');
          patch({ model });
        }
        if (typeof p.transcript_path === 'string') followTranscript(p.transcript_path);
        return {};
      case 'user-prompt-submit':
        setStatus('thinking');
        return {};
      case 'stop':
        return {};
      case 'notification':
        if (p.notification_type === 'permission_prompt') setStatus('waiting');
        return {};
      case 'pre-tool-use':
        if (typeof p.permission_mode === 'string' && p.permission_mode !== permissionMode) {
          permissionMode = p.permission_mode as PermissionMode;
          patch({ permissionMode });
        }
        return approvals.decide({ payload: p, signal: request.signal });
      case 'post-tool-use':
        if (status === 'waiting') setStatus('thinking');
        return {};
      default: {
        const never: never = request.event;
        return never;
      }
    }
  };
  const hookServer = startHookServer({ onHook });
  cleanups.push(() => hookServer.stop());
  let settings: HookSettingsDir;
  try {
    settings = writeHookSettings({ endpoint: hookServer.endpoint });
  } catch (error) {
    return failEarly(`could not write the hook settings: ${String(error)}`);
  }
  cleanups.push(() => settings.remove());
  plan = buildLaunchArgs({ userArgs: options.userArgs, settingsPath: settings.settingsPath });
  const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', ...plan.args];

  // ---- claude
  let proc: ReturnType<typeof Bun.spawn<'pipe', 'pipe', 'pipe'>>;
  try {
    proc = Bun.spawn([binary, ...args], { cwd: options.cwd, env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  } catch (error) {
    return failEarly(`could not start ${binary}: ${error instanceof Error ? error.message : String(error)}`);
  }
  stdin = proc.stdin;
  log(`session ${sessionId}: spawned headless ${binary} (pid ${proc.pid}) ${JSON.stringify(args)}`);
  stopClaude = (signal) => {
    try {
      proc.kill(signal);
    } catch {
      // gone
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    log(`got ${signal}: stopping claude`);
    stopClaude('SIGTERM');
  };
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, onSignal);
  cleanups.push(() => {
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.off(signal, onSignal);
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
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      log(`claude stdout (not JSON): ${line.slice(0, 200)}`);
      return;
    }
    if (msg.type === 'control_response') {
      const response = msg.response as { request_id?: string; subtype?: string; error?: string } | undefined;
      if (response?.request_id === initId && !ready) {
        if (response.subtype !== 'success') {
          log(`initialize failed: ${response.error ?? 'unknown'}`);
          return;
        }
        ready = true;
        log(`ready in ${Date.now() - startedAt} ms`);
        setStatus('idle');
        pump();
      }
    } else if (msg.type === 'system' && msg.subtype === 'init') {
      if (typeof msg.session_id === 'string' && msg.session_id !== claudeSessionId) {
        claudeSessionId = msg.session_id;
        patch({ claudeSessionId });
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
  let failure: string | null = null;
  if (!ready) {
    const lines = stderrText.trim().split('\n').filter((l) => l.trim() !== '').slice(-8);
    failure = `claude exited (code ${exitCode}${signal ? `, signal ${signal}` : ''}) before it was ready${lines.length ? `:\n${lines.join('\n')}` : ''}`;
  }
  if (tail) await new Promise((resolve) => setTimeout(resolve, TRANSCRIPT_POLL_MS * 2));
  for (const item of queue.splice(0)) report(item.promptId, item.state === 'sent' ? 'returned' : 'dropped', 'the session ended');
  status = failure ? 'failed' : 'ended';
  link?.push('session:end', { sessionId, status: failure ? 'failed' : 'ended', exitCode, reason: failure ? failure.slice(0, 500) : null });
  const drained = (await link?.drain(EXIT_DRAIN_MS)) ?? true;
  if (!drained) log('hub did not take everything before exit; the rest stays in the outbox');
  stopLink();
  cleanup();
  log(`session ${sessionId}: headless claude exited with ${exitCode}`);
  return { exitCode: failure && exitCode === 0 ? 1 : exitCode, sessionId, failure };
}
