// agent-journey.test.ts: one journey for every agent (issue 41), the real CLI of each at its pin
// (current by default; the floor with TETHER_CLAUDE_BIN / TETHER_CODEX_BIN / TETHER_GEMINI_BIN /
// TETHER_OPENCODE_BIN) against its fake API. One world per row (tests/harness/journey/): start (a
// prompt sent while the agent starts), a prompt from the phone,
// a turn at the desk, an approval, an abort, the model, the mode, the agent's own question answered
// with the person's words, a review by the same agent, End. A PTY row runs `tether <agent>` at a
// desk; a headless row is started from the phone, and its desk step checks `tether <agent>` is
// refused with the reason, or (opencode from 1.18.33) that its own TUI starts. Each row says only what differs per
// agent; what the agent can do is read from the capabilities its runner stated for the installed
// version, and a step it cannot do asserts that the hub refuses it with the reason (or, for a
// question tool the agent leaves out, that its model is offered none), never skips it.
// At the fake API: after a model switch the next request names the new model, and the words of a
// free-text answer reach the agent's next request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canSwitch, type AgentCapabilities, type Machine, type PendingRequest, type Review, type Session, type Switch } from '@tether/shared';
import { agentFor, installedCapabilities } from '../../cli/src/agents/index.ts';
import { useFileCleanups } from '../harness/cleanups.ts';
import { emitAck } from '../harness/hub.ts';
import { JOURNEY_QUESTION, type AbsentQuestion, type ApiRequest, type HeadlessJourneyRow, type JourneyQuestion } from '../harness/journey/row.ts';
import { JOURNEY_ROWS } from '../harness/journey/rows.ts';
import { describeWorld, NOTES_COMMITTED, startJourneyWorld, type JourneyWorld } from '../harness/journey/world.ts';
import { expectDeskTurnInChat, expectPromptAnswered } from '../harness/phone-prompt.ts';
import { chatText, startRunner } from '../harness/runner.ts';

/** A person's own words, with control characters a phone could send; what of them is typed into a
 *  field on the agent's screen (control characters removed). */
const WORDS = 'a throwaway\x1b[2J\x1b[201~ one\x07,\tplease';
const WORDS_TYPED = 'a throwaway[2J[201~ one, please';
const FINDINGS = 'notes.txt now says journey-42; nothing else changed.';
const STEP_MS = 120_000;

const bodyOf = (request: ApiRequest) => JSON.stringify(request.body ?? null);

/** The hub's answer to a switch the agent does not take from the phone: refused, saying why. */
function expectRefused(ack: Record<string, unknown>, caps: AgentCapabilities, noun: string): void {
  expect(ack).toMatchObject({ ok: false, code: 'bad_request' });
  expect(String(ack.error)).toMatch(new RegExp(`^${caps.displayName} (switches ${noun} from here in a headless session only|sessions do not switch ${noun} from here)$`));
}

/** Requests the phone heard after `from` of them had arrived. */
const heardSince = (w: JourneyWorld, from: number, probe: (r: PendingRequest) => boolean) => w.phone.requested.slice(from).find(probe);

const idleOf = (w: JourneyWorld, what: string) => w.phone.waitFor(() => w.phone.session()?.status === 'idle', { what, timeoutMs: 45_000 });

