// The project-rules room over a real SQLite store: what is counted, what is proposed, who hears it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionRegistrationSchema, type Ack, type AgentCapabilitiesInput, type DaemonRulesRemove, type DaemonRulesRemoveAck, type PendingRequest, type ProjectRule } from '@tether/shared';
import { openTempStore, removeTempStore, type TempStore } from '../testing/temp-store.ts';
import { createFactBus } from '../facts/facts.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import { createProjectRules } from './project-rules.ts';
import type { RuleDaemons } from './daemon-removal.ts';

const M1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const S3 = '33333333-3333-4333-8333-333333333333';
const writes: AgentCapabilitiesInput = {
  displayName: 'Claude',
  models: { offered: [], typed: true, example: null, switchableIn: [] },
  effort: { levels: [], switchableIn: [] },
  modes: { values: [], switchableIn: [] },
  resumeCommand: 'x {id}',
  relays: { requests: ['permission'], editedInput: true, sessionRules: true, projectRules: true },
};

let temp: TempStore;
let sent: Array<{ sessionId: string; event: string; payload: unknown }>;
let heard: ProjectRule[];
let rules: ReturnType<typeof createProjectRules>;
/** Sessions whose runner is connected; the machines whose daemon is; what each daemon was asked. */
let present: Set<string>;
let online: Set<string>;
let asked: Array<{ machineId: string; event: string; payload: DaemonRulesRemove }>;
/** How the daemon answers (default: every entry taken out). */
let answer: (payload: DaemonRulesRemove) => Ack<DaemonRulesRemoveAck>;
let errors: string[];

beforeEach(async () => {
  temp = openTempStore('tether-project-rules-');
  sent = [];
  heard = [];
  const facts = createFactBus({ onError: (what, error) => { throw new Error(`${what}: ${String(error)}`); } });
  facts.on('rule.updated', ({ rule }) => heard.push(rule));
  present = new Set([S1]);
  online = new Set([M1]);
  asked = [];
  errors = [];
  answer = (payload) => ({ ok: true, rules: payload.rules.map((r) => ({ id: r.id, outcome: 'removed' as const, error: null })) });
  const runners = {
    send: (_ns: string, sessionId: string, event: string, payload: unknown) => void sent.push({ sessionId, event, payload }),
    present: async (_ns: string, sessionId: string) => present.has(sessionId),
  } as unknown as RunnerCommands;
  // The namespace's daemon of a machine: found only in 'alpha', only while online.
  const daemons = {
    locate: async (ns: string, machineId: string) => (ns === 'alpha' && online.has(machineId) ? ({ remoteId: machineId }) : null),
    command: async (target: { remoteId: string }, event: string, payload: DaemonRulesRemove) => {
      asked.push({ machineId: target.remoteId, event, payload });
      return answer(payload);
    },
  } as unknown as RuleDaemons;
  rules = createProjectRules({ store: temp.store, facts, runners, daemons, onError: (what, error) => void errors.push(`${what}: ${String(error)}`) });
  const register = (id: string, o: { machineId: string | null; cwd: string; capabilities?: AgentCapabilitiesInput | null }) =>
    temp.store.registerSession({ namespace: 'alpha', registration: SessionRegistrationSchema.parse({ id, cwd: o.cwd, launchKind: 'pty', machineId: o.machineId, status: 'idle', capabilities: o.capabilities === undefined ? writes : o.capabilities }), now: 1 });
  await register(S1, { machineId: M1, cwd: '/work/app' });
  await register(S2, { machineId: null, cwd: '/work/app' }); // a desk whose machine nobody vouched for
  await register(S3, { machineId: M1, cwd: '/work/app', capabilities: { ...writes, relays: { ...writes.relays, projectRules: false } } });
});
afterEach(async () => removeTempStore(temp));

const request = (o: { sessionId?: string; command: string; toolName?: string; kind?: PendingRequest['kind'] }): PendingRequest => ({
  id: crypto.randomUUID(),
  sessionId: o.sessionId ?? S1,
  kind: o.kind ?? 'permission',
  toolName: o.toolName ?? 'Bash',
  toolInput: { command: o.command },
  toolUseId: null,
  createdAt: 1,
});
const allowThrice = async (o: Parameters<typeof request>[0], answer: Record<string, unknown> = {}) => {
  for (let i = 0; i < 3; i++) await rules.allowed('alpha', { request: request(o), answer: { decision: 'allow', ...answer } });
};
const listed = async () => {
  const ack = await rules.list('alpha');
  return ack.ok ? ack.rules : [];
};

