// The ACP transport against an in-memory agent end (test-agent.ts): what it sends, and what it tells
// the runner (HeadlessEvents), for a session's life: open, a turn, a permission, an abort, a resume.
import { describe, expect, it } from 'vitest';
import type { HeadlessContext, HeadlessEvents, HeadlessRequest } from '../headless-transport.ts';
import type { LaunchPlan } from '../launch-plan.ts';
import type { Verdict } from '../verdict.ts';
import { createAcpTransport, type AcpAgent } from './transport.ts';
import { testAgent } from './test-agent.fixture.ts';

const PLAN: LaunchPlan = { args: [], permissionMode: 'default', bypass: false, resumeId: null, model: null, continue: false, addedDirs: [] };
const INIT = { protocolVersion: 1, agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true } } };
const OPTIONS = [
  { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];

function setup(o: { plan?: Partial<LaunchPlan>; agent?: Partial<AcpAgent>; answer?: (request: HeadlessRequest) => Promise<Verdict | null | 'withdrawn'> } = {}) {
  const said: string[] = [];
  const asked: HeadlessRequest[] = [];
  const logs: string[] = [];
  const events: HeadlessEvents = {
    activity: () => undefined,
    ready: () => void said.push('ready'),
    turnStarted: () => void said.push('turnStarted'),
    turnEnded: () => void said.push('turnEnded'),
    turnRefused: (reason) => void said.push(`refused: ${reason}`),
    session: ({ id, written, model }) => void said.push(`session ${id} ${written ? 'written' : 'new'} ${model}`),
    transcript: (path) => void said.push(`transcript ${path}`),
    ask: (request) => {
      asked.push(request);
      return o.answer ? o.answer(request) : new Promise(() => undefined);
    },
    elicit: async () => null,
    withdraw: (id) => void said.push(`withdraw ${id}`),
    joinable: ({ url }) => void said.push(`joinable ${url}`),
  };
  const context: HeadlessContext = { log: (l) => logs.push(l), cwd: '/w', env: {}, stateDir: '/nonexistent-state', userArgs: [], plan: () => ({ ...PLAN, ...o.plan }), events };
  const transport = createAcpTransport(context, { name: 'agent', args: () => ['--acp'], transcript: ({ sessionId }) => `/t/${sessionId}.jsonl`, ...o.agent });
  const agent = testAgent();
  const started = transport.start({ ...agent.pipes, onStderr: () => undefined, stop: () => undefined });
  return { transport, agent, said, asked, logs, started };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

/** A new session s1 (the agent answers initialize and session/new), ready, then the person's "go":
 *  the session/prompt the agent got. */
async function firstTurn(world: Pick<ReturnType<typeof setup>, 'transport' | 'agent' | 'said'>) {
  await world.agent.answer('initialize', INIT);
  await world.agent.answer('session/new', { sessionId: 's1' });
  await until(() => world.said.includes('ready'));
  world.transport.send({ text: 'go', content: 'go', images: [] });
  return world.agent.next((m) => m.method === 'session/prompt');
}

describe('the ACP transport', () => {
  it('opens a new session, runs a turn, allows a call once, and closes', async () => {
    const { transport, agent, said, asked, started } = setup({ answer: async () => ({ behavior: 'allow' }) });
    const init = await agent.answer('initialize', INIT);
    expect(init.params).toMatchObject({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
    const created = await agent.answer('session/new', { sessionId: 's1', models: { currentModelId: 'm1' } });
    expect(created.params).toEqual({ cwd: '/w', mcpServers: [] });
    await until(() => said.includes('ready'));
    expect(said).toEqual(['session s1 new m1', 'transcript /t/s1.jsonl', 'ready']);

    transport.send({ text: 'go', content: 'go', images: [] });
    const prompt = await agent.next((m) => m.method === 'session/prompt');
    expect(prompt.params).toEqual({ sessionId: 's1', prompt: [{ type: 'text', text: 'go' }] });
    agent.send({ id: 0, method: 'session/request_permission', params: { sessionId: 's1', options: OPTIONS, toolCall: { toolCallId: 'c1', title: 'ls', kind: 'execute' } } });
    const answered = await agent.next((m) => m.id === 0 && m.result !== undefined);
    expect(answered.result).toEqual({ outcome: { outcome: 'selected', optionId: 'proceed_once' } });
    expect(asked).toEqual([{ id: '0', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: 'c1' }]);
    agent.send({ id: prompt.id, result: { stopReason: 'end_turn' } });
    await until(() => said.includes('turnEnded'));
    expect(said.slice(3)).toEqual(['turnStarted', 'turnEnded']);

    agent.send({ id: 5, method: 'fs/read_text_file', params: { path: '/etc/passwd' } });
    const refused = await agent.next((m) => m.id === 5);
    expect(refused.error).toMatchObject({ code: -32601 });
    transport.closeInput();
    agent.end();
    await started;
  });

  it('a deny\'s reason is said to the model after the agent\'s turn, inside the same turn for the runner', async () => {
    const { transport, agent, said } = setup({ answer: async () => ({ behavior: 'deny', message: 'use make' }) });
    const prompt = await firstTurn({ transport, agent, said });
    agent.send({ id: 0, method: 'session/request_permission', params: { sessionId: 's1', options: OPTIONS, toolCall: { title: 'rm -rf x', kind: 'execute' } } });
    expect((await agent.next((m) => m.id === 0 && m.result !== undefined)).result).toEqual({ outcome: { outcome: 'selected', optionId: 'cancel' } });
    agent.send({ id: prompt.id, result: { stopReason: 'end_turn' } });
    const reason = await agent.next((m) => m.method === 'session/prompt' && m.id !== prompt.id);
    expect(reason.params.prompt).toEqual([{ type: 'text', text: 'The person refused Bash: use make' }]);
    expect(said).not.toContain('turnEnded');
    agent.send({ id: reason.id, result: { stopReason: 'end_turn' } });
    await until(() => said.includes('turnEnded'));
    expect(said.filter((s) => s.startsWith('turn'))).toEqual(['turnStarted', 'turnEnded']);
  });

  it('abort: session/cancel, a permission still asked answered cancelled and withdrawn, no reason said after', async () => {
    const { transport, agent, said, asked } = setup();
    const prompt = await firstTurn({ transport, agent, said });
    agent.send({ id: 3, method: 'session/request_permission', params: { sessionId: 's1', options: OPTIONS, toolCall: { title: 'ls', kind: 'execute' } } });
    await until(() => asked.length === 1);
    transport.interrupt();
    expect(await agent.next((m) => m.method === 'session/cancel')).toMatchObject({ params: { sessionId: 's1' } });
    expect((await agent.next((m) => m.id === 3 && m.result !== undefined)).result).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(said).toContain('withdraw 3');
    agent.send({ id: prompt.id, result: { stopReason: 'cancelled' } });
    await until(() => said.includes('turnEnded'));
    expect(agent.written.filter((m) => m.method === 'session/prompt')).toHaveLength(1);
  });

  it('resume: waits for the agent\'s beforeLoad, then session/load with the plan\'s id; the id is already written', async () => {
    const order: string[] = [];
    const { agent, said } = setup({ plan: { resumeId: 'r1' }, agent: { beforeLoad: async ({ sessionId }) => void order.push(`before ${sessionId}`) } });
    await agent.answer('initialize', INIT);
    const load = await agent.answer('session/load', { models: { currentModelId: 'm2' } });
    order.push('load');
    expect(order).toEqual(['before r1', 'load']);
    expect(load.params).toEqual({ sessionId: 'r1', cwd: '/w', mcpServers: [] });
    await until(() => said.includes('ready'));
    expect(said).toEqual(['session r1 written m2', 'transcript /t/r1.jsonl', 'ready']);
  });

  it('never ready when the agent refuses: its reason is a failure line, the input is closed; a prompt refused goes back with why', async () => {
    const bad = setup();
    await bad.agent.answer('initialize', { protocolVersion: 2 });
    bad.agent.end();
    await bad.started;
    expect(bad.transport.failureLines?.()).toEqual(['agent speaks ACP version 2; tether speaks 1']);
    expect(bad.said).not.toContain('ready');

    const { transport, agent, said } = setup();
    const prompt = await firstTurn({ transport, agent, said });
    agent.send({ id: prompt.id, error: { code: 429, message: 'Rate limit exceeded' } });
    await until(() => said.some((s) => s.startsWith('refused')));
    expect(said.at(-1)).toBe('refused: agent refused the turn: session/prompt: Rate limit exceeded');
  });
});
