import { describe, expect, it } from 'vitest';
import { AcpError, connectAcp, type AcpRequest } from './connection.ts';
import { testAgent } from './test-agent.fixture.ts';

describe('connectAcp', () => {
  it('speaks JSON-RPC 2.0: answers matched by id, notifications and the agent\'s requests passed on, junk logged and skipped', async () => {
    const agent = testAgent();
    const notes: string[] = [];
    const asked: AcpRequest[] = [];
    const logs: string[] = [];
    const conn = connectAcp({ name: 'x', ...agent.pipes, log: (l) => logs.push(l), onNotification: (m) => notes.push(m), onRequest: (r) => asked.push(r) });
    const first = conn.request('initialize', { protocolVersion: 1 });
    const second = conn.request('session/new', { cwd: '/w' });
    expect(agent.written).toEqual([
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } },
      { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w' } },
    ]);
    agent.say('not json');
    agent.say('[1,2]');
    agent.say('{"jsonrpc":"2.0","id":99,"result":{}}');
    agent.say('{"jsonrpc":"2.0"}');
    agent.send({ id: 1, result: { sessionId: 's1' } });
    agent.send({ method: 'session/update', params: { sessionId: 's1' } });
    agent.send({ id: 0, error: { code: -32600, message: 'bad' } });
    agent.send({ id: 7, method: 'session/request_permission', params: { sessionId: 's1' } });
    await expect(second).resolves.toEqual({ sessionId: 's1' });
    await expect(first).rejects.toMatchObject({ method: 'initialize', code: -32600 });
    expect(notes).toEqual(['session/update']);
    expect(asked).toEqual([{ id: 7, method: 'session/request_permission', params: { sessionId: 's1' } }]);
    expect(logs).toEqual([
      'x acp: not JSON: not json',
      'x acp: not a JSON-RPC message: [1,2]',
      'x acp: an answer to no request of ours (id 99)',
      'x acp: a message with no method and no id: {"jsonrpc":"2.0"}',
    ]);
    conn.respond(7, { outcome: { outcome: 'cancelled' } });
    conn.notify('session/cancel', { sessionId: 's1' });
    expect(agent.written.slice(2)).toEqual([
      { jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'cancelled' } } },
      { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's1' } },
    ]);
    agent.end();
    await conn.done;
  });

  it('a handler that throws is logged, not thrown; the agent exiting rejects what waits and refuses what follows', async () => {
    const agent = testAgent();
    const logs: string[] = [];
    const conn = connectAcp({ name: 'x', ...agent.pipes, log: (l) => logs.push(l), onNotification: () => { throw new Error('boom'); }, onRequest: () => undefined });
    const waiting = conn.request('session/prompt', {});
    agent.send({ method: 'session/update', params: {} });
    agent.end();
    await conn.done;
    await expect(waiting).rejects.toBeInstanceOf(AcpError);
    await expect(waiting).rejects.toThrow('session/prompt: x exited before answering');
    await expect(conn.request('session/prompt', {})).rejects.toThrow('x has exited');
    expect(logs).toEqual(['x acp: handling a line failed: Error: boom']);
    const before = agent.written.length;
    conn.notify('session/cancel', {});
    expect(agent.written).toHaveLength(before);
  });
});
