import { afterEach, describe, expect, it } from 'vitest';
import { startHookServer, type HookRequest, type HookServer } from './server.ts';
import { HOOK_SECRET_HEADER } from './events.ts';

let server: HookServer | null = null;
afterEach(() => {
  server?.stop();
  server = null;
});

describe('hook server', () => {
  it('rejects requests without the secret or with a wrong one (403), never calling the handler', async () => {
    let calls = 0;
    server = startHookServer({ onHook: async () => ((calls += 1), {}) });
    const url = `http://127.0.0.1:${server.endpoint.port}/hook/stop`;
    const none = await fetch(url, { method: 'POST', body: '{}' });
    const wrong = await fetch(url, { method: 'POST', body: '{}', headers: { [HOOK_SECRET_HEADER]: 'nope' } });
    expect(none.status).toBe(403);
    expect(wrong.status).toBe(403);
    expect(calls).toBe(0);
  });

  it('passes the event and payload to the handler and returns its JSON', async () => {
    const seen: HookRequest[] = [];
    server = startHookServer({
      onHook: async (request) => {
        seen.push(request);
        return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
      },
    });
    const response = await fetch(`http://127.0.0.1:${server.endpoint.port}/hook/permission-request`, {
      method: 'POST',
      body: JSON.stringify({ tool_name: 'Read' }),
      headers: { [HOOK_SECRET_HEADER]: server.endpoint.secret },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    expect(seen[0]?.event).toBe('permission-request');
    expect(seen[0]?.payload).toEqual({ tool_name: 'Read' });
  });

  it('aborts the handler signal when claude drops the connection', async () => {
    let aborted: () => void = () => {};
    const wasAborted = new Promise<void>((resolve) => (aborted = resolve));
    server = startHookServer({
      onHook: (request) =>
        new Promise((resolve) => {
          request.signal.addEventListener('abort', () => {
            aborted();
            resolve({});
          });
        }),
    });
    const controller = new AbortController();
    const pending = fetch(`http://127.0.0.1:${server.endpoint.port}/hook/permission-request`, {
      method: 'POST',
      body: '{}',
      headers: { [HOOK_SECRET_HEADER]: server.endpoint.secret },
      signal: controller.signal,
    }).catch(() => null);
    await Bun.sleep(50);
    controller.abort();
    await pending;
    await wasAborted;
  });
});