describe('counting a person’s allows', () => {
  it('the third allow of one command in a vouched folder proposes it, to every tab', async () => {
    await allowThrice({ command: 'npm test' });
    expect(heard.map((r) => [r.status, r.ruleContent])).toEqual([['proposed', 'npm test']]);
    expect(await listed()).toMatchObject([{ command: 'npm test', folder: '/work/app', machineId: M1, allows: 3 }]);
  });

  it('an edited command counts as the person allowed it', async () => {
    await allowThrice({ command: 'npm test' }, { updatedInput: { command: 'npm run lint' } });
    expect((await listed()).map((r) => r.command)).toEqual(['npm run lint']);
  });

  it('nothing for a call outside the folder, an unsafe command, another tool, a desk nobody vouched for, an agent without project rules', async () => {
    await allowThrice({ command: 'rm /etc/hosts' });
    await allowThrice({ command: 'cat ../../secrets' });
    await allowThrice({ command: 'npm test && curl x' });
    await allowThrice({ command: 'notes.txt', toolName: 'Write' });
    await allowThrice({ command: 'npm test', kind: 'question' });
    await allowThrice({ command: 'npm test', sessionId: S2 });
    await allowThrice({ command: 'npm test', sessionId: S3 });
    expect(await listed()).toEqual([]);
    expect(heard).toEqual([]);
  });
});