async function startStep(w: JourneyWorld, caps: AgentCapabilities): Promise<void> {
  w.fake.echo(`${w.row.agent} early: `);
  // Sent before the agent drew anything: the runner holds it, whatever the hub or the screen says.
  const sent = await w.phone.send('sent while it starts');
  expect(sent.ok).toBe(true);
  await w.phone.waitFor(() => w.phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes(`${w.row.agent} early: sent while it starts`)), { what: 'the early prompt answered', timeoutMs: 60_000 });
  expect(w.phone.prompts().get(sent.promptId)?.status).toBe('delivered');
  expect(w.phone.messages().filter((m) => m.role === 'user').map(chatText)).toEqual(['sent while it starts']);
  expect(w.fake.requests.filter((r) => r.kind === 'main')).toHaveLength(1);
  await idleOf(w, 'idle session');
  await w.view.ready();
  expect(w.phone.session()!).toMatchObject({ agent: w.row.agent, launchKind: w.row.launchKind, machineId: w.daemon.machineId() });
  expect(w.phone.session()!.capabilities).toEqual(caps);
  // The daemon lists the agent with the same record (the new-session form's choices).
  const listed = (await (await fetch(`${w.hub.url}/api/machines`, { headers: { authorization: `Bearer ${w.hub.token}` } })).json()) as { machines: Machine[] };
  const machine = listed.machines.find((m) => m.id === w.daemon.machineId());
  expect(machine?.agents).toContain(w.row.agent);
  expect(machine?.capabilities[w.row.agent]).toEqual(caps);
  // The agent's own session id and the turn's usage, read from its transcript.
  await w.phone.waitFor(() => (w.phone.session()?.usage?.outputTokens ?? 0) > 0, { what: 'the usage of the turn' });
  expect(w.phone.session()!.agentSessionId).toBeTruthy();
}

