// reviews.test.ts: a review against a real hub, with the daemon and the runners played by socket.io
// clients (as remote-sessions.test.ts does), so what each is sent can be read: the daemon's spawn
// (read-only, the parent's machine and folder), the reviewer's first prompt (instructions, the diff
// its parent's runner answered, the focus), the card following the reviewer's answer, and the
// card's buttons. Every refusal names its reason, and nothing is started or stored.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { MAX_REVIEW_FOCUS_CHARS, type AgentCapabilities, type Review } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';
import { ONE_FILE_CHANGES } from '../../../tests/fixtures/changes-page.ts';

/** The played runners' starts, awaited before their sockets close. */
const runnerStarts: Array<Promise<void>> = [];
const live = hubUnderTest({ home: 'tether-reviews-', label: 'phone', ackTimeoutMs: 20_000, settle: () => Promise.all(runnerStarts.splice(0)) });
const { connect, ack, next } = live;
/** A phone of another namespace. */
const strangerPhone = async () => connect({ nsp: '/web', token: await live.token('beta', { label: 'other' }) });

/** Any agent's shape will do: the hub decides from `readOnly`, never from the name. */
const capabilities = (readOnly: boolean): AgentCapabilities => ({
  displayName: 'Reviewer',
  description: '',
  models: { offered: [], typed: true, example: null, switchableIn: [] },
  effort: { levels: [], maps: {}, switchableIn: [] },
  modes: { values: [], switchableIn: [] },
  resumeCommand: 'agent resume {id}',
  ...(readOnly ? { readOnly: true } : {}),
  relays: { requests: ['permission'], editedInput: false, sessionRules: false },
});


type World = { daemon: Socket; machineId: string; parent: Socket; parentId: string; phone: Socket; spawns: Array<Record<string, unknown>>; children: Socket[] };

/** A machine with claude (read-only capable) and codex (as stated by `codexReadOnly`), a live
 *  claude session on it whose runner answers the Changes query, and a phone. Each spawn the daemon
 *  is asked for becomes a runner that registers and goes idle. */
async function world(o: { codexReadOnly?: boolean; agents?: string[] } = {}): Promise<World> {
  const machineId = randomUUID();
  const daemon = await connect({ nsp: '/cli', client: 'daemon' });
  const agents = o.agents ?? ['claude', 'codex'];
  const stated = Object.fromEntries(agents.map((a) => [a, capabilities(a === 'codex' ? o.codexReadOnly !== false : true)]));
  expect((await ack(daemon, 'machine:register', { id: machineId, name: 'box', os: 'linux', user: 'dev', home: '/home/dev', agents, capabilities: stated })).ok).toBe(true);
  const spawns: Array<Record<string, unknown>> = [];
  const children: Socket[] = [];
  daemon.on('daemon:spawn', (spawn: Record<string, unknown> & { sessionId: string; cwd: string; launchKind: string; agent: string }, reply: (a: unknown) => void) => {
    spawns.push(spawn);
    reply({ ok: true, pid: 1000 + spawns.length, cwd: spawn.cwd, logFile: `/tmp/session-${spawn.sessionId}.log` });
    runnerStarts.push(
      (async () => {
        const runner = await connect({ nsp: '/cli' });
        children.push(runner);
        await ack(runner, 'session:register', { id: spawn.sessionId, machineId, cwd: spawn.cwd, launchKind: spawn.launchKind, agent: spawn.agent });
        await ack(runner, 'session:update', { sessionId: spawn.sessionId, patch: { status: 'idle' } });
      })(),
    );
  });
  const parentId = randomUUID();
  const parent = await connect({ nsp: '/cli' });
  expect((await ack(parent, 'session:register', { id: parentId, machineId, cwd: '/home/dev/app', launchKind: 'pty', status: 'idle' })).ok).toBe(true);
  parent.on('workspace:query', (_query: unknown, reply: (a: unknown) => void) => reply({ ok: true, ...ONE_FILE_CHANGES }));
  const phone = await connect({ nsp: '/web' });
  return { daemon, machineId, parent, parentId, phone, spawns, children };
}

