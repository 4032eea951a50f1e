// sub-agents.test.ts: which Codex thread asks, as the protocol's AskedBy: from a PTY hook payload
// (its session_id and its rollout's session_meta) and from headless app-server's thread/started.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HeadlessEvents } from '../headless-transport.ts';
import type { AppServer } from './app-server.ts';
import { askCodex } from './headless-approvals.ts';
import { codexHookAskedBy, createThreadNames, namesInSessionMeta } from './sub-agents.ts';
import { tempDirPerTest } from '../../testing/temp-dirs.ts';

const MAIN = '019a0000-0000-7000-8000-000000000001';
const CHILD = '019a2b3c-4d5e-7000-8000-000000000002';

const dir = tempDirPerTest('codex-subagents');

function rollout(meta: Record<string, unknown>): string {
  const path = join(dir(), `rollout-2026-11-27T08-00-00-${CHILD}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id: CHILD, cwd: '/p', ...meta } })}\n{"type":"turn_context"}\n`);
  return path;
}

describe('a PTY Codex hook payload: who asks', () => {
  it('a sub-agent’s hook (0.171.0: the session’s session_id, its own agent_id) is named from its rollout’s session_meta', () => {
    const transcript_path = rollout({ session_id: MAIN, parent_thread_id: MAIN, source: { subagent: { thread_spawn: { parent_thread_id: MAIN, depth: 1, agent_nickname: 'Pascal', agent_role: null } } }, agent_nickname: 'Pascal' });
    const payload = { session_id: MAIN, agent_id: CHILD, agent_type: 'default', transcript_path, hook_event_name: 'PermissionRequest', tool_name: 'Bash' };
    expect(codexHookAskedBy({ payload, mainSessionId: MAIN })).toEqual({ nickname: 'Pascal', thread: '019a2b3c' });
    expect(codexHookAskedBy({ payload: { ...payload, agent_type: 'explorer' }, mainSessionId: MAIN })).toEqual({ nickname: 'Pascal', role: 'explorer', thread: '019a2b3c' });
  });

  it('a role in session_meta’s thread_spawn is read too; a hook naming only its own session_id is that thread', () => {
    const transcript_path = rollout({ source: { subagent: { thread_spawn: { parent_thread_id: MAIN, depth: 1, agent_nickname: 'Ada', agent_role: 'explorer' } } } });
    expect(codexHookAskedBy({ payload: { session_id: CHILD, transcript_path }, mainSessionId: MAIN })).toEqual({ nickname: 'Ada', role: 'explorer', thread: '019a2b3c' });
  });

  it('the session’s own thread, or no known session yet, names nobody', () => {
    expect(codexHookAskedBy({ payload: { session_id: MAIN, transcript_path: rollout({}) }, mainSessionId: MAIN })).toBeNull();
    expect(codexHookAskedBy({ payload: { session_id: MAIN, agent_id: MAIN }, mainSessionId: MAIN })).toBeNull();
    expect(codexHookAskedBy({ payload: { session_id: CHILD }, mainSessionId: null })).toBeNull();
    expect(codexHookAskedBy({ payload: {}, mainSessionId: MAIN })).toBeNull();
  });

  it('a rollout it cannot read, or a path that is not a rollout, still says the short thread id', () => {
    expect(codexHookAskedBy({ payload: { session_id: CHILD, transcript_path: join(dir(), 'rollout-missing.jsonl') }, mainSessionId: MAIN })).toEqual({ thread: '019a2b3c' });
    writeFileSync(join(dir(), 'notes.txt'), JSON.stringify({ type: 'session_meta', payload: { agent_nickname: 'Mallory' } }));
    expect(codexHookAskedBy({ payload: { session_id: CHILD, transcript_path: join(dir(), 'notes.txt') }, mainSessionId: MAIN })).toEqual({ thread: '019a2b3c' });
  });

  it('names past the protocol’s bounds are left out, not sent', () => {
    const transcript_path = rollout({ agent_nickname: 'x'.repeat(200), agent_role: 'reviewer\u001b[2J' });
    expect(codexHookAskedBy({ payload: { session_id: CHILD, transcript_path }, mainSessionId: MAIN })).toEqual({ thread: '019a2b3c' });
  });

  it('reads the names at the top of session_meta too, and nothing from a line that is not JSON', () => {
    expect(namesInSessionMeta(JSON.stringify({ type: 'session_meta', payload: { agent_nickname: 'Bo', agent_role: null } }))).toEqual({ nickname: 'Bo', role: undefined });
    expect(namesInSessionMeta('{not json')).toEqual({});
  });
});

