// review-stop.test.ts: `tether stop` on a session with a live review (issue 29), as a shell user runs
// it (a child process, no terminal): without a word on its reviews it stops nothing, lists the
// review and names the flags (exit 1; --json says the same as data); --keep-reviews ends the
// session alone, the review runs on, still linked; --end-reviews ends the review first, then the
// session. The runners are played by sockets that end their session when asked to stop, as a real
// one does; the hub and the CLI are real.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { useCleanups } from '../harness/cleanups.ts';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import { runTether } from '../harness/tether-cli.ts';

const defer = useCleanups();

/** A registered live session whose played runner ends it on session:stop; `stops` records the order. */
async function liveSession(hub: HubHandle, stops: string[]): Promise<{ id: string; runner: Socket }> {
  const id = randomUUID();
  const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  defer(() => runner.close());
  expect((await emitAck(runner, 'session:register', { id, cwd: '/tmp/app', launchKind: 'headless', status: 'idle' })).ok).toBe(true);
  const ends: Array<Promise<unknown>> = [];
  // Runs before the socket closes (cleanups run last first): an end's ack may come after the stop's.
  defer(() => Promise.all(ends));
  runner.on('session:stop', () => {
    stops.push(id);
    ends.push(emitAck(runner, 'session:end', { sessionId: id, status: 'ended', exitCode: 0, reason: null }));
  });
  return { id, runner };
}

/** A parent and its live review, linked as the hub links them when a review starts. */
async function parentWithReview(hub: HubHandle, stops: string[]) {
  const parent = await liveSession(hub, stops);
  const review = await liveSession(hub, stops);
  const now = Date.now();
  const added = await hub.store.addReview({ namespace: hub.namespace, review: { id: review.id, parentId: parent.id, agent: 'codex', state: 'reviewing', focus: 'the error paths', finalAnswer: null, createdAt: now, updatedAt: now } });
  expect(added.kind).toBe('added');
  return { parentId: parent.id, reviewId: review.id };
}

const statusOf = async (hub: HubHandle, sessionId: string) => (await hub.store.getSession({ namespace: hub.namespace, sessionId }))?.status;

describe('tether stop on a session with a live review', () => {
  it('without --end-reviews or --keep-reviews it stops nothing and lists the review; --keep-reviews ends the session alone', async () => {
    const hub = await startHub();
    defer(() => hub.stop());
    const env = { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };
    const stops: string[] = [];
    const { parentId, reviewId } = await parentWithReview(hub, stops);

    const refused = await runTether({ args: ['stop', parentId], env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`not stopped: its reviews still run:\n  ${reviewId}  codex · reviewing · focus: the error paths\nrun it again with --end-reviews (end them too) or --keep-reviews (they run on, still linked)`);
    const json = await runTether({ args: ['stop', parentId, '--json'], env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, code: 'conflict', reason: 'reviews_live', reviews: [{ id: reviewId, agent: 'codex', state: 'reviewing' }] });
    const both = await runTether({ args: ['stop', parentId, '--end-reviews', '--keep-reviews'], env });
    expect(both.code).toBe(2);
    expect(stops).toEqual([]);
    expect(await statusOf(hub, parentId)).toBe('idle');

    const kept = await runTether({ args: ['stop', parentId, '--keep-reviews'], env });
    expect(kept.stderr).toBe('');
    expect(kept.stdout).toBe(`stopped ${parentId} (ended)\n`);
    expect(stops).toEqual([parentId]);
    expect(await statusOf(hub, reviewId)).toBe('idle');
    expect((await hub.store.getSession({ namespace: hub.namespace, sessionId: reviewId }))?.parentId).toBe(parentId);
  }, 60_000);

  it('--end-reviews ends the review first, then the session', async () => {
    const hub = await startHub();
    defer(() => hub.stop());
    const stops: string[] = [];
    const { parentId, reviewId } = await parentWithReview(hub, stops);
    const ended = await runTether({ args: ['stop', parentId, '--end-reviews', '--json'], env: { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token } });
    expect(ended.stderr).toBe('');
    expect(JSON.parse(ended.stdout)).toMatchObject({ sessionId: parentId, status: 'ended' });
    expect(stops).toEqual([reviewId, parentId]);
    expect(await statusOf(hub, reviewId)).toBe('ended');
  }, 60_000);
});
