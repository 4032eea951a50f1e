// hook-events.test.ts: what the agent's hook events (and the requests they open, through the
// session's request registry) publish to the status reducer, with the orderings that used to leave
// a stale status (two approvals open, a tool finishing mid-question, an answer after the turn ended).
import { describe, expect, it } from 'vitest';
import type { PermissionMode, SessionStatus } from '@tether/shared';
import type { GateCall, HookDialect, HookGate } from '../../agents/agent.ts';
import { createHookHandler } from './hook-events.ts';
import { createStatusTracker, statusFollowsRequests } from './status.ts';
import { createApprovals, type Approvals, type Verdict } from '../requests/approvals.ts';
import type { Elicitations } from '../requests/elicitation.ts';
import { createRequestRegistry } from '../requests/registry.ts';
import { recordingLink } from '../../testing/recording-link.ts';
import type { HookRequest } from '../../hooks/server.ts';

/** A handler with the session's real approvals and request registry over a recording hub link: the
 *  test answers as the hub would, and sees the statuses derived. */
function world() {
  const link = recordingLink();
  const seen: SessionStatus[] = [];
  const status = createStatusTracker({ onChange: (next) => seen.push(next) });
  status.publish({ kind: 'ready' });
  const requests = createRequestRegistry({ sessionId: () => 's1', link: () => link });
  statusFollowsRequests({ requests, status });
  const approvals = createApprovals({ sessionId: () => 's1', link: () => link, requests });
  const state = { id: 's1', status: 'idle' as SessionStatus, agentSessionId: null, model: null, permissionMode: 'default' as PermissionMode };
  const handle = createHookHandler({
    hooks: { onTranscript: () => {}, onStop: () => status.publish({ kind: 'turnEnded' }) },
    approvals,
    elicitations: {} as Elicitations,
    state,
    patch: () => {},
    status,
    link: () => link,
    onAny: () => {},
    readTranscriptSoon: () => {},
  });
  const hook = (event: HookRequest['event'], payload: Record<string, unknown> = {}) => handle({ event, payload, signal: new AbortController().signal });
  /** The hub's answer to the n-th request the runner sent. */
  const answer = (n: number, decision: 'allow' | 'deny') => {
    const sent = link.sent.filter((s) => s.event === 'approval:request')[n];
    if (!sent) throw new Error(`no request ${n} sent`);
    requests.answered({ requestId: sent.payload.id as string, answer: { decision } });
  };
  /** The status facts of the registry go out on a later turn of the event loop (after the request
   *  left, after the answer left): two turns see them. */
  const settle = async () => {
    for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return { answer, status, seen, hook, settle };
}

const allow: Verdict = { behavior: 'allow' };

describe('hook events → status', () => {
  it('two permission requests open: waiting until both are answered', async () => {
    const w = world();
    await w.hook('user-prompt-submit');
    const first = w.hook('permission-request', { tool_name: 'Bash', tool_input: { command: 'a' } });
    const second = w.hook('permission-request', { tool_name: 'Bash', tool_input: { command: 'b' } });
    await w.settle();
    expect(w.status.status()).toBe('waiting');
    w.answer(0, 'allow');
    await first;
    await w.settle();
    expect(w.status.status()).toBe('waiting');
    w.answer(1, 'allow');
    await second;
    await w.settle();
    expect(w.status.status()).toBe('thinking');
    expect(w.seen).toEqual(['idle', 'thinking', 'waiting', 'thinking']);
  });

  it('a tool finishing while a permission is asked keeps the session waiting', async () => {
    const w = world();
    await w.hook('user-prompt-submit');
    const asked = w.hook('permission-request', { tool_name: 'Bash', tool_input: {} });
    await w.settle();
    await w.hook('post-tool-use', { tool_use_id: 't1' });
    expect(w.status.status()).toBe('waiting');
    w.answer(0, 'deny');
    await asked;
    await w.settle();
    expect(w.status.status()).toBe('thinking');
  });

  it("the agent's notification waits until a tool finishes; Stop ends the turn", async () => {
    const w = world();
    await w.hook('user-prompt-submit');
    await w.hook('notification', { notification_type: 'permission_prompt', message: 'needs you' });
    expect(w.status.status()).toBe('waiting');
    await w.hook('post-tool-use', { tool_use_id: 't1' });
    expect(w.status.status()).toBe('thinking');
    await w.hook('stop');
    expect(w.status.status()).toBe('idle');
  });

  it('a turn that ends on an API error (StopFailure: a usage limit) ends as Stop does', async () => {
    // claude sends no Stop then; its status file was busy for less than one poll, so only this hook
    // told the runner, and a continue from the phone waited behind a turn that had ended.
    const w = world();
    await w.hook('user-prompt-submit');
    expect(w.status.status()).toBe('thinking');
    await w.hook('stop-failure', { hook_event_name: 'StopFailure', error: 'rate_limit', last_assistant_message: "You've hit your 5-hour limit" });
    expect(w.status.status()).toBe('idle');
  });

  it('an answer after the turn ended leaves the session idle, not thinking', async () => {
    const w = world();
    await w.hook('user-prompt-submit');
    const asked = w.hook('permission-request', { tool_name: 'Bash', tool_input: {} });
    await w.settle();
    w.status.publish({ kind: 'turnEnded' }); // an abort read from the transcript
    expect(w.status.status()).toBe('waiting');
    w.answer(0, 'allow');
    await asked;
    await w.settle();
    expect(w.status.status()).toBe('idle');
  });
});

/** A handler over approvals that record what they were asked and allow it (no hub, no status). */
function recordingHandler(o: { state: Parameters<typeof createHookHandler>[0]['state']; asked: unknown[]; pick: (o: { toolName: string; askedBy?: unknown }) => unknown } & Partial<Parameters<typeof createHookHandler>[0]>) {
  const { state, asked, pick, ...more } = o;
  const approvals = { toolStarted: () => {}, toolResult: () => {}, ask: async (a: { toolName: string; askedBy?: unknown }) => (asked.push(pick(a)), allow) } as unknown as Approvals;
  return createHookHandler({
    hooks: { onTranscript: () => {} },
    approvals,
    elicitations: {} as Elicitations,
    state,
    patch: () => {},
    status: createStatusTracker({ onChange: () => {} }),
    link: () => null,
    onAny: () => {},
    readTranscriptSoon: () => {},
    ...more,
  });
}

describe('hook events → who asks', () => {
  it('a permission request carries the sub-agent the agent names from its payload, and none for its own', async () => {
    const asked: unknown[] = [];
    const state = { id: 's1', status: 'idle' as SessionStatus, agentSessionId: 'main-thread' as string | null, model: null, permissionMode: 'default' as PermissionMode };
    const seenBy: Array<{ payload: Record<string, unknown>; mainSessionId: string | null }> = [];
    const handle = recordingHandler({
      state,
      asked,
      pick: (a) => a.askedBy,
      askedBy: (o) => (seenBy.push(o), o.payload.session_id === o.mainSessionId ? null : { nickname: 'Ada' }),
    });
    const ask = (session_id: string) => handle({ event: 'permission-request', payload: { session_id, tool_name: 'Bash', tool_input: { command: 'ls' } }, signal: new AbortController().signal });
    await ask('child-thread');
    await ask('main-thread');
    expect(asked).toEqual([{ nickname: 'Ada' }, null]);
    expect(seenBy.map((o) => o.mainSessionId)).toEqual(['main-thread', 'main-thread']);
  });
});

describe('hook events → the agent session a fork is', () => {
  const ORIGINAL = '5c9ff989-e1d2-41af-9b1c-dd5def54dbcb';
  const FORK = '3fab7710-ed07-4f7f-834c-57c7a94180b8';
  const path = (id: string) => `/config/projects/-p/${id}.jsonl`;
  const payload = (id: string, more: Record<string, unknown> = {}) => ({ session_id: id, transcript_path: path(id), ...more });

  function forking(forkOf: string | null) {
    const followed: Array<{ path: string; source: string }> = [];
    const patches: unknown[] = [];
    const state = { id: 's1', status: 'idle' as SessionStatus, agentSessionId: null as string | null, model: null, permissionMode: 'default' as PermissionMode };
    const link = recordingLink();
    const handle = createHookHandler({
      hooks: { onTranscript: (p, source) => followed.push({ path: p, source }) },
      approvals: createApprovals({ sessionId: () => 's1', link: () => link, requests: createRequestRegistry({ sessionId: () => 's1', link: () => link }) }),
      elicitations: {} as Elicitations,
      state,
      patch: (p) => patches.push(p),
      status: createStatusTracker({ onChange: () => {} }),
      link: () => link,
      onAny: () => {},
      readTranscriptSoon: () => {},
      forkOf,
    });
    const hook = (event: HookRequest['event'], p: Record<string, unknown>) => handle({ event, payload: p, signal: new AbortController().signal });
    return { hook, followed, patches, state };
  }

  it('claude 2.1.197: SessionStart names the original, so the fork is taken from its first prompt', async () => {
    const w = forking(ORIGINAL);
    await w.hook('session-start', payload(ORIGINAL, { source: 'resume' }));
    expect(w.followed).toEqual([]);
    expect(w.state.agentSessionId).toBeNull();
    await w.hook('user-prompt-submit', payload(FORK, { prompt: 'fork question' }));
    expect(w.followed).toEqual([{ path: path(FORK), source: 'fork' }]);
    expect(w.patches).toEqual([{ agentSessionId: FORK }]);
    // Named once: the next prompt changes nothing.
    await w.hook('user-prompt-submit', payload(FORK, { prompt: 'again' }));
    expect(w.followed).toHaveLength(1);
  });

  it.each([
    { what: 'claude 2.1.332: SessionStart names the fork (source fork), and a prompt after it changes nothing', forkOf: ORIGINAL, started: FORK, source: 'fork' },
    { what: 'not a fork: a resume SessionStart names the resumed session, and a prompt names nothing', forkOf: null, started: ORIGINAL, source: 'resume' },
  ])('$what', async ({ forkOf, started, source }) => {
    const w = forking(forkOf);
    await w.hook('session-start', payload(started, { source }));
    await w.hook('user-prompt-submit', payload(FORK));
    expect(w.followed).toEqual([{ path: path(started), source }]);
    expect(w.state.agentSessionId).toBe(started);
  });

  it("an agent's own id (opencode's `ses_…`) is its session; what could be a flag or a path is not", async () => {
    const w = forking(null);
    await w.hook('session-start', payload('--dangerously-skip-permissions'));
    await w.hook('session-start', payload('../../etc/passwd'));
    expect(w.patches).toEqual([]);
    await w.hook('session-start', payload('ses_db4517537ffe3RxbKIQZWM7MZC'));
    expect(w.patches).toEqual([{ agentSessionId: 'ses_db4517537ffe3RxbKIQZWM7MZC' }]);
  });
});

describe('hook events → an agent whose hook is its only gate', () => {
  it("the gate's policy is the session's mode at each call: refused or allowed without asking, asked on the phone, or handed to the agent's dialog", async () => {
    const asked: unknown[] = [];
    const state = { id: 's1', status: 'idle' as SessionStatus, agentSessionId: null, model: null, permissionMode: 'plan' as PermissionMode, agentAsksToo: false };
    const calls: GateCall[] = [];
    const gate: HookGate = (call) => {
      calls.push(call);
      if (call.mode === 'plan') return { behavior: 'deny', message: 'read-only' };
      if (call.mode === 'bypassPermissions') return { behavior: 'allow' };
      return call.agentAsksToo ? { behavior: 'ask-agent' } : { behavior: 'ask-person' };
    };
    const dialect: HookDialect = { payload: (_e, p) => ({ ...p, tool_name: 'Bash' }), permission: (v) => ({ told: v }) };
    const handle = recordingHandler({ state, asked, pick: (a) => a.toolName, dialect, gate: () => gate });
    const call = () => handle({ event: 'permission-request', payload: { tool_name: 'run_shell_command', tool_input: { command: 'ls' } }, signal: new AbortController().signal });
    expect(await call()).toEqual({ told: { behavior: 'deny', message: 'read-only' } });
    state.permissionMode = 'bypassPermissions';
    expect(await call()).toEqual({ told: { behavior: 'allow' } });
    expect(asked).toEqual([]);
    state.permissionMode = 'default';
    expect(await call()).toEqual({ told: { behavior: 'allow' } });
    expect(asked).toEqual(['Bash']);
    state.agentAsksToo = true;
    expect(await call()).toEqual({ told: null });
    expect(asked).toEqual(['Bash']);
    // The gate reads the agent's own payload, not the runner's words for it.
    expect(calls.map((c) => c.payload.tool_name)).toEqual(['run_shell_command', 'run_shell_command', 'run_shell_command', 'run_shell_command']);
  });
});
