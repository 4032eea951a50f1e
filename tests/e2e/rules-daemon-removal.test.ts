// rules-daemon-removal.test.ts: a rule a device accepted dies with that device's revocation even with
// no session in its folder (issue 42, item 5): the machine's real `tether daemon` takes exactly the
// rule's entry out of the real `.claude/settings.local.json`, and the person's own entries stay; a
// daemon offline at the revocation removes it when it comes back. Real claude wrote both rules (three
// phone allows each, accepted from two paired devices, the fourth call writes it), against the fake API.
// On SQLite and on PostgreSQL: what is still to be removed lives in the store.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { LoginResponseSchema, PairCodeCreatedSchema, type ProjectRule } from '@tether/shared';
import type { Socket } from 'socket.io-client';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { connectSocket, emitAck, type HubHandle } from '../harness/hub.ts';
import { startDaemon } from '../harness/daemon.ts';
import { startPostgres, type PostgresHandle } from '../harness/postgres.ts';
import type { RunnerHandle, SessionWatch } from '../harness/runner.ts';
import { DESK_READY, startDaemonWorld } from '../harness/world.ts';

const defer = useCleanups();
const COMMANDS = { a: 'touch a.txt', b: 'touch b.txt' } as const;
const WORDS = ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3', 'b4'] as const;
const commandOf = (word: string) => COMMANDS[word[0] as 'a' | 'b'];
/** One turn per word: the word asks for its Bash call, its result is answered with "<word> done". */
const turn = (word: string) => [
  when(userSays(new RegExp(`^${word}$`)), toolUse('Bash', { command: commandOf(word), description: 'touch a file' }, { id: `toolu_${word}` })),
  when(hasToolResult({ id: `toolu_${word}` }), text(`${word} done`)),
];

/** A device paired over loopback as the web app pairs: its own token, its /web socket. */
async function pairDevice(hub: HubHandle): Promise<{ tokenId: string; socket: Socket }> {
  const made = await fetch(`${hub.url}/api/pair-codes`, { method: 'POST', headers: { authorization: `Bearer ${hub.token}` } });
  const { code } = PairCodeCreatedSchema.parse(await made.json());
  const before = new Set((await hub.store.listTokens()).map((t) => t.id));
  const paired = await fetch(`${hub.url}/api/auth/pair`, { method: 'POST', body: JSON.stringify({ code }), headers: { 'content-type': 'application/json', origin: hub.url } });
  expect(paired.status).toBe(200);
  const login = LoginResponseSchema.parse(await paired.json());
  const tokenId = (await hub.store.listTokens()).find((t) => !before.has(t.id))!.id;
  const socket = await connectSocket({ url: hub.url, nsp: '/web', token: login.session, device: `device ${tokenId}` });
  defer(() => socket.close());
  return { tokenId, socket };
}

async function rules(phone: Socket): Promise<ProjectRule[]> {
  const ack = await emitAck<{ rules: ProjectRule[] }>(phone, 'rules:list', {});
  if (!ack.ok) throw new Error(`rules:list refused: ${ack.error}`);
  return ack.rules;
}

