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
// of ending the turn. End = claude's input closed (end-claude.ts). Its stdin is headless-input.ts,
// its stdout headless-output.ts.
import type { HubCommandHandlers } from '../../hub-link/commands.ts';
import type { Approvals } from '../../runner/approvals.ts';
import { createSessionCore, describeEarlyExit, type RunnerOptions, type RunnerResult, type SessionCore } from '../../runner/session-core.ts';
import { spawnHeadless } from '../headless-process.ts';
import { createTurnEnder, type TurnEnder } from '../ender.ts';
import { createHeadlessInput, type HeadlessInput } from './headless-input.ts';
import { forEachLine } from '../lines.ts';
import { readHeadlessLine } from './headless-output.ts';
import { slashCommandsFromInitialize } from './slash-commands.ts';

export async function runHeadlessSession(options: RunnerOptions): Promise<RunnerResult> {
  let input = null as HeadlessInput | null;
  const core = createSessionCore({ options, launchKind: 'headless', deskAttached: () => false, matchPrompt: (text) => input?.matchPrompt(text) ?? null });
  const { log, state } = core;
  const made = createHeadlessInput({
    log,
    report: (promptId, status, reason = null) => core.link()?.push('prompt:status', { sessionId: state.id, promptId, status, reason }),
    onTurnSent: () => core.status.publish({ kind: 'turnStarted' }),
  });
  input = made;
  let ender: TurnEnder | null = null;
  const approvals = core.createApprovals({});
  core.startLink({
    onConnected: () => {
      approvals.reconnected();
      core.elicitations.reconnected();
    },
    commands: headlessCommands({ core, input: made, approvals, ender: () => ender }),
  });
  const asking = askOverStreamJson({ core, input: made, approvals });

  // ---- claude binary, hooks (transcript as the PTY runner; turns end on `result`, not Stop) and settings
  const { binary, plan } = await core.prepareLaunch({
    approvals,
    hooks: {
      nameSession: (id) => core.nameUnwrittenSession(id),
      onTranscript: (path) => {
        const current = core.transcript();
        if (current.path === path) return;
        core.followTranscript({ path, continued: core.resumed?.transcriptPath === path && !current.tailing });
      },
    },
  });
  const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio', ...plan.args];
  const proc = spawnHeadless({ core, binary, args, cwd: options.cwd });
  if ('error' in proc) return core.failEarly(proc.error);
  made.attach(proc.stdin);
  // The phone's End / `tether stop`: claude's input closed after the turn in flight (interrupted)
  // ends, and claude -p reaches the end of its input (end-claude.ts).
  ender = createTurnEnder({
    busy: () => made.busy(),
    interrupt: () => made.control({ subtype: 'interrupt' }),
    closeInput: () => made.closeInput(log),
    exited: proc.exited,
    force: () => proc.stop(),
    log,
  });
  const readStdout = followStdout({ core, input: made, asking, stdout: proc.stdout, ender: () => ender }).catch((error: unknown) => log(`claude stdout: ${String(error)}`));

  const { exitCode, signal, stderrLines } = await proc.ended();
  await readStdout;
  const failure = made.ready() ? null : describeEarlyExit({ exitCode, signal, before: 'it was ready', lines: stderrLines });
  const result = await core.finish({ exitCode, failure, closePrompts: () => made.close({ sent: 'the session ended', queued: 'the session ended' }) });
  log(`session ${state.id}: headless claude exited with ${exitCode}`);
  return result;
}

/** What the hub may ask of a headless session: prompts, abort, end, mode and model (stream-json
 *  control requests: the Agent SDK's own), answers. */
