// Headless opencode (chat only, no terminal) started from the phone on a machine running `tether
// daemon`: tether drives `opencode acp` over the Agent Client Protocol (the real opencode against the
// fake chat completions API, tests/fixtures/fake-chat-completions). A prompt is a turn and its reply
// is chat (tether's chat log of what opencode said over ACP); the shell command opencode asks about
// (its `permission.bash: ask`) is an ACP session/request_permission the phone answers; the phone
// switches the model (the next request at the fake names it) and the mode (opencode's plan agent);
// End ends it. The floor pin: TETHER_OPENCODE_BIN=.tools/opencode-1.17.0/node_modules/.bin/opencode.
//
// Shaped as one row of the agents' journey table: JOURNEY holds what is opencode's (its world, how its
// model says things, its tool's name, its models); the steps below read only the row.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { delayed, hasToolResult, lastToolResults, text, toolCall, userSays, when, type ScriptTurn } from '../fixtures/fake-chat-completions/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { FAKE_OPENCODE_MODEL, FAKE_OPENCODE_MODEL_2 } from '../harness/opencode.ts';
import { startOpencodeDaemonWorld } from '../harness/opencode-world.ts';
import { emitAck } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';

const defer = useCleanups();

const JOURNEY = {
  agent: 'opencode',
  start: (script: ScriptTurn[]) => startOpencodeDaemonWorld(defer, { script }),
  script: { say: text, shell: (command: string) => toolCall('bash', { command, description: 'run it' }), userSays, hasToolResult, when },
  /** The tool name the phone is asked about for a shell command. */
  shellTool: 'Bash',
  models: { first: FAKE_OPENCODE_MODEL, next: FAKE_OPENCODE_MODEL_2, nextAtFake: FAKE_OPENCODE_MODEL_2.split('/')[1] },
  modes: ['default', 'plan'],
  /** How long one of its steps may take: opencode's start and each turn take tens of seconds on a
   *  loaded 2-core machine (its start: 27 s there, 4 s idle). */
  stepMs: 90_000,
};

describe(`headless ${JOURNEY.agent} (ACP) from the phone`, () => {
  it('a prompt gets its reply; the command asked about runs once allowed; the phone switches model and mode; End ends it', async () => {
    const { say, shell, when: on, userSays: says, hasToolResult: resulted } = JOURNEY.script;
    const { fake, sandbox, phone, spawn } = await JOURNEY.start([
      on(says('hello'), say('hi over acp')),
      on(says('go'), shell('echo ran-42 > ran.txt; cat ran.txt')),
      on(resulted('ran-42'), say('all done')),
      on(says('next'), say('again: next')),
    ]);
    const { session, sessionId, watch } = await spawn();
    expect(session).toMatchObject({ agent: JOURNEY.agent, launchKind: 'headless' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle', timeoutMs: JOURNEY.stepMs });
    expect(watch.session()?.capabilities?.modes.values).toEqual(JOURNEY.modes);

    await watch.send('hello');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'hi over acp'), { what: 'the reply', timeoutMs: JOURNEY.stepMs });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn', timeoutMs: JOURNEY.stepMs });
    expect(watch.session()?.agentSessionId).toBeTruthy();
    expect(watch.session()?.model).toBe(JOURNEY.models.first);

    await watch.send('go');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === JOURNEY.shellTool), { what: 'the shell request', timeoutMs: JOURNEY.stepMs });
    expect(request).toMatchObject({ kind: 'permission', toolInput: { command: expect.stringContaining('echo ran-42 > ran.txt') } });
    await watch.waitFor(() => watch.session()?.status === 'waiting', { what: 'waiting while asked', timeoutMs: JOURNEY.stepMs });
    expect((await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'all done'), { what: 'the reply after the command', timeoutMs: JOURNEY.stepMs });
    expect(existsSync(join(sandbox.cwd, 'ran.txt'))).toBe(true);
    expect(fake.mainRequests().flatMap(lastToolResults).some((r) => r.output.includes('ran-42'))).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the command', timeoutMs: JOURNEY.stepMs });

    // The phone's model runs the next turn (ACP session/set_model): the fake is asked with it.
    expect((await watch.emit('session:set-model', { sessionId, model: JOURNEY.models.next })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.model === JOURNEY.models.next || null, { what: 'the model on the hub', timeoutMs: JOURNEY.stepMs });
    expect((await watch.emit('session:set-mode', { sessionId, mode: 'plan' })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.permissionMode === 'plan', { what: 'plan mode on the hub', timeoutMs: JOURNEY.stepMs });
    await watch.send('next');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'again: next'), { what: 'the reply in the new model', timeoutMs: JOURNEY.stepMs });
    const last = fake.mainRequests().at(-1);
    expect(last?.model).toBe(JOURNEY.models.nextAtFake);
    // opencode's plan agent tells its model, in a reminder after the person's words, it may not edit.
    expect(JSON.stringify(last?.messages)).toMatch(/Plan mode ACTIVE/);

    const said = watch.messages().filter((m) => m.role === 'user').map(chatText).filter((t) => t);
    expect(said).toEqual(['hello', 'go', 'next']);
    expect(watch.duplicates()).toBe(0);
    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended', timeoutMs: JOURNEY.stepMs });
  }, 600_000);

  it('denied with a reason: the command does not run and the model reads the reason; abort cancels a turn', async () => {
    const { say, shell, when: on, userSays: says } = JOURNEY.script;
    const { fake, sandbox, spawn } = await JOURNEY.start([
      on(says('go'), shell('touch nope.txt')),
      on(says('use the Makefile'), say('noted: reason read')),
      on(says('slow'), delayed(say('too late'), 120_000)),
    ]);
    const { sessionId, watch } = await spawn();
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle', timeoutMs: JOURNEY.stepMs });
    await watch.send('go');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === JOURNEY.shellTool), { what: 'the shell request', timeoutMs: JOURNEY.stepMs });
    expect((await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'use the Makefile target instead' } })).ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'noted: reason read'), { what: 'the reason read', timeoutMs: JOURNEY.stepMs });
    expect(existsSync(join(sandbox.cwd, 'nope.txt'))).toBe(false);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the denial', timeoutMs: JOURNEY.stepMs });

    await watch.send('slow');
    const asked = await fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && says('slow')(r.body), { timeoutMs: JOURNEY.stepMs });
    expect((await watch.emit('session:abort', { sessionId })).ok).toBe(true);
    await expect.poll(() => asked.outcome, { timeout: 30_000 }).toBe('aborted');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the abort', timeoutMs: JOURNEY.stepMs });
    expect(watch.messages().some((m) => chatText(m) === 'too late')).toBe(false);
  }, 600_000);
});
