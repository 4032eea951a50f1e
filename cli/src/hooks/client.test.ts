import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHookClient } from './client.ts';
import { startHookServer, type HookServer } from './server.ts';
import { HOOK_FILE_ENV } from './events.ts';

let server: HookServer | null = null;
afterEach(() => {
  server?.stop();
  server = null;
});

function endpointFile(endpoint: { port: number; secret: string }): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tether-hook-test-')), 'endpoint.json');
  writeFileSync(file, JSON.stringify(endpoint), { mode: 0o600 });
  return file;
}

/** A port nothing listens on: start a server, note its port, stop it. */
function deadPort(): number {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
  const port = s.port as number;
  s.stop(true);
  return port;
}

function decisionOf(stdout: string): string | undefined {
  return (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision;
}

describe('hook client (fail closed)', () => {
  it('denies within 2 s when the runner is unreachable', async () => {
    const started = Date.now();
    const result = await runHookClient({
      event: 'pre-tool-use',
      stdin: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }),
      env: { [HOOK_FILE_ENV]: endpointFile({ port: deadPort(), secret: 'x' }) },
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(decisionOf(result.stdout)).toBe('deny');
    expect(result.stdout).toContain('not reachable');
  });

  it('denies when the endpoint file is missing', async () => {
    const result = await runHookClient({ event: 'pre-tool-use', stdin: '{}', env: {} });
    expect(decisionOf(result.stdout)).toBe('deny');
  });

  it('denies on a wrong secret and on a malformed decision', async () => {
    server = startHookServer({ onHook: async () => ({ hookSpecificOutput: { permissionDecision: 'maybe' } }) });
    const wrong = await runHookClient({ event: 'pre-tool-use', stdin: '{}', env: { [HOOK_FILE_ENV]: endpointFile({ port: server.endpoint.port, secret: 'bad' }) } });
    expect(decisionOf(wrong.stdout)).toBe('deny');
    const malformed = await runHookClient({ event: 'pre-tool-use', stdin: '{}', env: { [HOOK_FILE_ENV]: endpointFile(server.endpoint) } });
    expect(decisionOf(malformed.stdout)).toBe('deny');
  });

  it('denies when the runner goes away while the hook waits', async () => {
    server = startHookServer({ onHook: () => new Promise(() => {}) });
    const env = { [HOOK_FILE_ENV]: endpointFile(server.endpoint) };
    const pending = runHookClient({ event: 'pre-tool-use', stdin: '{}', env });
    await Bun.sleep(100);
    const stoppedAt = Date.now();
    server.stop();
    server = null;
    const result = await pending;
    expect(Date.now() - stoppedAt).toBeLessThan(2000);
    expect(decisionOf(result.stdout)).toBe('deny');
  });

  it('cancels the request at the runner when the hook is told to stop', async () => {
    let cancelled = false;
    server = startHookServer({
      onHook: (request) =>
        new Promise((resolve) => {
          request.signal.addEventListener('abort', () => {
            cancelled = true;
            resolve({});
          });
        }),
    });
    const stop = new AbortController();
    const pending = runHookClient({ event: 'pre-tool-use', stdin: '{}', env: { [HOOK_FILE_ENV]: endpointFile(server.endpoint) }, signal: stop.signal });
    await Bun.sleep(100);
    stop.abort();
    const result = await pending;
    expect(decisionOf(result.stdout)).toBe('deny');
    await expect.poll(() => cancelled).toBe(true);
  });

  it('prints nothing and exits 0 for a fact hook when the runner is unreachable', async () => {
    const result = await runHookClient({ event: 'stop', stdin: '{}', env: { [HOOK_FILE_ENV]: endpointFile({ port: deadPort(), secret: 'x' }) } });
    expect(result).toEqual({ stdout: '', exitCode: 0 });
  });

  it('the real `tether hook pre-tool-use` process denies when the runner is unreachable', async () => {
    const main = resolve(import.meta.dirname, '..', 'main.ts');
    const started = Date.now();
    const proc = Bun.spawn([process.execPath, main, 'hook', 'pre-tool-use'], {
      stdin: new TextEncoder().encode(JSON.stringify({ tool_name: 'Bash' })),
      stdout: 'pipe',
      env: { ...process.env, [HOOK_FILE_ENV]: endpointFile({ port: deadPort(), secret: 'x' }) },
    });
    const stdout = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(decisionOf(stdout)).toBe('deny');
  });
});