describe('headless Codex: who asks', () => {
  function harness() {
    const asked: Array<{ askedBy?: unknown }> = [];
    const events = { ask: async (o: { askedBy?: unknown }) => (asked.push(o), { behavior: 'allow' }), withdraw: () => {} } as unknown as HeadlessEvents;
    const server = { respond: () => {}, fail: () => {}, request: async () => ({}) } as unknown as AppServer;
    return { asking: askCodex({ events, log: () => {}, turn: { threadId: MAIN, turnId: 't1' }, server: () => server }), asked };
  }

  it('a request from a sub-agent’s thread names it as thread/started did; the main thread’s names nobody', async () => {
    const { asking, asked } = harness();
    asking.threadStarted({ id: CHILD, parentThreadId: MAIN, agentNickname: 'Ada', agentRole: 'explorer' });
    const bash = (threadId: string, id: number) => asking.ask({ id, method: 'item/commandExecution/requestApproval', params: { threadId, turnId: 'x', itemId: `i${id}`, command: 'ls' } });
    await bash(CHILD, 1);
    await bash('0a1b2c3d-9999-7000-8000-000000000000', 2);
    await bash(MAIN, 3);
    expect(asked.map((a) => a.askedBy)).toEqual([{ nickname: 'Ada', role: 'explorer', thread: '019a2b3c' }, { thread: '0a1b2c3d' }, null]);
  });

  it('remembers a bounded number of threads, and ignores a thread/started that is not one', async () => {
    const threads = createThreadNames();
    threads.started('not a thread');
    threads.started({ id: '  ' });
    for (let i = 0; i < 300; i++) threads.started({ id: `t${i}-x`, agentNickname: `n${i}` });
    expect(await threads.asker({ threadId: 't0-x', mainThreadId: MAIN })).toEqual({ thread: 't0-x' });
    expect(await threads.asker({ threadId: 't299-x', mainThreadId: MAIN })).toEqual({ nickname: 'n299', thread: 't299-x' });
    expect(await threads.asker({ threadId: undefined, mainThreadId: MAIN })).toBeNull();
  });

  it('a thread it was not told of is read once (thread/read); a read that fails or is slow leaves the short id', async () => {
    const reads: string[] = [];
    const threads = createThreadNames({ read: async (id) => (reads.push(id), { thread: { id, agentNickname: 'Jason', agentRole: null } }) });
    expect(await threads.asker({ threadId: CHILD, mainThreadId: MAIN })).toEqual({ nickname: 'Jason', thread: '019a2b3c' });
    expect(await threads.asker({ threadId: CHILD, mainThreadId: MAIN })).toEqual({ nickname: 'Jason', thread: '019a2b3c' });
    expect(reads).toEqual([CHILD]);
    const failing = createThreadNames({ read: async () => Promise.reject(new Error('no such thread')) });
    expect(await failing.asker({ threadId: CHILD, mainThreadId: MAIN })).toEqual({ thread: '019a2b3c' });
    const other = createThreadNames({ read: async () => ({ thread: { id: 'someone-else', agentNickname: 'Mallory' } }) });
    expect(await other.asker({ threadId: CHILD, mainThreadId: MAIN })).toEqual({ thread: '019a2b3c' });
    const started = Date.now();
    const silent = createThreadNames({ read: () => new Promise(() => {}) });
    expect(await silent.asker({ threadId: CHILD, mainThreadId: MAIN })).toEqual({ thread: '019a2b3c' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
