// daemon-removal.test.ts: a revoked rule's removal through a real hub's `/cli` daemons, played by
// socket.io clients: only the namespace's own daemon of the rule's machine is asked (another
// namespace's daemon claiming the same machine id hears nothing); one offline at the revoke is asked
// when it registers; its ack is recorded once.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { DaemonRulesRemove, ProjectRule } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-rules-daemon-' });
const { connect, ack } = live;
const FOLDER = '/work/app';

/** A rule claude wrote in FOLDER of `machineId`, accepted by token `t1` (the store, as the runner's report leaves it). */
async function writtenRule(machineId: string): Promise<ProjectRule> {
  const { store } = live.hub;
  let rule: ProjectRule | undefined;
  for (const at of [1, 2, 3]) {
    rule = (await store.countRuleAllow({ namespace: 'alpha', machineId, folder: FOLDER, toolName: 'Bash', command: 'npm test', call: { command: 'npm test', sessionId: randomUUID(), at }, proposeAt: 3, now: at })).rule;
  }
  await store.acceptRule({ namespace: 'alpha', ruleId: rule!.id, ruleContent: 'npm test', by: 'me', device: 'phone', tokenId: 't1', now: 4 });
  return (await store.reportRule({ namespace: 'alpha', ruleId: rule!.id, outcome: 'written', error: null, now: 5 }))!;
}

/** A daemon socket of `namespace` registering `machineId`, recording and answering every removal it is asked. */
async function daemonOf(o: { machineId: string; token?: string }) {
  const asked: DaemonRulesRemove[] = [];
  const daemon: Socket = await connect({ nsp: '/cli', client: 'daemon', ...(o.token ? { token: o.token } : {}) });
  daemon.on('daemon:rules-remove', (payload: DaemonRulesRemove, reply: (answer: unknown) => void) => {
    asked.push(payload);
    reply({ ok: true, rules: payload.rules.map((r) => ({ id: r.id, outcome: 'removed', error: null })) });
  });
  expect((await ack(daemon, 'machine:register', { id: o.machineId, name: 'box', os: 'linux', user: 'dev', home: '/home/dev' })).ok).toBe(true);
  return { daemon, asked };
}

const removedAt = async (ruleId: string) => (await live.hub.store.getRule({ namespace: 'alpha', ruleId }))?.removedAt ?? null;
async function until(test: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 5000;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await Bun.sleep(20);
  }
}

it('a revoke with no runner in the folder asks the namespace’s own daemon of that machine, never another namespace’s claiming its id', async () => {
  const machineId = randomUUID();
  const rule = await writtenRule(machineId);
  const intruder = await daemonOf({ machineId, token: await live.token('beta') });
  const own = await daemonOf({ machineId });
  const web = await connect({ nsp: '/web' });
  expect(await ack(web, 'rules:revoke', { ruleId: rule.id })).toMatchObject({ ok: true, rule: { status: 'revoked', removedAt: null } });
  await until(async () => (await removedAt(rule.id)) !== null, 'the removal recorded');
  expect(own.asked).toEqual([{ folder: FOLDER, rules: [{ id: rule.id, toolName: 'Bash', ruleContent: 'npm test' }] }]);
  expect(intruder.asked).toEqual([]);
});

it('a daemon offline at the revoke is asked when it registers, once', async () => {
  const machineId = randomUUID();
  const rule = await writtenRule(machineId);
  const web = await connect({ nsp: '/web' });
  expect((await ack(web, 'rules:revoke', { ruleId: rule.id })).ok).toBe(true);
  await Bun.sleep(100);
  expect(await removedAt(rule.id)).toBeNull();
  const first = await daemonOf({ machineId });
  await until(async () => (await removedAt(rule.id)) !== null, 'removed at the registration');
  expect(first.asked).toHaveLength(1);
  first.daemon.close();
  const again = await daemonOf({ machineId });
  await Bun.sleep(100);
  expect(again.asked).toEqual([]);
});