function headlessCommands(o: { core: SessionCore; input: HeadlessInput; approvals: Approvals; ender: () => TurnEnder | null }): HubCommandHandlers {
  const { core, input } = o;
  const { log, state } = core;
  return {
    'prompt:deliver': (delivery) => {
      // Headless: nobody types at a desk, so every prompt and answer is remote (controller).
      core.controller.set('remote');
      const { promptId, text } = delivery;
      if (!input.claim(promptId)) return;
      core.attachments.forHeadless(delivery, {
        ready: (content) => input.enqueue({ promptId, text, content }),
        failed: (reason) => core.link()?.push('prompt:status', { sessionId: state.id, promptId, status: 'dropped', reason }),
      });
    },
    'session:abort': () => {
      if (!input.busy()) return;
      input.control({ subtype: 'interrupt' });
      input.close({ sent: 'aborted', queued: 'queued behind an aborted turn' });
    },
    'session:stop': () => {
      input.close({ sent: 'the session was ended', queued: 'the session was ended' });
      o.core.stopAsked('the session was ended');
      o.ender()?.end();
    },
    // claude -p takes a mode change over stream-json (the Agent SDK's setPermissionMode).
    'session:set-mode': ({ mode }) => {
      if (mode === 'bypassPermissions' && !core.plan.bypass) {
        log('mode switch to bypassPermissions refused: the session was not started allowing it');
        return;
      }
      input.control({ subtype: 'set_permission_mode', mode }, (ok, error) => {
        if (ok) core.followMode(mode);
        else log(`permission mode not switched to ${mode}: ${error ?? 'refused'}`);
      });
    },
    'session:set-model': ({ model: next }) => {
      input.control({ subtype: 'set_model', model: next });
      state.model = next;
      core.patch({ model: next });
      core.finishedCommand({ command: '/model', args: next, outcome: 'applied' });
    },
    'approval:answered': ({ requestId, answer }) => {
      core.controller.set('remote');
      if (!core.elicitations.answered({ requestId, answer })) o.approvals.answered({ requestId, answer });
    },
  };
}

/** claude asks over stream-json (`--permission-prompt-tool stdio`) exactly when it would ask a
 *  person: its mode and the user's rules decide. Headless there is no desk, so when the hub cannot
 *  take the question, the answer is no (plain `claude -p` denies too). Returns the requests in
 *  flight, so claude's control_cancel_request can withdraw one. */
function askOverStreamJson(o: { core: SessionCore; input: HeadlessInput; approvals: Approvals }) {
  const asking = new Map<string, AbortController>();
  o.core.onCleanup(() => {
    for (const cancel of asking.values()) cancel.abort();
  });
  return {
    cancel: (requestId: string) => asking.get(requestId)?.abort(),
    async ask(requestId: string, request: Record<string, unknown>) {
      const toolName = typeof request.tool_name === 'string' ? request.tool_name : '';
      const toolInput = request.input && typeof request.input === 'object' && !Array.isArray(request.input) ? (request.input as Record<string, unknown>) : {};
      const cancel = new AbortController();
      asking.set(requestId, cancel);
      o.core.status.publish({ kind: 'requestOpened', id: `can-use-tool:${requestId}` });
      const verdict = await o.approvals.ask({ toolName, toolInput, toolUseId: typeof request.tool_use_id === 'string' ? request.tool_use_id : null, signal: cancel.signal });
      asking.delete(requestId);
      o.core.status.publish({ kind: 'requestClosed', id: `can-use-tool:${requestId}` });
      if (cancel.signal.aborted) return;
      const response = !verdict
        ? { behavior: 'deny', message: 'tether: nobody could be asked (the hub did not take the request)' }
        : verdict.behavior === 'allow'
          ? { ...verdict, updatedInput: verdict.updatedInput ?? toolInput }
          : verdict;
      o.input.writeLine({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
    },
  };
}

/** claude's stdout, line by line: ready at its `initialize` answer, its session id, turns' ends. */
function followStdout(o: { core: SessionCore; input: HeadlessInput; asking: ReturnType<typeof askOverStreamJson>; stdout: ReadableStream<Uint8Array>; ender: () => TurnEnder | null }): Promise<void> {
  const { core, input } = o;
  const { log, state } = core;
  const initId = input.control({ subtype: 'initialize' });
  const startedAt = Date.now();
  const turnEnded = () => {
    input.turnEnded();
    if (o.ender()?.turnEnded()) return;
    core.status.publish({ kind: 'turnEnded' });
    input.pump();
  };
  return forEachLine(o.stdout, (line) => {
    core.pace.stir();
    readHeadlessLine(line, {
      log,
      canUseTool: (requestId, request) => void o.asking.ask(requestId, request),
      cancel: (requestId) => o.asking.cancel(requestId),
      answered: (requestId, ok, error, response) => {
        input.answered(requestId, ok, error);
        if (requestId !== initId || input.ready()) return;
        if (!ok) return log(`initialize failed: ${error ?? 'unknown'}`);
        log(`ready in ${Date.now() - startedAt} ms`);
        // claude lists the slash commands it takes (built-ins, the project's and user's, plugins').
        core.reportSlashCommands(slashCommandsFromInitialize(response?.commands));
        core.status.publish({ kind: 'ready' });
        input.becameReady();
      },
      // Told to the hub once the transcript has a line: before it, `claude --resume <id>` finds no
      // conversation, so Resume or `tether attach` would fail the session.
      sessionId: (id) => {
        if (id !== state.agentSessionId) core.nameUnwrittenSession(id);
      },
      turnEnded,
    });
  });
}