it('starts a read-only reviewer on the parent\'s machine and folder with the diff and the focus, follows its answer on the card, and sends, asks and ends from it', async () => {
  const w = await world();
  expect((await ack(w.phone, 'session:watch', { sessionId: w.parentId })).ok).toBe(true);
  const started = await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'codex', focus: 'the return value' });
  expect(started.error).toBeUndefined();
  const review = started.review as Review;
  expect(review).toMatchObject({ parentId: w.parentId, agent: 'codex', state: 'reviewing', focus: 'the return value', finalAnswer: null });
  expect(started.session).toMatchObject({ id: review.id, parentId: w.parentId, cwd: '/home/dev/app', agent: 'codex' });
  expect(w.spawns).toEqual([expect.objectContaining({ sessionId: review.id, cwd: '/home/dev/app', agent: 'codex', launchKind: 'headless', readOnly: true, createDir: false })]);

  // The first prompt: the instructions, the Changes view's diff, the focus.
  const child = w.children[0]!;
  const first = await next<{ promptId: string; text: string }>(child, 'prompt:deliver');
  expect(first.text).toContain('read-only');
  expect(first.text).toContain('diff --git a/src/app.ts b/src/app.ts\n@@ -3,2 +3,2 @@ main()\n keep\n-  return 1;\n+  return 2;');
  expect(first.text).toContain('focus on:\nthe return value');

  // The reviewer answers and goes idle: the parent's watchers see the card answered.
  const answered = next<Review>(w.phone, 'review:updated', (r) => r.state === 'answered');
  await ack(child, 'session:update', { sessionId: review.id, patch: { status: 'thinking' } });
  await ack(child, 'message:append', { sessionId: review.id, messages: [{ id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'src/app.ts:4 returns 2: the caller expects 1.' }], createdAt: 5 }] });
  await ack(child, 'session:update', { sessionId: review.id, patch: { status: 'idle' } });
  expect(await answered).toMatchObject({ id: review.id, finalAnswer: 'src/app.ts:4 returns 2: the caller expects 1.' });
  expect((await ack(w.phone, 'review:list', { sessionId: w.parentId })).reviews).toEqual([expect.objectContaining({ id: review.id, state: 'answered' })]);

  // Send to the parent (edited text), ask the reviewer again.
  const toParent = next<{ text: string }>(w.parent, 'prompt:deliver');
  expect((await ack(w.phone, 'review:send', { reviewId: review.id, promptId: randomUUID(), text: 'A reviewer says: src/app.ts:4 returns 2.' })).ok).toBe(true);
  expect((await toParent).text).toBe('A reviewer says: src/app.ts:4 returns 2.');
  const again = next<{ text: string }>(child, 'prompt:deliver');
  expect((await ack(w.phone, 'review:ask', { reviewId: review.id, promptId: randomUUID(), text: 'And the tests?' })).ok).toBe(true);
  expect((await again).text).toBe('And the tests?');

  // End: the reviewer is asked to stop; once its session ends the card is ended and keeps its answer.
  child.on('session:stop', () => void ack(child, 'session:end', { sessionId: review.id, status: 'ended', exitCode: 0, reason: null }));
  const ended = await ack(w.phone, 'review:end', { reviewId: review.id });
  expect(ended.review).toMatchObject({ id: review.id, state: 'ended', finalAnswer: 'src/app.ts:4 returns 2: the caller expects 1.' });
  expect(await ack(w.phone, 'review:ask', { reviewId: review.id, promptId: randomUUID(), text: 'more?' })).toMatchObject({ ok: false, code: 'gone' });

  // A hub restart keeps the card and the link: a new phone lists the review, its session names its parent.
  await live.restart();
  const phone = await connect({ nsp: '/web' });
  expect((await ack(phone, 'review:list', { sessionId: w.parentId })).reviews).toEqual([expect.objectContaining({ id: review.id, state: 'ended', finalAnswer: 'src/app.ts:4 returns 2: the caller expects 1.' })]);
  const watched = await ack(phone, 'session:watch', { sessionId: review.id });
  expect(watched.session).toMatchObject({ id: review.id, parentId: w.parentId });
});

