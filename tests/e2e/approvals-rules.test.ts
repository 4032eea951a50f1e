// approvals-rules.test.ts: approvals that become rules (issue 42, item 4) with real claude against the
// fake API. The same Bash command allowed on the phone three times → the hub proposes Bash(<it>) with
// the calls it covers → `tether rules accept` → the fourth call runs unasked, claude itself wrote
// the rule into the project's .claude/settings.local.json, and plain `claude -p` in that folder does
// not ask either → `tether rules revoke` → the entry leaves the file and claude asks again. A desk
// `tether claude` on a machine whose daemon runs (its machine vouched: rules are per machine).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ProjectRule } from '@tether/shared';
import type { Socket } from 'socket.io-client';
import { hasToolResult, text, toolUse, userSays, when, type MessagesRequest } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { claudeVersions } from '../../cli/src/agents/claude/version.ts';
import { CLAUDE_LIVE_REVOKE_FROM } from '../../cli/src/agents/claude/rule-file.ts';
import { compareVersions } from '../../cli/src/agents/version.ts';
import { emitAck } from '../harness/hub.ts';
import { claudeBin, type ClaudeSandbox } from '../harness/claude.ts';
import { runTether } from '../harness/tether-cli.ts';
import { chatText, type RunnerHandle, type SessionWatch } from '../harness/runner.ts';
import { spawnVia } from '../harness/daemon.ts';
import { DESK_READY, startDaemonWorld } from '../harness/world.ts';

const defer = useCleanups();
const claudeBinary = process.env.TETHER_CLAUDE_BIN ?? claudeBin();
const COMMAND = 'touch ran.txt';
const bash = (id: string) => toolUse('Bash', { command: COMMAND, description: 'touch a file' }, { id });
/** One turn per word: the word asks for the Bash call, its result is answered with "<word> done". */
const turn = (word: string) => [when(userSays(new RegExp(`^${word}$`)), bash(`toolu_${word}`)), when(hasToolResult({ id: `toolu_${word}` }), text(`${word} done`))];
const WORDS = ['one', 'two', 'three', 'four', 'plain', 'six', 'plainagain'] as const;
const OUTSIDE = 'touch /tmp/tether-rules-outside.txt';
/** The bad-input story's turns: the same command, and one outside the project folder. */
const BAD_WORDS = ['b1', 'b2', 'b3', 'broken', 'linked', 'fixed'] as const;
const outsideTurn = (word: string) => [
  when(userSays(new RegExp(`^${word}$`)), toolUse('Bash', { command: OUTSIDE, description: 'touch outside' }, { id: `toolu_${word}` })),
  when(hasToolResult({ id: `toolu_${word}` }), text(`${word} done`)),
];

function toolResult(requests: MessagesRequest[], id: string): { isError: boolean; text: string } | null {
  for (const request of requests) {
    for (const message of request.messages) {
      if (message.role !== 'user' || typeof message.content === 'string') continue;
      for (const block of message.content) {
        const b = block as { type: string; tool_use_id?: string; content?: string | Array<{ text?: string }>; is_error?: boolean };
        if (b.type !== 'tool_result' || b.tool_use_id !== id) continue;
        return { isError: b.is_error === true, text: typeof b.content === 'string' ? b.content : (b.content ?? []).map((p) => p.text ?? '').join('\n') };
      }
    }
  }
  return null;
}

async function rules(phone: Socket): Promise<ProjectRule[]> {
  const ack = await emitAck<{ rules: ProjectRule[] }>(phone, 'rules:list', {});
  if (!ack.ok) throw new Error(`rules:list refused: ${ack.error}`);
  return ack.rules;
}

