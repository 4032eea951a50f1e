// The hook bridge groundwork with real claude: what claude does not ask about (reading a file of the
// project) never reaches the hub; what it asks about (a Bash command that writes) becomes a hub
// approval (answered from a /web client); without the hub claude asks at the desk.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, toolUse, hasToolResult, when, userSays } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startRunner } from '../harness/runner.ts';
import { DESK_READY, MANUAL_MODE, startWorld } from '../harness/world.ts';
import { answerDeskDialog } from '../harness/approvals.ts';

const defer = useCleanups();

describe('hook bridge', () => {
  it('Read is allowed without asking; Bash is asked on the hub and runs once allowed there', async () => {
    const { sandbox, runner, phone } = await startWorld(defer, {
      script: [
        when(userSays(/read it/), toolUse('Read', { file_path: 'notes.txt' })),
        when(hasToolResult({ isError: false }), text('read done')),
        when(userSays(/make it/), toolUse('Bash', { command: 'touch made.txt', description: 'make a file' })),
        when(hasToolResult({ isError: false }), text('made it')),
      ],
      ready: false,
    });
    await runner.waitForScreen(DESK_READY);
    writeFileSync(join(sandbox.cwd, 'notes.txt'), 'hello\n');

    await phone.send('read it');
    await runner.waitForScreen('read done');
    expect(phone.requested).toEqual([]);

    await phone.send('make it');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'approval request on the hub' });
    expect(request.toolInput).toMatchObject({ command: 'touch made.txt' });
    expect(existsSync(join(sandbox.cwd, 'made.txt'))).toBe(false);
    const ack = await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    expect(ack.ok).toBe(true);
    await runner.waitForScreen('made it');
    expect(existsSync(join(sandbox.cwd, 'made.txt'))).toBe(true);
  }, 60_000);

  it('without a hub, a tool call falls back to claude\'s own dialog at the desk', async () => {
    const fake = await startFakeAnthropic({ script: [toolUse('Bash', { command: 'touch desk.txt', description: 'make a file' }), text('desk made it')] });
    defer(() => fake.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const runner = startRunner({ sandbox, args: MANUAL_MODE });
    defer(() => runner.stop());
    await runner.waitForScreen(DESK_READY);
    runner.write('make a file');
    await runner.waitForScreen('make a file');
    runner.write('\r');
    await answerDeskDialog(runner, '1');
    await runner.waitForScreen('desk made it');
    expect(existsSync(join(sandbox.cwd, 'desk.txt'))).toBe(true);
  }, 60_000);
});