async function approvalStep(w: JourneyWorld, caps: AgentCapabilities): Promise<void> {
  // What it prints is not in the command's own words, so seeing it proves the output reached the model.
  const command = "printf 'journey-%s\\n' 42 > notes.txt; cat notes.txt";
  w.fake.command({ prompt: 'change the notes', command, description: 'write the notes', output: 'journey-42', then: 'notes written' });
  const from = w.phone.requested.length;
  await w.phone.send('change the notes');
  const request = await w.phone.waitFor(() => heardSince(w, from, (r) => r.toolName === 'Bash'), { what: 'a Bash request on the hub', timeoutMs: 45_000 });
  expect(request).toMatchObject({ kind: 'permission', toolInput: { command, description: 'write the notes' } });
  await w.phone.waitFor(() => w.phone.session()?.status === 'waiting', { what: 'waiting while asked' });
  expect((await w.phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
  await w.view.shows('notes written', { timeoutMs: 45_000 });
  await w.fake.waitForRequest((r) => r.kind === 'main' && bodyOf(r).includes('journey-42'));
  expect(readFileSync(join(w.sandbox.cwd, 'notes.txt'), 'utf8')).toBe('journey-42\n');
  // The hook's request covered the agent's own dialog: no second request about it.
  expect(w.phone.requested.slice(from).filter((r) => r.kind === 'dialog')).toEqual([]);
  const call = await w.phone.waitFor(() => w.phone.messages().find((m) => m.content.some((b) => b.type === 'tool_use' && b.name === 'Bash' && JSON.stringify(b.input).includes('journey-'))), { what: 'the call in chat' });
  const use = call.content.find((b) => b.type === 'tool_use')! as { id: string };
  await w.phone.waitFor(() => w.phone.messages().find((m) => m.content.some((b) => b.type === 'tool_result' && b.toolUseId === use.id && b.content.includes('journey-42') && !b.isError)), { what: 'the result in chat' });
  await w.phone.waitFor(() => w.phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes('notes written')), { what: 'the reply in chat' });
  await idleOf(w, 'idle after the approval');
}

async function modelStep(w: JourneyWorld, caps: AgentCapabilities): Promise<void> {
  if (!canSwitch(caps, 'models', w.row.launchKind)) {
    expectRefused(await w.phone.emit('session:set-model', { sessionId: w.sessionId, model: w.row.model.to }), caps, 'model');
    return;
  }
  const from = w.phone.requested.length;
  expect(await w.phone.emit('session:set-model', { sessionId: w.sessionId, model: w.row.model.to })).toMatchObject({ ok: true });
  const switched = () => w.phone.session()?.model === w.row.model.to;
  const asked = () => heardSince(w, from, (r) => r.kind === 'dialog' && (w.row.model.confirm?.(r) ?? null) !== null);
  const first = await w.phone.waitFor(() => (switched() ? 'switched' : asked()), { what: `the session names ${w.row.model.to}, or the agent asks to confirm`, timeoutMs: 45_000 });
  if (first !== 'switched') {
    expect((await w.phone.emit('approval:answer', { requestId: first.id, answer: w.row.model.confirm!(first) })).ok).toBe(true);
    await w.phone.waitFor(switched, { what: `the session names ${w.row.model.to}`, timeoutMs: 45_000 });
  }
  await w.view.ready();
  w.fake.echo(`${w.row.agent} model: `);
  const seq = w.fake.requests.length;
  expect((await w.phone.send('which model now?')).ok).toBe(true);
  const next = await w.fake.waitForRequest((r) => r.seq >= seq && r.kind === 'main' && bodyOf(r).includes('which model now?'), { timeoutMs: 45_000 });
  expect(w.row.model.names(w.fake.modelOf(next))).toBe(true);
  await w.phone.waitFor(() => w.phone.messages().find((m) => m.role === 'assistant' && chatText(m).startsWith(`${w.row.agent} model: `) && chatText(m).includes('which model now?')), { what: 'the reply' });
  await idleOf(w, 'idle after the turn on the new model');
}

async function reviewStep(w: JourneyWorld, caps: AgentCapabilities): Promise<void> {
  const sessionId = w.sessionId;
  if (caps.readOnly === true && !(caps.readOnlyIn ?? ['pty']).includes('pty')) {
    const pty = await emitAck(w.socket, 'review:start', { sessionId, agent: w.row.agent, launchKind: 'pty' }, 60_000);
    expect(pty).toMatchObject({ ok: false, code: 'bad_request', error: `${caps.displayName} reviews ${caps.readOnlyIn!.join(' or ')} only (read-only there in its own terms), not in a PTY session` });
  }
  const headless = caps.readOnly === true && (caps.readOnlyIn ?? ['headless']).includes('headless');
  w.fake.review(FINDINGS);
  const started = (await emitAck(w.socket, 'review:start', { sessionId, agent: w.row.agent, focus: 'the notes' }, 60_000)) as { ok: boolean; review?: Review; session?: Session; error?: string };
  if (!headless) {
    expect(started).toMatchObject({ ok: false, code: 'bad_request' });
    expect(started.error).toContain(caps.displayName);
    return;
  }
  expect(started.error).toBeUndefined();
  expect(started.session).toMatchObject({ parentId: sessionId, agent: w.row.agent, launchKind: 'headless', machineId: w.daemon.machineId() });
  const first = await w.fake.waitForRequest((r) => r.kind === 'main' && bodyOf(r).includes('diff --git'), { timeoutMs: 60_000 });
  expect(bodyOf(first)).toContain(JSON.stringify(`-${NOTES_COMMITTED}+journey-42`).slice(1, -1));
  let card: Review | undefined;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && card?.state !== 'answered'; await Bun.sleep(300)) {
    const listed = (await emitAck(w.socket, 'review:list', { sessionId })) as { reviews?: Review[] };
    card = listed.reviews?.find((r) => r.id === started.review!.id);
  }
  expect(card).toMatchObject({ parentId: sessionId, agent: w.row.agent, state: 'answered', finalAnswer: FINDINGS });
  expect((await emitAck(w.socket, 'review:end', { reviewId: card!.id }, 30_000)).ok).toBe(true);
  expect(readFileSync(join(w.sandbox.cwd, 'notes.txt'), 'utf8')).toBe('journey-42\n');
}