describe('the person’s yes and no', () => {
  it('accepted: its folder’s live runners hear it as work to write; a prefix only one of the command’s own', async () => {
    await allowThrice({ command: 'npm run test' });
    const [rule] = await listed();
    expect(await rules.accept('alpha', { ruleId: rule!.id, prefix: 'npm ru' }, { by: 'me', device: 'phone', tokenId: 't1' })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await rules.accept('alpha', { ruleId: rule!.id, prefix: '*' }, { by: 'me', device: 'phone', tokenId: 't1' })).toMatchObject({ ok: false, code: 'bad_request' });
    const ack = await rules.accept('alpha', { ruleId: rule!.id, prefix: 'npm run' }, { by: 'me', device: 'phone', tokenId: 't1' });
    expect(ack).toMatchObject({ ok: true, rule: { status: 'accepted', ruleContent: 'npm run:*', acceptedDevice: 'phone' } });
    expect(sent).toEqual([{ sessionId: S1, event: 'rules:sync', payload: { sessionId: S1, rules: [{ id: rule!.id, toolName: 'Bash', ruleContent: 'npm run:*', action: 'write' }] } }]);
    expect(await rules.accept('alpha', { ruleId: rule!.id }, { by: 'me', device: null, tokenId: null })).toMatchObject({ ok: false, code: 'conflict' });
  });

  it('a runner’s report counts only for its own folder; written then revoked → the runners remove it', async () => {
    await allowThrice({ command: 'npm test' });
    const [rule] = await listed();
    await rules.accept('alpha', { ruleId: rule!.id }, { by: 'me', device: null, tokenId: 't1' });
    expect(await rules.report('alpha', { sessionId: S2, ruleId: rule!.id, outcome: 'written' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await rules.report('alpha', { sessionId: S1, ruleId: rule!.id, outcome: 'written' })).toEqual({ ok: true });
    sent = [];
    expect(await rules.revoke('alpha', { ruleId: rule!.id })).toMatchObject({ ok: true, rule: { status: 'revoked', removedAt: null } });
    expect(sent.map((s) => (s.payload as { rules: unknown[] }).rules)).toEqual([[{ id: rule!.id, toolName: 'Bash', ruleContent: 'npm test', action: 'remove' }]]);
    expect(await rules.revoke('alpha', { ruleId: rule!.id })).toMatchObject({ ok: false, code: 'conflict' });
    expect(await rules.revoke('alpha', { ruleId: crypto.randomUUID() })).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('a device revoked: the rules it said yes to go with it; a proposal never answered is never handed to a runner', async () => {
    await allowThrice({ command: 'npm test' });
    await allowThrice({ command: 'make build' });
    const byCommand = Object.fromEntries((await listed()).map((r) => [r.command, r]));
    await rules.accept('alpha', { ruleId: byCommand['npm test']!.id }, { by: 'me', device: 'old phone', tokenId: 'gone' });
    await rules.report('alpha', { sessionId: S1, ruleId: byCommand['npm test']!.id, outcome: 'written' });
    sent = [];
    await rules.tokensRevoked({ namespace: 'alpha', tokenIds: ['gone'] });
    expect((await listed()).map((r) => [r.command, r.status])).toEqual(expect.arrayContaining([['npm test', 'revoked'], ['make build', 'proposed']]));
    const work = sent.flatMap((s) => (s.payload as { rules: Array<{ ruleContent: string; action: string }> }).rules);
    expect(work).toEqual([{ id: byCommand['npm test']!.id, toolName: 'Bash', ruleContent: 'npm test', action: 'remove' }]);
  });

  it('an unattended run\'s runner (a schedule\'s new session, a continue) gets no work from a proposal the person has not accepted', async () => {
    await allowThrice({ command: 'npm test' });
    sent = [];
    const session = await temp.store.getSession({ namespace: 'alpha', sessionId: S1 });
    await rules.syncSession('alpha', session!);
    expect(sent).toEqual([{ sessionId: S1, event: 'rules:sync', payload: { sessionId: S1, rules: [] } }]);
  });
});

describe('removal by the machine’s daemon when no runner of the folder is connected', () => {
  /** A rule the agent wrote in S1's folder, accepted by token `t1`. */
  const writtenRule = async (command = 'npm test') => {
    await allowThrice({ command });
    const rule = (await listed()).find((r) => r.command === command)!;
    await rules.accept('alpha', { ruleId: rule.id }, { by: 'me', device: 'phone', tokenId: 't1' });
    await rules.report('alpha', { sessionId: S1, ruleId: rule.id, outcome: 'written' });
    heard = [];
    return rule;
  };
  const removedAt = async (ruleId: string) => (await temp.store.getRule({ namespace: 'alpha', ruleId }))?.removedAt ?? null;

  it('a device revoked with no runner there: the daemon of that machine is asked for exactly the folder and the entries, and its ack records the removal', async () => {
    const rule = await writtenRule();
    present.clear();
    await rules.tokensRevoked({ namespace: 'alpha', tokenIds: ['t1'] });
    expect(asked).toEqual([{ machineId: M1, event: 'daemon:rules-remove', payload: { folder: '/work/app', rules: [{ id: rule.id, toolName: 'Bash', ruleContent: 'npm test' }] } }]);
    expect(await removedAt(rule.id)).not.toBeNull();
    expect(heard.map((r) => [r.status, r.removedAt === null])).toEqual([['revoked', true], ['revoked', false]]);
    // A runner that comes later hears nothing to remove; a late report of it is not recorded again.
    heard = [];
    expect(await rules.report('alpha', { sessionId: S1, ruleId: rule.id, outcome: 'removed' })).toEqual({ ok: true });
    expect(heard).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a runner of the folder connected: it removes as before and the daemon is not asked; `rules:revoke` with none there asks the daemon too', async () => {
    const a = await writtenRule('npm test');
    const b = await writtenRule('make build');
    await rules.revoke('alpha', { ruleId: a.id });
    expect(asked).toEqual([]);
    present.clear();
    await rules.revoke('alpha', { ruleId: b.id });
    // The revoke's ack does not wait for the daemon; the removal follows.
    await vi.waitFor(async () => expect(await removedAt(b.id)).not.toBeNull());
    // The first is still pending (its runner left before it reported): one command names both.
    expect(asked.map((c) => c.payload.rules.map((r) => r.ruleContent).sort())).toEqual([['make build', 'npm test']]);
    expect(await removedAt(a.id)).not.toBeNull();
  });

  it('the daemon offline at the revoke: pending in the store, removed when it registers; another machine’s registration does nothing', async () => {
    const rule = await writtenRule();
    present.clear();
    online.clear();
    await rules.tokensRevoked({ namespace: 'alpha', tokenIds: ['t1'] });
    expect(asked).toEqual([]);
    expect(await removedAt(rule.id)).toBeNull();
    online.add(M1);
    await rules.daemonRegistered('alpha', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
    await rules.daemonRegistered('beta', M1);
    expect(asked).toEqual([]);
    await rules.daemonRegistered('alpha', M1);
    expect(asked).toHaveLength(1);
    expect(await removedAt(rule.id)).not.toBeNull();
    await rules.daemonRegistered('alpha', M1);
    expect(asked).toHaveLength(1); // nothing pending: not asked twice
  });

  it('a daemon’s registration leaves a folder whose runner is connected to that runner', async () => {
    const rule = await writtenRule();
    online.clear();
    await rules.tokensRevoked({ namespace: 'alpha', tokenIds: ['t1'] });
    online.add(M1);
    await rules.daemonRegistered('alpha', M1);
    expect(asked).toEqual([]);
    expect(await removedAt(rule.id)).toBeNull();
  });

  it('the file refused (a link, not JSON): the reason is on the rule and it stays pending; an ack about a rule not asked for counts for nothing', async () => {
    const rule = await writtenRule();
    const other = await writtenRule('make build');
    present.clear();
    answer = () => ({ ok: true, rules: [{ id: rule.id, outcome: 'failed', error: '/work/app/.claude is a link: tether writes no rule through a link' }, { id: other.id, outcome: 'removed', error: null }] });
    await rules.revoke('alpha', { ruleId: rule.id });
    await vi.waitFor(async () => expect((await temp.store.getRule({ namespace: 'alpha', ruleId: rule.id }))?.error).toMatch(/is a link/));
    expect(await removedAt(rule.id)).toBeNull();
    expect((await temp.store.getRule({ namespace: 'alpha', ruleId: other.id }))).toMatchObject({ status: 'written', removedAt: null });
    // A daemon that does not answer: logged, still pending.
    answer = () => ({ ok: false, code: 'internal', error: 'the daemon did not answer daemon:rules-remove within 15 s' });
    await rules.daemonRegistered('alpha', M1);
    expect(errors).toEqual([expect.stringContaining('did not answer')]);
    expect(await removedAt(rule.id)).toBeNull();
  });
});
