import { describe, expect, it } from 'vitest';
import { AppServerError, connectAppServer, type AppServerRequest } from './app-server.ts';
import { appServerArgs } from './headless.ts';

/** A fake Codex end: what tether writes, and a stdout tether reads. */
function pipes() {
  const written: Array<Record<string, unknown>> = [];
  let push!: (line: string) => void;
  let end!: () => void;
  const stdout = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (line) => controller.enqueue(new TextEncoder().encode(line));
      end = () => controller.close();
    },
  });
  const stdin = { write: (data: string) => written.push(JSON.parse(data)), flush: () => undefined, end: () => undefined };
  return { written, stdout, stdin, push: (line: string) => push(line), end: () => end() };
}

describe('connectAppServer', () => {
  it('matches answers to requests by id, passes notifications and Codex requests on, and skips junk', async () => {
    const p = pipes();
    const notes: string[] = [];
    const asked: AppServerRequest[] = [];
    const logs: string[] = [];
    const server = connectAppServer({ ...p, log: (l) => logs.push(l), onNotification: (m) => notes.push(m), onRequest: (r) => asked.push(r) });
    const first = server.request('initialize', { clientInfo: { name: 'tether' } });
    const second = server.request('thread/start', { cwd: '/x' });
    expect(p.written).toEqual([
      { id: 1, method: 'initialize', params: { clientInfo: { name: 'tether' } } },
      { id: 2, method: 'thread/start', params: { cwd: '/x' } },
    ]);
    // Answers may come in any order, split over chunks, with noise between.
    p.push('{"id":2,"result":{"thread":{"id":"t1"}}}\nnot json\n{"method":"turn/started","params":{"turn":{"id":"u1"}}}\n{"id":1,');
    p.push('"error":{"code":-32600,"message":"bad"}}\n{"id":0,"method":"item/commandExecution/requestApproval","params":{"itemId":"c1"}}\n');
    await expect(second).resolves.toEqual({ thread: { id: 't1' } });
    await expect(first).rejects.toMatchObject({ method: 'initialize', code: -32600 });
    expect(notes).toEqual(['turn/started']);
    expect(asked).toEqual([{ id: 0, method: 'item/commandExecution/requestApproval', params: { itemId: 'c1' } }]);
    expect(logs.some((l) => l.includes('not JSON'))).toBe(true);
    server.respond(0, { decision: 'accept' });
    server.fail(7, { code: -32601, message: 'no' });
    server.notify('initialized');
    expect(p.written.slice(2)).toEqual([{ id: 0, result: { decision: 'accept' } }, { id: 7, error: { code: -32601, message: 'no' } }, { method: 'initialized' }]);
  });

  it('settles what is still unanswered when Codex exits, and refuses new requests', async () => {
    const p = pipes();
    const server = connectAppServer({ ...p, log: () => {}, onNotification: () => {}, onRequest: () => {} });
    const waiting = server.request('turn/start', {});
    p.end();
    await expect(waiting).rejects.toBeInstanceOf(AppServerError);
    await server.done;
    await expect(server.request('turn/start', {})).rejects.toThrow(/exited/);
  });
});

describe('appServerArgs', () => {
  it('keeps the user config overrides and features, and leaves the TUI arguments to the thread', () => {
    expect(appServerArgs(['resume', 'abc', '-m', 'gpt-x', '-c', 'a=1', '--config=b=2', '--enable', 'f', '--disable=g', 'a prompt'])).toEqual(['-c', 'a=1', '--config=b=2', '--enable', 'f', '--disable=g']);
  });
});