async function questionStep(w: JourneyWorld, question: JourneyQuestion): Promise<void> {
  if (question.prepare) await question.prepare(w.runner!);
  w.fake.question({ prompt: 'ask me which database', then: 'noted your answer' });
  const from = w.phone.requested.length;
  await w.phone.send('ask me which database');
  const request = await w.phone.waitFor(() => heardSince(w, from, (r) => r.kind === 'question' || r.kind === 'dialog'), { what: 'the question on the hub', timeoutMs: 45_000 });
  expect(question.headlineOf(request)).toBe(JOURNEY_QUESTION.question);
  if (question.shape) expect(request.toolInput).toMatchObject(question.shape);
  // Answers the hub refuses, each with its reason: the question stays open, nothing typed.
  for (const [answer, reason] of question.refusals(request)) {
    const ack = await w.phone.emit('approval:answer', { requestId: request.id, answer });
    expect(ack.ok, JSON.stringify(answer)).toBe(false);
    expect(String(ack.error)).toMatch(reason);
  }
  expect(w.phone.resolved.find((r) => r.requestId === request.id)).toBeUndefined();
  expect((await w.phone.emit('approval:answer', { requestId: request.id, answer: question.answer(request, WORDS) })).ok).toBe(true);
  await w.view.shows('noted your answer', { timeoutMs: 45_000 });
  const reached = JSON.stringify(question.typed ? WORDS_TYPED : WORDS).slice(1, -1);
  await w.fake.waitForRequest((r) => r.kind === 'main' && bodyOf(r).includes(reached));
  await idleOf(w, 'idle after the answer');
}

/** An agent whose question tool tether's way of running it leaves out: its room relays no question,
 *  and its model is offered no such tool (so it never waits on a question nobody is shown). */
async function absentQuestionStep(w: JourneyWorld, caps: AgentCapabilities, question: AbsentQuestion): Promise<void> {
  expect(caps.relays.requests, question.absent).not.toContain('question');
  expect(caps.relays.requests, question.absent).not.toContain('dialog');
  w.fake.echo(`${w.row.agent} no question: `);
  const seq = w.fake.requests.length;
  await w.phone.send('ask me which database');
  const asked = await w.fake.waitForRequest((r) => r.seq >= seq && r.kind === 'main' && bodyOf(r).includes('ask me which database'), { timeoutMs: 45_000 });
  const offered = question.toolsOffered(asked);
  expect(offered.length, 'the request offers the agent\'s other tools').toBeGreaterThan(0);
  expect(offered, question.absent).not.toContain(question.tool);
  await w.view.shows(`${w.row.agent} no question: ask me which database`);
  await idleOf(w, 'idle after the turn');
}

/** `tether <agent>` at a desk, for a row started headless: refused, saying why, or its TUI starts. */
async function noDeskStep(w: JourneyWorld, row: HeadlessJourneyRow): Promise<void> {
  // Wide enough that the reason is one line.
  const desk = startRunner({ hub: w.hub, sandbox: w.sandbox, agent: row.agent, home: w.daemon.home, args: [], cols: 200, env: w.binEnv });
  try {
    const expected = row.desk;
    if ('shows' in expected) {
      await desk.waitForScreen(expected.shows, { timeoutMs: STEP_MS });
      return;
    }
    expect(await desk.exited).not.toBe(0);
    expect(desk.screenText(), desk.screenText()).toMatch(expected.refused);
  } finally {
    await desk.stop();
  }
}

