// The harness against the real, pinned claude: startup in a PTY, a typed prompt answered from the
// fake API (screen + transcript), the Bash permission dialog, and a headless stream-json run.
import { readFileSync, existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claudeVersions } from '../../cli/src/agents/claude/version.ts';
import { lastToolResults, lastUserText, startFakeAnthropic, text, toolUse, type FakeAnthropic, type ScriptTurn } from '../fixtures/fake-anthropic/index.ts';
import { READY_PATTERN, claudeBin, createClaudeSandbox, inputBoxText, spawnClaudeInPty, type ClaudePty, type ClaudeSandbox } from './claude.ts';

type TranscriptLine = { type: string; message?: { role: string; content: unknown } };

function readTranscript(path: string): TranscriptLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as TranscriptLine);
}

describe('claude harness', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function world(script: ScriptTurn[]): Promise<{ api: FakeAnthropic; sandbox: ClaudeSandbox }> {
    const api = await startFakeAnthropic({ script });
    cleanups.push(() => api.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: api.url });
    cleanups.push(() => sandbox.stop());
    return { api, sandbox };
  }

  function spawn(sandbox: ClaudeSandbox, args: string[] = []): ClaudePty {
    const claude = spawnClaudeInPty({ sandbox, args, cols: 100, rows: 30 });
    cleanups.push(() => claude.stop());
    return claude;
  }

  it('builds a sandbox with a trusted realpath cwd, an approved key and no outer claude env', async () => {
    const { api, sandbox } = await world([]);
    const config = JSON.parse(readFileSync(`${sandbox.configDir}/.claude.json`, 'utf8'));
    expect(config.hasCompletedOnboarding).toBe(true);
    expect(config.projects[sandbox.cwd].hasTrustDialogAccepted).toBe(true);
    expect(sandbox.env.ANTHROPIC_API_KEY?.endsWith(config.customApiKeyResponses.approved[0])).toBe(true);
    expect(sandbox.env).toMatchObject({ ANTHROPIC_BASE_URL: api.url, CLAUDE_CONFIG_DIR: sandbox.configDir, TERM: 'xterm-256color' });
    expect(sandbox.env.CLAUDECODE).toBeUndefined();
    expect(sandbox.projectDir).toBe(`${sandbox.configDir}/projects/${sandbox.cwd.replace(/[^a-zA-Z0-9]/g, '-')}`);
    expect(existsSync(claudeBin())).toBe(true);
  });

  it('starts claude in a PTY and reaches the ready prompt', { timeout: 60_000 }, async () => {
    const { api, sandbox } = await world([]);
    const claude = spawn(sandbox);
    const screen = await claude.waitForReady({ timeoutMs: 30_000 });
    expect(screen).toMatch(READY_PATTERN);
    expect(screen).toContain(`Claude Code v${claudeVersions.read(claudeBin())}`);
    expect(inputBoxText(screen)).toBe('');
  });

  it('quits on Ctrl-C twice and reports the exit', { timeout: 60_000 }, async () => {
    const { sandbox } = await world([]);
    const claude = spawn(sandbox);
    await claude.waitForReady({ timeoutMs: 30_000 });
    // On a loaded box claude draws its ready prompt before it reads keys, and a press then is lost
    // (no hint, ever: the test hung on it with 2.1.332 at load 10). A person presses again; so does
    // this, at most three times, each given 4 s to arm the exit (its hint shows for under a second).
    for (let press = 1; ; press++) {
      claude.write('\x03');
      const armed = await claude.waitForScreen(/Press Ctrl-C again to exit/, { timeoutMs: 4_000 }).then(() => true, () => false);
      if (armed) break;
      if (press === 3) throw new Error(`three Ctrl-C presses never armed the exit:\n${claude.screenText()}`);
    }
    claude.write('\x03');
    expect(await claude.exited).toEqual({ exitCode: 0 });
    // No "Resume this session with:" hint: without a prompt there is no session to resume.
    expect(claude.bufferText()).not.toContain('claude --resume');
    await expect(claude.waitForScreen(/never drawn/)).rejects.toThrow(/claude exited/);
  });

  it('answers a typed prompt from the script, on screen and in the transcript', { timeout: 60_000 }, async () => {
    const { api, sandbox } = await world([text('Hello from the fake model!')]);
    const sessionId = crypto.randomUUID();
    const claude = spawn(sandbox, ['--session-id', sessionId]);
    await claude.waitForReady({ timeoutMs: 30_000 });

    await claude.submit('say hello');
    await claude.waitForScreen(/● Hello from the fake model!/, { timeoutMs: 20_000 });
    await claude.waitForReady({ timeoutMs: 20_000 });

    const [main] = api.mainRequests();
    expect(main && lastUserText(main)).toBe('say hello');
    expect(api.remainingTurns()).toBe(0);

    await vi.waitFor(
      () => {
        const lines = readTranscript(sandbox.transcriptPath(sessionId));
        const said = lines.find((line) => line.type === 'assistant' && JSON.stringify(line.message?.content).includes('Hello from the fake model!'));
        expect(said).toBeDefined();
        expect(lines.some((line) => line.type === 'user' && line.message?.content === 'say hello')).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it('shows the permission dialog for a scripted Bash call', { timeout: 60_000 }, async () => {
    // `echo …` is auto-allowed as read-only; `touch` needs a permission in manual mode (2.1.330
    // starts in auto mode).
    const { api, sandbox } = await world([toolUse('Bash', { command: 'touch made-by-claude.txt', description: 'Create a file' }), text('Created.')]);
    const claude = spawn(sandbox, ['--permission-mode', 'default']);
    await claude.waitForReady({ timeoutMs: 30_000 });

    await claude.submit('make a file');
    const dialog = await claude.waitForScreen(/Do you want to proceed\?/, { timeoutMs: 20_000 });
    expect(dialog).toContain('Bash command');
    expect(dialog).toContain('touch made-by-claude.txt');
    expect(dialog).toMatch(/❯ 1\. Yes/);
    expect(dialog).toContain('Esc to cancel');

    // 2.1.330 ignores a key that lands right after its dialog opened: press until the dialog goes.
    const pressing = setInterval(() => {
      if (/Do you want to proceed\?/.test(claude.screenText())) claude.write('1');
    }, 700);
    claude.write('1');
    await claude.waitForScreen(/● Created\./, { timeoutMs: 20_000 }).finally(() => clearInterval(pressing));
    const toolCall = api.requests.find((request) => request.turnIndex === 0)?.reply?.blocks[0];
    const [, afterTool] = api.mainRequests();
    expect(afterTool && lastToolResults(afterTool)).toEqual([
      { toolUseId: toolCall?.type === 'tool_use' ? toolCall.id : 'missing', text: expect.any(String), isError: false },
    ]);
    expect(existsSync(`${sandbox.cwd}/made-by-claude.txt`)).toBe(true);
  });

  it('answers a headless stream-json run', { timeout: 60_000 }, async () => {
    const { sandbox } = await world([text('Headless hello!')]);
    const child = Bun.spawn(
      [claudeBin(), '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
      { cwd: sandbox.cwd, env: sandbox.env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' },
    );
    cleanups.push(() => child.kill());
    child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello headless' } })}\n`);
    await child.stdin.flush();

    const messages: Array<Record<string, unknown>> = [];
    let pending = '';
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) messages.push(JSON.parse(line));
      if (messages.some((message) => message.type === 'result')) break;
    }
    await child.stdin.end();
    const result = messages.find((message) => message.type === 'result');
    expect(result).toMatchObject({ subtype: 'success', is_error: false, result: 'Headless hello!' });
    expect(messages.find((message) => message.type === 'system' && message.subtype === 'init')).toMatchObject({ cwd: sandbox.cwd });
    expect(await child.exited).toBe(0);
  });
});