it("picks a reviewer when none is asked: the machine's first read-only-capable agent other than the session's own", async () => {
  const w = await world();
  const started = await ack(w.phone, 'review:start', { sessionId: w.parentId });
  expect(started.error).toBeUndefined();
  // The parent runs claude (a registration without an agent); the machine also has codex.
  expect(started.review).toMatchObject({ agent: 'codex', focus: '' });
  expect(w.spawns).toEqual([expect.objectContaining({ agent: 'codex', readOnly: true })]);
});

describe('refusals: a clear error, nothing started, nothing stored', () => {
  const nothingHappened = async (w: World) => {
    expect(w.spawns).toEqual([]);
    expect(await live.hub.store.listReviews({ namespace: 'alpha', parentId: w.parentId })).toEqual([]);
  };

  it('a session of another namespace is not found, like a missing one', async () => {
    const w = await world();
    const stranger = await strangerPhone();
    expect(await ack(stranger, 'review:start', { sessionId: w.parentId, agent: 'codex' })).toMatchObject({ ok: false, code: 'not_found', error: 'no such session' });
    expect(await ack(w.phone, 'review:start', { sessionId: randomUUID(), agent: 'codex' })).toMatchObject({ ok: false, code: 'not_found', error: 'no such session' });
    expect(await ack(stranger, 'review:list', { sessionId: w.parentId })).toMatchObject({ ok: false, code: 'not_found' });
    await nothingHappened(w);
  });

  it('an agent the machine lacks, or one its tether cannot start read-only', async () => {
    const w = await world({ agents: ['claude'] });
    const missing = await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'codex' });
    expect(missing).toMatchObject({ ok: false, code: 'bad_request', reason: 'agent_missing', error: 'machine "box" has no codex (it has: claude)' });
    await nothingHappened(w);
    const old = await world({ codexReadOnly: false });
    const unsafe = await ack(old.phone, 'review:start', { sessionId: old.parentId, agent: 'codex' });
    expect(unsafe).toMatchObject({ ok: false, code: 'bad_request', reason: 'agent_missing' });
    expect(String(unsafe.error)).toContain('cannot start Reviewer read-only');
    await nothingHappened(old);
  });

  it('an ended parent', async () => {
    const w = await world();
    expect((await ack(w.parent, 'session:end', { sessionId: w.parentId, status: 'ended', exitCode: 0, reason: null })).ok).toBe(true);
    const refused = await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'codex' });
    expect(refused).toMatchObject({ ok: false, code: 'gone' });
    expect(String(refused.error)).toContain('the session has ended');
    await nothingHappened(w);
  });

  it('a review of a review of a review', async () => {
    const w = await world();
    // A review (depth 1) and its review (depth 2), as the store keeps them.
    const chain = [w.parentId];
    for (let i = 0; i < 2; i++) {
      const id = randomUUID();
      const runner = await connect({ nsp: '/cli' });
      await ack(runner, 'session:register', { id, machineId: w.machineId, cwd: '/home/dev/app', launchKind: 'headless', status: 'idle' });
      runner.on('workspace:query', (_query: unknown, reply: (a: unknown) => void) => reply({ ok: true, ...ONE_FILE_CHANGES }));
      expect(await live.hub.store.addReview({ namespace: 'alpha', review: { id, parentId: chain.at(-1)!, agent: 'claude', state: 'answered', focus: '', finalAnswer: 'ok', createdAt: 1, updatedAt: 1 } })).toMatchObject({ kind: 'added' });
      chain.push(id);
    }
    const refused = await ack(w.phone, 'review:start', { sessionId: chain[2], agent: 'codex' });
    expect(refused).toMatchObject({ ok: false, code: 'bad_request', error: 'reviews nest at most 2 deep: this session is already a review of a review' });
    expect(w.spawns).toEqual([]);
    expect(await live.hub.store.listReviews({ namespace: 'alpha', parentId: chain[2]! })).toEqual([]);
    // One level less is allowed (a review of a review).
    expect((await ack(w.phone, 'review:start', { sessionId: chain[1], agent: 'codex' })).ok).toBe(true);
  });

  it('an oversized focus', async () => {
    const w = await world();
    const refused = await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'codex', focus: 'x'.repeat(MAX_REVIEW_FOCUS_CHARS + 1) });
    expect(refused).toMatchObject({ ok: false, code: 'bad_request' });
    expect(String(refused.error)).toContain(`a focus is at most ${MAX_REVIEW_FOCUS_CHARS} characters`);
    await nothingHappened(w);
  });
});