async function waitForRule(phone: Socket, test: (rule: ProjectRule) => boolean, what: string): Promise<ProjectRule> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = (await rules(phone)).find(test);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no rule ${what}: ${JSON.stringify(await rules(phone))}`);
    await Bun.sleep(100);
  }
}

/** A phone prompt whose Bash call the phone allows; resolves once claude answered "<word> done". */
async function allowOnPhone(o: { watch: SessionWatch; runner: RunnerHandle; word: string; taken: Set<string>; command?: string }) {
  await o.watch.send(o.word);
  const request = await o.watch.waitFor(() => o.watch.requested.find((r) => r.toolName === 'Bash' && !o.taken.has(r.id)), { what: `the ${o.word} Bash request` });
  o.taken.add(request.id);
  expect(request.toolInput.command).toBe(o.command ?? COMMAND);
  expect((await o.watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
  await o.runner.waitForScreen(`${o.word} done`);
}

/** Plain `claude -p <word>` in the project, tether nowhere: what its Bash call's result was. */
async function plainClaude(o: { sandbox: ClaudeSandbox; word: string; requests: () => MessagesRequest[] }) {
  const child = spawn(claudeBinary, ['-p', o.word, '--permission-mode', 'default'], { cwd: o.sandbox.cwd, env: o.sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code, output).toBe(0);
  return toolResult(o.requests(), `toolu_${o.word}`);
}

it('three phone allows of one command → a proposed rule → accepted → claude writes it and the fourth call runs unasked, plain claude too; revoked → asked again', async () => {
  const world = await startDaemonWorld(defer, { script: WORDS.flatMap(turn) });
  const { daemon, phone, sandbox, hub } = world;
  const runner = world.startRunner({ home: daemon.home });
  const watch = await world.startWatch(runner.sessionId);
  await runner.waitForScreen(DESK_READY);
  expect(watch.session()?.machineId).toBe(daemon.machineId());
  writeFileSync(join(sandbox.cwd, 'package.json'), '{"scripts":{}}\n');
  const taken = new Set<string>();
  const cli = (args: string[]) => runTether({ args, env: { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_HOME: world.tempDir('tether-rules-cli-') } });

  await allowOnPhone({ watch, runner, word: 'one', taken });
  await allowOnPhone({ watch, runner, word: 'two', taken });
  expect(await rules(phone)).toEqual([]); // counting: nothing proposed before the third
  await allowOnPhone({ watch, runner, word: 'three', taken });
  const proposed = await waitForRule(phone, (r) => r.status === 'proposed', 'proposed');
  expect(proposed).toMatchObject({ toolName: 'Bash', command: COMMAND, ruleContent: COMMAND, folder: sandbox.cwd, machineId: daemon.machineId(), allows: 3 });
  expect(proposed.calls.map((c) => c.command)).toEqual([COMMAND, COMMAND, COMMAND]);

  // The listing names the rule, the calls it covers and what it allows; accepted from the CLI.
  const listed = await cli(['rules']);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain(`Bash(${COMMAND})`);
  expect(listed.stdout).toContain('without asking anyone');
  const accepted = await cli(['rules', 'accept', proposed.id]);
  expect(accepted.code, accepted.stderr).toBe(0);
  // Nothing is written before the call comes: claude writes it then.
  const file = join(sandbox.cwd, '.claude', 'settings.local.json');
  expect(existsSync(file)).toBe(false);

  await watch.send('four');
  await runner.waitForScreen('four done');
  expect(watch.requested.filter((r) => r.toolName === 'Bash')).toHaveLength(3); // the fourth was not asked
  expect(toolResult(world.fake.mainRequests(), 'toolu_four')).toMatchObject({ isError: false });
  // claude writes the file after the call is answered, in its own time (the tool may run and the
  // turn end first): the runner reads it until it holds the rule, and says 'written' then.
  const written = await waitForRule(phone, (r) => r.id === proposed.id && r.status === 'written', 'written');
  expect(written).toMatchObject({ acceptedDevice: 'tether rules', error: null });
  expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ permissions: { allow: [`Bash(${COMMAND})`] } });

  // Plain claude in that folder, no tether: the rule is its own, it does not ask (-p would refuse).
  expect(await plainClaude({ sandbox, word: 'plain', requests: () => world.fake.mainRequests() })).toMatchObject({ isError: false });

  // Revoked: exactly its entry leaves the file (the rest of the file stays).
  const settings = JSON.parse(readFileSync(file, 'utf8')) as { permissions: { allow: string[] } };
  writeFileSync(file, JSON.stringify({ ...settings, permissions: { ...settings.permissions, allow: [...settings.permissions.allow, 'Bash(ls -la)'] }, note: 'mine' }, null, 2));
  const revoked = await cli(['rules', 'revoke', proposed.id, '--json']);
  expect(revoked.code, revoked.stderr).toBe(0);
  await waitForRule(phone, (r) => r.id === proposed.id && r.removedAt !== null, 'removed');
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(ls -la)'] }, note: 'mine' });

  // claude asks again: the live session on the phone (from CLAUDE_LIVE_REVOKE_FROM; an older running
  // claude keeps the rule its hook answer gave it until it restarts), and plain claude refuses the call.
  await watch.send('six');
  if (compareVersions(claudeVersions.read(claudeBinary) ?? '0', CLAUDE_LIVE_REVOKE_FROM) >= 0) {
    const asked = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'Bash' && !taken.has(r.id)), { what: 'the sixth call asked again' });
    await watch.emit('approval:answer', { requestId: asked.id, answer: { decision: 'deny', reason: 'not now' } });
    await runner.waitForScreen('six done');
  } else {
    await runner.waitForScreen('six done');
    expect(toolResult(world.fake.mainRequests(), 'toolu_six')).toMatchObject({ isError: false });
    expect(watch.requested.filter((r) => r.toolName === 'Bash')).toHaveLength(3);
  }
  expect(await plainClaude({ sandbox, word: 'plainagain', requests: () => world.fake.mainRequests() })).toMatchObject({ isError: true });
}, 180_000);

it('bad input: a call outside the folder is never proposed; a settings file that is not JSON is left untouched and the call asked; a .claude link is refused; fixed, the rule is written', async () => {
  const world = await startDaemonWorld(defer, { script: [...['o1', 'o2', 'o3'].flatMap(outsideTurn), ...BAD_WORDS.flatMap(turn)] });
  const { daemon, phone, sandbox } = world;
  const runner = world.startRunner({ home: daemon.home });
  const watch = await world.startWatch(runner.sessionId);
  await runner.waitForScreen(DESK_READY);
  const taken = new Set<string>();
  for (const word of ['o1', 'o2', 'o3']) await allowOnPhone({ watch, runner, word, taken, command: OUTSIDE });
  for (const word of ['b1', 'b2', 'b3']) await allowOnPhone({ watch, runner, word, taken });
  const proposed = await waitForRule(phone, (r) => r.status === 'proposed', 'proposed');
  expect((await rules(phone)).map((r) => r.command)).toEqual([COMMAND]); // the outside call never
  expect((await emitAck(phone, 'rules:accept', { ruleId: proposed.id })).ok).toBe(true);

  // Not valid JSON: untouched, the call asked on the phone as usual, the rule says why.
  const dir = join(sandbox.cwd, '.claude');
  const file = join(dir, 'settings.local.json');
  mkdirSync(dir);
  writeFileSync(file, '{"permissions": {"allow": [}');
  await allowOnPhone({ watch, runner, word: 'broken', taken });
  expect(readFileSync(file, 'utf8')).toBe('{"permissions": {"allow": [}');
  expect(await waitForRule(phone, (r) => r.id === proposed.id && r.error !== null, 'failed')).toMatchObject({ status: 'accepted', error: expect.stringMatching(/settings\.local\.json is not valid JSON .*left untouched/) });

  // .claude a link to a folder elsewhere: refused the same way, nothing written there.
  const elsewhere = world.tempDir('tether-rules-elsewhere-');
  rmSync(dir, { recursive: true });
  symlinkSync(elsewhere, dir);
  await allowOnPhone({ watch, runner, word: 'linked', taken });
  expect(readdirSync(elsewhere)).toEqual([]);
  await waitForRule(phone, (r) => r.id === proposed.id && /\.claude is a link/.test(r.error ?? ''), 'refused for the link');

  // Fixed: the next call is the rule's, claude writes it.
  rmSync(dir);
  await watch.send('fixed');
  await runner.waitForScreen('fixed done');
  expect(watch.requested.filter((r) => r.toolName === 'Bash')).toHaveLength(8);
  expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ permissions: { allow: [`Bash(${COMMAND})`] } });
  await waitForRule(phone, (r) => r.id === proposed.id && r.status === 'written' && r.error === null, 'written');
}, 180_000);

it('headless (claude -p, stream-json): an accepted rule goes with the allow of the next call it covers, and claude writes it the same way', async () => {
  const words = ['h1', 'h2', 'h3', 'h4'];
  const world = await startDaemonWorld(defer, { script: words.flatMap(turn) });
  const { daemon, phone, sandbox } = world;
  const ack = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'headless', permissionMode: 'default' });
  expect(ack.ok, JSON.stringify(ack)).toBe(true);
  const watch = await world.startWatch(ack.session!.id);
  const said = (word: string) => watch.waitFor(() => watch.messages().find((m) => chatText(m) === `${word} done`), { what: `${word} done`, timeoutMs: 30_000 });
  const taken = new Set<string>();
  for (const word of ['h1', 'h2', 'h3']) {
    await watch.send(word);
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'Bash' && !taken.has(r.id)), { what: `the ${word} request`, timeoutMs: 30_000 });
    taken.add(request.id);
    await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    await said(word);
  }
  const proposed = await waitForRule(phone, (r) => r.status === 'proposed', 'proposed');
  expect((await emitAck(phone, 'rules:accept', { ruleId: proposed.id })).ok).toBe(true);
  await watch.send('h4');
  await said('h4');
  expect(watch.requested.filter((r) => r.toolName === 'Bash')).toHaveLength(3);
  expect(JSON.parse(readFileSync(join(sandbox.cwd, '.claude', 'settings.local.json'), 'utf8'))).toMatchObject({ permissions: { allow: [`Bash(${COMMAND})`] } });
  await waitForRule(phone, (r) => r.id === proposed.id && r.status === 'written', 'written');
}, 120_000);
