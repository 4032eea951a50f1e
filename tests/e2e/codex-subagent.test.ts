// A Codex sub-agent's approval on the phone says which sub-agent asks (the real Codex TUI against the
// fake Responses API, a real hub): the model spawns a sub-agent (`spawn_agent`), whose command asks
// for approval; the PermissionRequest hook names its thread (`agent_id`) and its rollout, whose
// session_meta names it, and the request reaches the phone with `askedBy`. Denied on the phone, the
// sub-agent hears no and the turn ends. Headless (app-server): the request names its thread, which
// app-server names (thread/read: 0.171.0 did not announce the sub-agent's thread to this client).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { execCommand, hasToolOutput, spawnAgent, text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexDaemonWorld, startCodexWorld } from '../harness/codex-world.ts';

const defer = useCleanups();

describe('tether codex: a sub-agent asks (PTY)', () => {
  it('the phone sees which sub-agent asks (its nickname, its thread); denied there, the turn ends', async () => {
    const { phone, sandbox } = await startCodexWorld(defer, {
      script: [
        when(userSays(/start the helper/), spawnAgent('child task: touch the marker file')),
        // The parent's next request (the spawn's result) and the child's first one race each other.
        {
          anyOrder: [
            when((request) => userSays(/start the helper/)(request) && hasToolOutput()(request), text('parent done')),
            when(userSays(/child task/), execCommand('touch sub-agent-marker', { justification: 'the child needs it' })),
          ],
        },
        text('child done'),
      ],
    });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    await phone.send('start the helper');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'the sub-agent’s request on the hub', timeoutMs: 30_000 });
    // The sub-agent's own rollout: its thread id and the nickname Codex gave it.
    const child = sandbox
      .transcripts()
      .map((path) => JSON.parse(readFileSync(path, 'utf8').split('\n')[0]!) as { payload: { id: string; agent_nickname?: string; parent_thread_id?: string } })
      .find((meta) => meta.payload.parent_thread_id);
    expect(child).toBeDefined();
    expect(request).toMatchObject({ kind: 'permission', toolInput: { command: 'touch sub-agent-marker' } });
    expect(child!.payload.agent_nickname).toEqual(expect.any(String));
    expect(request.askedBy).toEqual({ nickname: child!.payload.agent_nickname, thread: child!.payload.id.slice(0, 8) });
    expect((await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'not now' } })).ok).toBe(true);
    await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id), { what: 'the request resolved' });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'the turn over', timeoutMs: 30_000 });
    expect(phone.requested.filter((r) => r.kind === 'permission')).toHaveLength(1);
  });

  it('headless: the phone sees which sub-agent asks, named by app-server (thread/started, else thread/read)', async () => {
    const world = await startCodexDaemonWorld(defer, {
      script: [
        when(userSays(/start the helper/), spawnAgent('child task: touch the marker file')),
        // The parent's next request (the spawn's result) and the child's first one race each other.
        {
          anyOrder: [
            when((request) => userSays(/start the helper/)(request) && hasToolOutput()(request), text('parent done')),
            when(userSays(/child task/), execCommand('touch sub-agent-marker', { justification: 'the child needs it' })),
          ],
        },
        text('child done'),
      ],
    });
    const { watch } = await world.spawn('headless');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
    await watch.send('start the helper');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'Bash'), { what: 'the sub-agent’s request on the hub', timeoutMs: 30_000 });
    const child = world.sandbox
      .transcripts()
      .map((path) => JSON.parse(readFileSync(path, 'utf8').split('\n')[0]!) as { payload: { id: string; agent_nickname?: string; parent_thread_id?: string } })
      .find((meta) => meta.payload.parent_thread_id);
    expect(child).toBeDefined();
    expect(child!.payload.agent_nickname).toEqual(expect.any(String));
    expect(request.askedBy).toEqual({ nickname: child!.payload.agent_nickname, thread: child!.payload.id.slice(0, 8) });
    expect((await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'not now' } })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'the turn over', timeoutMs: 30_000 });
  }, 120_000);
});