describe('End and Archive of a parent with live reviews (parent-end.ts)', () => {
  /** The runner ends its session when the hub asks it to stop, as a real one does; records it. */
  const endsOnStop = (runner: Socket, sessionId: string, stops: string[]) =>
    runner.on('session:stop', () => {
      stops.push(sessionId);
      // Awaited before the sockets close (afterEach): its ack may come after the stop's.
      runnerStarts.push(ack(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0, reason: null }).then(() => undefined));
    });
  const statusOf = async (sessionId: string) => (await live.hub.store.getSession({ namespace: 'alpha', sessionId }))?.status;

  /** A parent with one live review (its reviewer registered and idle). */
  async function parentWithReview() {
    const w = await world();
    const started = await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'codex', focus: 'error handling' });
    expect(started.error).toBeUndefined();
    await Promise.all(runnerStarts.splice(0));
    const reviewId = (started.review as Review).id;
    const stops: string[] = [];
    endsOnStop(w.parent, w.parentId, stops);
    endsOnStop(w.children[0]!, reviewId, stops);
    return { w, reviewId, stops };
  }

  it('End without a choice is refused, naming the live review; nothing is stopped', async () => {
    const { w, reviewId, stops } = await parentWithReview();
    const refused = await ack(w.phone, 'session:stop', { sessionId: w.parentId });
    expect(refused).toMatchObject({ ok: false, code: 'conflict', reason: 'reviews_live', reviews: [{ id: reviewId, agent: 'codex', focus: 'error handling' }] });
    expect(String(refused.error)).toContain(`a review is still running: Codex review ${reviewId.slice(0, 8)} (reviewing, focus: error handling)`);
    expect(String(refused.error)).toContain('Say whether to end it too or keep it running on its own, then end again');
    expect(stops).toEqual([]);
    expect(await statusOf(w.parentId)).toBe('idle');
    expect(await statusOf(reviewId)).toBe('idle');
    // A choice that is neither is bad input, and stops nothing either.
    expect(await ack(w.phone, 'session:stop', { sessionId: w.parentId, reviews: 'later' })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(stops).toEqual([]);
  });

  it('End with "end" ends the review first, then the parent; the card stays, ended', async () => {
    const { w, reviewId, stops } = await parentWithReview();
    const ended = await ack(w.phone, 'session:stop', { sessionId: w.parentId, reviews: 'end' });
    expect(ended).toMatchObject({ ok: true, session: { id: w.parentId, status: 'ended' } });
    expect(stops).toEqual([reviewId, w.parentId]);
    expect(await statusOf(reviewId)).toBe('ended');
    expect((await ack(w.phone, 'review:list', { sessionId: w.parentId })).reviews).toEqual([expect.objectContaining({ id: reviewId, state: 'ended' })]);
  });

  it('End with "keep" ends the parent alone: the review runs on, still linked; Archive then asks again', async () => {
    const { w, reviewId, stops } = await parentWithReview();
    expect(await ack(w.phone, 'session:stop', { sessionId: w.parentId, reviews: 'keep' })).toMatchObject({ ok: true, session: { status: 'ended' } });
    expect(stops).toEqual([w.parentId]);
    expect(await statusOf(reviewId)).toBe('idle');
    expect((await ack(w.phone, 'session:watch', { sessionId: reviewId })).session).toMatchObject({ parentId: w.parentId });
    expect((await ack(w.phone, 'review:list', { sessionId: w.parentId })).reviews).toEqual([expect.objectContaining({ id: reviewId })]);

    // Archive of the ended parent while its kept review still runs: the same question.
    const refused = await ack(w.phone, 'session:archive', { sessionId: w.parentId, archived: true });
    expect(refused).toMatchObject({ ok: false, code: 'conflict', reason: 'reviews_live', reviews: [{ id: reviewId }] });
    expect(String(refused.error)).toContain('then archive again');
    expect((await live.hub.store.getSession({ namespace: 'alpha', sessionId: w.parentId }))?.archivedAt ?? null).toBeNull();
    // Keep: archived, the review still runs.
    expect(await ack(w.phone, 'session:archive', { sessionId: w.parentId, archived: true, reviews: 'keep' })).toMatchObject({ ok: true, session: { id: w.parentId } });
    expect((await live.hub.store.getSession({ namespace: 'alpha', sessionId: w.parentId }))?.archivedAt).toEqual(expect.any(Number));
    expect(await statusOf(reviewId)).toBe('idle');
    // Unarchive asks nothing.
    expect(await ack(w.phone, 'session:archive', { sessionId: w.parentId, archived: false })).toMatchObject({ ok: true });
    // End: archived, the review ended.
    expect(await ack(w.phone, 'session:archive', { sessionId: w.parentId, archived: true, reviews: 'end' })).toMatchObject({ ok: true });
    expect(stops).toEqual([w.parentId, reviewId]);
    expect(await statusOf(reviewId)).toBe('ended');
    // Nothing live any more: archive needs no choice.
    expect(await ack(w.phone, 'session:archive', { sessionId: w.parentId, archived: false })).toMatchObject({ ok: true });
    expect(await ack(w.phone, 'session:archive', { sessionId: w.parentId, archived: true })).toMatchObject({ ok: true });
  });

  it('a parent whose reviews have all ended ends without a question; another namespace learns nothing', async () => {
    const { w, reviewId, stops } = await parentWithReview();
    const stranger = await strangerPhone();
    expect(await ack(stranger, 'session:stop', { sessionId: w.parentId })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await ack(stranger, 'session:archive', { sessionId: w.parentId, archived: true, reviews: 'end' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(stops).toEqual([]);
    expect((await ack(w.phone, 'review:end', { reviewId })).ok).toBe(true);
    expect(await ack(w.phone, 'session:stop', { sessionId: w.parentId })).toMatchObject({ ok: true, session: { status: 'ended' } });
    expect(stops).toEqual([reviewId, w.parentId]);
  });
});

describe('Send on: a new review checks the findings of another (checks)', () => {
  it("puts the other review's final answer after the diff; an unknown, another session's or an unanswered review is refused, nothing started", async () => {
    const w = await world();
    const first = await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'codex' });
    expect(first.error).toBeUndefined();
    const firstId = (first.review as Review).id;
    await Promise.all(runnerStarts.splice(0));
    // Before it answers there is nothing to send on.
    expect(await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'claude', checks: firstId })).toMatchObject({ ok: false, code: 'conflict', error: 'that review has not answered yet: there are no findings to send on' });
    expect(await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'claude', checks: randomUUID() })).toMatchObject({ ok: false, code: 'not_found' });
    // A review is sent on only within the session it reviews.
    expect(await ack(w.phone, 'review:start', { sessionId: firstId, agent: 'claude', checks: firstId })).toMatchObject({ ok: false, code: 'not_found' });
    expect(w.spawns).toHaveLength(1);

    const answered = next<Review>(w.phone, 'review:updated', (r) => r.id === firstId && r.state === 'answered');
    expect((await ack(w.phone, 'session:watch', { sessionId: w.parentId })).ok).toBe(true);
    await ack(w.children[0]!, 'message:append', { sessionId: firstId, messages: [{ id: 'f1', role: 'assistant', content: [{ type: 'text', text: 'src/app.ts:4 returns 2.' }], createdAt: 5 }] });
    await answered;

    const second = await ack(w.phone, 'review:start', { sessionId: w.parentId, agent: 'claude', checks: firstId, focus: 'is it right?' });
    expect(second.error).toBeUndefined();
    expect(second.review).toMatchObject({ parentId: w.parentId, agent: 'claude', focus: 'is it right?' });
    await Promise.all(runnerStarts.splice(0));
    const prompt = await next<{ text: string }>(w.children[1]!, 'prompt:deliver');
    expect(prompt.text).toContain('--- end of diff ---\n\nA Codex review of these changes found what follows. Check each finding against the code');
    expect(prompt.text).toContain('--- findings ---\nsrc/app.ts:4 returns 2.\n--- end of findings ---');
    expect((await ack(w.phone, 'review:list', { sessionId: w.parentId })).reviews).toHaveLength(2);
  });
});
