import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHookClient } from './client.ts';
import { startHookServer, type HookServer } from './server.ts';
import { HOOK_FILE_ENV, HOOK_UNANSWERED_ENV } from './events.ts';

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

describe('hook client (SessionStart, the one command hook)', () => {
  it('posts the payload to the runner and prints its non-empty answer', async () => {
    const seen: unknown[] = [];
    server = startHookServer({ onHook: async (request) => (seen.push(request.payload), { additionalContext: 'x' }) });
    const result = await runHookClient({ event: 'session-start', stdin: JSON.stringify({ session_id: 's1' }), env: { [HOOK_FILE_ENV]: endpointFile(server.endpoint) } });
    expect(seen).toEqual([{ session_id: 's1' }]);
    expect(result).toEqual({ stdout: JSON.stringify({ additionalContext: 'x' }), exitCode: 0, problem: null });
  });

  it('prints nothing for an empty answer, so claude adds nothing to the model context', async () => {
    server = startHookServer({ onHook: async () => ({}) });
    const result = await runHookClient({ event: 'session-start', stdin: '{}', env: { [HOOK_FILE_ENV]: endpointFile(server.endpoint) } });
    expect(result).toEqual({ stdout: '', exitCode: 0, problem: null });
  });

  it('never blocks claude: unreachable runner, missing endpoint file or wrong secret print nothing and exit 0', async () => {
    const unreachable = await runHookClient({ event: 'session-start', stdin: '{}', env: { [HOOK_FILE_ENV]: endpointFile({ port: deadPort(), secret: 'x' }) } });
    expect(unreachable).toMatchObject({ stdout: '', exitCode: 0 });
    expect(unreachable.problem).toContain('not reachable');
    const missing = await runHookClient({ event: 'session-start', stdin: '{}', env: {} });
    expect(missing).toMatchObject({ stdout: '', exitCode: 0 });
    expect(missing.problem).toContain(HOOK_FILE_ENV);
    server = startHookServer({ onHook: async () => ({ never: 'seen' }) });
    const wrong = await runHookClient({ event: 'session-start', stdin: '{}', env: { [HOOK_FILE_ENV]: endpointFile({ port: server.endpoint.port, secret: 'bad' }) } });
    expect(wrong).toEqual({ stdout: '', exitCode: 0, problem: 'runner answered HTTP 403' });
  });

  it('prints the answer it was given for "nobody answered" (TETHER_HOOK_UNANSWERED) when the runner cannot answer, so an agent whose silence would allow asks at its desk', async () => {
    const ask = '{"decision":"ask"}';
    const unreachable = await runHookClient({ event: 'permission-request', stdin: '{}', env: { [HOOK_FILE_ENV]: endpointFile({ port: deadPort(), secret: 'x' }), [HOOK_UNANSWERED_ENV]: ask } });
    expect(unreachable).toMatchObject({ stdout: ask, exitCode: 0 });
    expect(unreachable.problem).toBeTruthy();
    const missing = await runHookClient({ event: 'permission-request', stdin: '{}', env: { [HOOK_UNANSWERED_ENV]: ask } });
    expect(missing).toMatchObject({ stdout: ask, exitCode: 0 });
  });

  it('the real `tether hook session-start` process exits 0 with no output when the runner is unreachable', async () => {
    const main = resolve(import.meta.dirname, '..', 'main.ts');
    const proc = Bun.spawn([process.execPath, main, 'hook', 'session-start'], {
      stdin: new TextEncoder().encode(JSON.stringify({ session_id: 's1' })),
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...process.env, [HOOK_FILE_ENV]: endpointFile({ port: deadPort(), secret: 'x' }) },
    });
    const stdout = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(stdout).toBe('');
    expect(await new Response(proc.stderr).text()).toContain('not reachable');
  });
});
