// Headless opencode (`opencode acp`) from the phone, what the journey table does not walk
// (tests/e2e/agent-journey.test.ts walks its row: start, prompt, approval, abort, model, mode, its
// absent question tool, review refused, End): a shell command denied with a reason does not run and
// its model reads the reason (ACP's outcome carries none: tether says it as the next input), and the
// plan mode set from the phone reaches its model (opencode's plan agent's reminder); a file it would
// write is asked about with its path and diff (FileChanges), written when allowed, not when denied. The real
// opencode against the fake chat completions API; the floor pin:
// TETHER_OPENCODE_BIN=.tools/opencode-1.17.0/node_modules/.bin/opencode.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasToolResult, text, toolCall, userSays, when } from '../fixtures/fake-chat-completions/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { newFileCard, writeAsked } from '../harness/opencode.ts';
import { startOpencodeDaemonWorld } from '../harness/opencode-world.ts';
import { chatText } from '../harness/runner.ts';

const defer = useCleanups();
/** opencode's start and each turn take tens of seconds on a loaded 2-core machine (27 s there, 4 s idle). */
const STEP_MS = 90_000;

describe('headless opencode (ACP) from the phone', () => {
  it('denied with a reason: the command does not run and the model reads the reason; plan mode from the phone reaches the model', async () => {
    const { fake, sandbox, spawn } = await startOpencodeDaemonWorld(defer, {
      script: [when(userSays('go'), toolCall('bash', { command: 'touch nope.txt', description: 'run it' })), when(userSays('use the Makefile'), text('noted: reason read')), when(userSays('plan it'), text('planned'))],
    });
    const { sessionId, watch } = await spawn();
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
    await watch.send('go');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'Bash'), { what: 'the shell request', timeoutMs: STEP_MS });
    expect((await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'use the Makefile target instead' } })).ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'noted: reason read'), { what: 'the reason read', timeoutMs: STEP_MS });
    expect(existsSync(join(sandbox.cwd, 'nope.txt'))).toBe(false);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the denial', timeoutMs: STEP_MS });

    expect((await watch.emit('session:set-mode', { sessionId, mode: 'plan' })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.permissionMode === 'plan', { what: 'plan mode on the hub', timeoutMs: STEP_MS });
    await watch.send('plan it');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'planned'), { what: 'the reply in plan mode', timeoutMs: STEP_MS });
    // opencode's plan agent tells its model, in a reminder after the person's words, it may not edit.
    expect(JSON.stringify(fake.mainRequests().at(-1)?.messages)).toMatch(/Plan mode ACTIVE/);
    expect(watch.duplicates()).toBe(0);
  }, 600_000);

  it('an edit asked about from the phone with its file and diff: allowed it is written, denied it is not', async () => {
    const { sandbox, spawn } = await startOpencodeDaemonWorld(defer, {
      script: [
        when(userSays('write allowed'), toolCall('write', { filePath: 'allowed.md', content: 'written from the phone\n' })),
        when(hasToolResult(), text('after the write')),
        when(userSays('write denied'), toolCall('write', { filePath: 'denied.md', content: 'never\n' })),
        // ACP's rejection carries no reason: tether says it as the next input.
        when(userSays('not that file'), text('reason read')),
      ],
    });
    const { watch } = await spawn();
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle', timeoutMs: STEP_MS });
    await watch.send('write allowed');
    const allowed = await watch.waitFor(() => writeAsked(watch.requested, 'allowed.md'), { what: 'the edit request', timeoutMs: STEP_MS });
    expect(allowed.toolInput).toEqual(newFileCard(join(sandbox.cwd, 'allowed.md'), 'written from the phone'));
    expect((await watch.emit('approval:answer', { requestId: allowed.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle' && watch.messages().some((m) => m.role === 'assistant' && chatText(m) === 'after the write'), { what: 'the turn after the write', timeoutMs: STEP_MS });
    expect(readFileSync(join(sandbox.cwd, 'allowed.md'), 'utf8')).toBe('written from the phone\n');

    await watch.send('write denied');
    const denied = await watch.waitFor(() => writeAsked(watch.requested, 'denied.md'), { what: 'the denied edit', timeoutMs: STEP_MS });
    expect((await watch.emit('approval:answer', { requestId: denied.id, answer: { decision: 'deny', reason: 'not that file' } })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle' && watch.messages().some((m) => m.role === 'assistant' && chatText(m) === 'reason read'), { what: 'the turn after the denial', timeoutMs: STEP_MS });
    expect(existsSync(join(sandbox.cwd, 'denied.md'))).toBe(false);
    expect(watch.duplicates()).toBe(0);
  }, 600_000);
});