describe.each(JOURNEY_ROWS)('the journey of $agent', (row) => {
  const defer = useFileCleanups();
  let w: JourneyWorld;
  let caps: AgentCapabilities;
  const idle = (what: string) => idleOf(w, what);
  const canDo = (what: Switch) => canSwitch(caps, what, row.launchKind);

  beforeAll(async () => {
    w = await startJourneyWorld(defer, row);
    // What the agent's room says the installed version can do: each step does it, or shows it refused.
    caps = installedCapabilities({ agent: agentFor(row.agent), env: { ...process.env, ...w.binEnv } });
  }, STEP_MS);
  beforeEach((context) => {
    context.onTestFailed(() => console.log(describeWorld(w)));
  });

  it('start: a prompt sent while the agent starts is typed once it is ready, answered once; the session is a PTY on the daemon’s machine, stating what its room says the installed version can do', async () => {
    await startStep(w, caps);
  }, STEP_MS);

  it('prompt: a prompt from the phone is typed into the agent and answered', async () => {
    w.fake.echo(`${row.agent} echo: `);
    await expectPromptAnswered({ phone: w.phone, shows: (text) => w.view.shows(text), prompt: 'what is up from the phone', reply: `${row.agent} echo: what is up from the phone` });
    await idle('idle after the turn');
  }, STEP_MS);

  it('chat: a prompt typed at the desk becomes chat with its reply, nothing twice; a row started headless: at a desk, refused saying why, or its own TUI starts', async () => {
    if (row.launchKind === 'headless') {
      await noDeskStep(w, row);
      return;
    }
    const runner = w.runner!;
    w.fake.echo(`${row.agent} desk: `);
    runner.paste('hello from the desk');
    await runner.waitForScreen('hello from the desk');
    if (row.pasteSettleMs > 0) await Bun.sleep(row.pasteSettleMs);
    runner.write('\r');
    await expectDeskTurnInChat(w.phone, { prompt: 'hello from the desk', reply: `${row.agent} desk: hello from the desk` });
    await idle('idle after the desk turn');
    expect(w.phone.duplicates()).toBe(0);
  }, STEP_MS);

  it('approval: the command asked about reaches the phone; allowed there, it runs and the model gets its output; the chat shows call and result', async () => {
    await approvalStep(w, caps);
  }, STEP_MS);

  it('abort: the phone interrupts a reply mid-stream, as Esc at the desk does', async () => {
    w.fake.story('story');
    const from = w.fake.requests.length;
    await w.phone.send('tell me a long story');
    const streamed = await w.fake.waitForRequest((r) => r.seq >= from && r.kind === 'main' && bodyOf(r).includes('tell me a long story'), { timeoutMs: 45_000 });
    await w.view.replying('story-1.');
    expect((await w.phone.emit('session:abort', { sessionId: w.sessionId })).ok).toBe(true);
    await expect.poll(() => streamed.outcome, { timeout: 15_000 }).toBe('aborted');
    await idle('idle after the abort');
    expect(w.view.text()).not.toContain('story-20.');
    await w.view.ready();
  }, STEP_MS);

  it('model: switched from the phone, the next request names the new model; where the agent cannot, refused with the reason', async () => {
    await modelStep(w, caps);
  }, STEP_MS);

  it('mode: switched from the phone and back, the session follows the agent; where the agent cannot, refused with the reason', async () => {
    if (!canDo('modes')) {
      expectRefused(await w.phone.emit('session:set-mode', { sessionId: w.sessionId, mode: 'plan' }), caps, 'mode');
      return;
    }
    const before = await w.phone.waitFor(() => w.phone.session()?.permissionMode, { what: 'the mode read from the agent' });
    const target = caps.modes.values.includes('plan') && before !== 'plan' ? 'plan' : caps.modes.values.find((m) => m !== before)!;
    for (const mode of [target, before]) {
      expect((await w.phone.emit('session:set-mode', { sessionId: w.sessionId, mode })).ok).toBe(true);
      await w.phone.waitFor(() => w.phone.session()?.permissionMode === mode, { what: `${mode} mode`, timeoutMs: 30_000 });
    }
    await w.view.ready();
  }, STEP_MS);

  it('question: the agent’s own question reaches the phone with its headline; the person’s words reach its next request; where it has no question tool as tether runs it, none is offered to its model', async () => {
    if ('absent' in row.question) {
      await absentQuestionStep(w, caps, row.question);
      return;
    }
    await questionStep(w, row.question);
  }, STEP_MS);

  it('review: the same agent reviews the session read-only, the diff in its first request, its findings on the card; where it cannot, refused with the reason', async () => {
    await reviewStep(w, caps);
  }, STEP_MS);

  it('end: End from the phone ends the agent and the session', async () => {
    expect((await w.phone.emit('session:stop', { sessionId: w.sessionId })).ok).toBe(true);
    await w.phone.waitFor(() => w.phone.session()?.status === 'ended', { what: 'ended', timeoutMs: 30_000 });
    expect(await w.view.ended()).toBe(w.runner ? 0 : 'ended');
    // The fake was asked only what it knows.
    expect(w.fake.requests.filter((r) => r.kind === 'other').map((r) => r.path)).toEqual([]);
  }, STEP_MS);
});