async function waitForRule(phone: Socket, test: (rule: ProjectRule) => boolean, what: string, timeoutMs = 20_000): Promise<ProjectRule> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await rules(phone)).find(test);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no rule ${what}: ${JSON.stringify(await rules(phone))}`);
    await Bun.sleep(100);
  }
}

/** Three phone allows of one command, the proposal accepted on `device`, the fourth call writes it. */
async function writtenRule(o: { watch: SessionWatch; runner: RunnerHandle; phone: Socket; device: Socket; letter: 'a' | 'b'; taken: Set<string> }): Promise<ProjectRule> {
  for (const n of [1, 2, 3]) {
    await o.watch.send(`${o.letter}${n}`);
    const request = await o.watch.waitFor(() => o.watch.requested.find((r) => r.toolName === 'Bash' && !o.taken.has(r.id)), { what: `the ${o.letter}${n} request` });
    o.taken.add(request.id);
    expect((await o.watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await o.runner.waitForScreen(`${o.letter}${n} done`);
  }
  const proposed = await waitForRule(o.phone, (r) => r.status === 'proposed' && r.command === COMMANDS[o.letter], `${o.letter} proposed`);
  expect((await emitAck(o.device, 'rules:accept', { ruleId: proposed.id })).ok).toBe(true);
  await o.watch.send(`${o.letter}4`);
  await o.runner.waitForScreen(`${o.letter}4 done`);
  return waitForRule(o.phone, (r) => r.id === proposed.id && r.status === 'written', `${o.letter} written`);
}

let cluster: PostgresHandle | null = null;
afterAll(async () => cluster?.stop());
/** The hub's database: its own SQLite file, or a fresh database of one PostgreSQL cluster. */
const databases = {
  sqlite: async () => ({}),
  postgres: async () => {
    cluster ??= await startPostgres();
    return { databaseUrl: await cluster.createDatabase() };
  },
};

it.each(['sqlite', 'postgres'] as const)('%s: a device revoked with no session in the folder: its rule leaves settings.local.json through the daemon, the person’s entries stay; the daemon offline then: removed when it is back', async (database) => {
  const world = await startDaemonWorld(defer, { script: WORDS.flatMap(turn), hub: await databases[database]() });
  const { daemon, phone, sandbox, hub } = world;
  const deviceA = await pairDevice(hub);
  const deviceB = await pairDevice(hub);
  const runner = world.startRunner({ home: daemon.home });
  const watch = await world.startWatch(runner.sessionId);
  await runner.waitForScreen(DESK_READY);
  expect(watch.session()?.machineId).toBe(daemon.machineId());
  const taken = new Set<string>();
  const ruleA = await writtenRule({ watch, runner, phone, device: deviceA.socket, letter: 'a', taken });
  const ruleB = await writtenRule({ watch, runner, phone, device: deviceB.socket, letter: 'b', taken });
  expect([ruleA.acceptedDevice, ruleB.acceptedDevice]).toEqual([`device ${deviceA.tokenId}`, `device ${deviceB.tokenId}`]);

  // The person's own entries beside tether's.
  const file = join(sandbox.cwd, '.claude', 'settings.local.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as { permissions: { allow: string[] } };
  expect(settings.permissions.allow.sort()).toEqual([`Bash(${COMMANDS.a})`, `Bash(${COMMANDS.b})`]);
  writeFileSync(file, JSON.stringify({ ...settings, permissions: { ...settings.permissions, allow: [...settings.permissions.allow, 'Bash(ls -la)'] }, note: 'mine' }, null, 2));

  // No session in the folder any more: the runner ended, its socket gone.
  await runner.stop();
  await watch.waitFor(() => (watch.session()?.status === 'ended' ? true : undefined), { what: 'the session ended' });

  const revoke = (tokenId: string) => fetch(`${hub.url}/api/devices/${tokenId}`, { method: 'DELETE', headers: { authorization: `Bearer ${hub.token}` } });
  const allowed = () => (JSON.parse(readFileSync(file, 'utf8')) as { permissions: { allow: string[] } }).permissions.allow;

  // Device A revoked, the daemon live: exactly A's entry goes.
  expect((await revoke(deviceA.tokenId)).status).toBe(200);
  await waitForRule(phone, (r) => r.id === ruleA.id && r.status === 'revoked' && r.removedAt !== null, 'a removed by the daemon');
  expect(allowed()).toEqual([`Bash(${COMMANDS.b})`, 'Bash(ls -la)']);
  expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ note: 'mine' });
  await daemon.waitForOutput(/revoked rules in .*: 1 taken out of its rule file/);
  // Counted in its log, never named.
  expect(daemon.output()).not.toContain(COMMANDS.a);

  // The daemon stopped, device B revoked: the rule is revoked and waits; the file keeps the entry.
  await daemon.kill();
  await waitForMachineOffline(hub, daemon.machineId());
  expect((await revoke(deviceB.tokenId)).status).toBe(200);
  const pending = await waitForRule(phone, (r) => r.id === ruleB.id && r.status === 'revoked', 'b revoked');
  expect(pending.removedAt).toBeNull();
  expect(allowed()).toContain(`Bash(${COMMANDS.b})`);

  // Back: it takes B's entry out at its registration.
  const again = await startDaemon({ hub, sandbox, home: daemon.home });
  defer(() => again.stop());
  await waitForRule(phone, (r) => r.id === ruleB.id && r.removedAt !== null, 'b removed when the daemon came back');
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(ls -la)'] }, note: 'mine' });
  expect(again.output()).not.toContain(COMMANDS.b);
}, 240_000);

async function waitForMachineOffline(hub: HubHandle, machineId: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const machine = (await hub.store.listMachines({ namespace: hub.namespace })).find((m) => m.id === machineId);
    if (machine?.online === false) return;
    if (Date.now() > deadline) throw new Error(`machine ${machineId} still online`);
    await Bun.sleep(100);
  }
}
