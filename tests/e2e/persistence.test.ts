// persistence.test.ts: the real `tether hub` process, messages written over the socket, SIGKILL
// (no graceful shutdown), restart on the same TETHER_HOME: every message is there with its seq,
// seq continues, and a resend of an existing id is a no-op.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { connectSocket, emitAck, makeTempHome, startHubProcess, type HubProcessHandle } from '../harness/hub.ts';
import { useCleanups } from '../harness/cleanups.ts';

const MESSAGES = 120;
const BATCH = 25;

const defer = useCleanups();

const message = (i: number) => ({ id: `msg-${i}`, role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: `message ${i}` }], createdAt: 1000 + i });

async function listAll(hub: HubProcessHandle, token: string, sessionId: string) {
  const res = await fetch(`${hub.url}/api/sessions/${sessionId}/messages?after=0&limit=500`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { messages: Array<{ id: string; seq: number; content: unknown }>; more: boolean };
}

it('keeps every acked message across SIGKILL and continues seq after restart', async () => {
  const home = makeTempHome('tether-persist-');
  defer(() => rmSync(home, { recursive: true, force: true }));

  const first = await startHubProcess({ home });
  defer(() => first.stop());
  expect(first.token).toMatch(/^tth_/);
  const token = first.token!;
  const sessionId = randomUUID();

  const runner = await connectSocket({ url: first.url, nsp: '/cli', token });
  defer(() => void runner.close());
  expect(await emitAck(runner, 'session:register', { id: sessionId, cwd: '/work', launchKind: 'headless' })).toMatchObject({ ok: true });
  let lastSeq = 0;
  for (let i = 0; i < MESSAGES; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, MESSAGES - i) }, (_, k) => message(i + k + 1));
    const ack = await emitAck<{ added: number; lastSeq: number }>(runner, 'message:append', { sessionId, messages: batch });
    expect(ack).toMatchObject({ ok: true, added: batch.length });
    if (ack.ok) lastSeq = ack.lastSeq;
  }
  expect(lastSeq).toBe(MESSAGES);

  // Crash: no chance to checkpoint the WAL or close the DB.
  await first.kill('SIGKILL');
  runner.close();

  const second = await startHubProcess({ home });
  defer(() => second.stop());
  expect(second.token, 'no new first-start token on a restart').toBeNull();

  const page = await listAll(second, token, sessionId);
  expect(page.messages.map((m) => m.seq)).toEqual(Array.from({ length: MESSAGES }, (_, i) => i + 1));
  expect(page.messages.map((m) => m.id)).toEqual(Array.from({ length: MESSAGES }, (_, i) => `msg-${i + 1}`));
  expect(page.messages[41]?.content).toEqual([{ type: 'text', text: 'message 42' }]);

  const again = await connectSocket({ url: second.url, nsp: '/cli', token });
  defer(() => void again.close());
  expect(await emitAck(again, 'session:register', { id: sessionId, cwd: '/work', launchKind: 'headless', status: 'idle' })).toMatchObject({
    ok: true,
    session: { lastSeq: MESSAGES },
  });
  // The runner's outbox resends what it is unsure of: a no-op.
  expect(await emitAck(again, 'message:append', { sessionId, messages: [message(7), message(MESSAGES)] })).toEqual({ ok: true, added: 0, lastSeq: MESSAGES });
  expect(await emitAck(again, 'message:append', { sessionId, messages: [message(MESSAGES), message(MESSAGES + 1)] })).toEqual({
    ok: true,
    added: 1,
    lastSeq: MESSAGES + 1,
  });
  const after = await listAll(second, token, sessionId);
  expect(after.messages).toHaveLength(MESSAGES + 1);
  expect(after.messages.at(-1)).toMatchObject({ id: `msg-${MESSAGES + 1}`, seq: MESSAGES + 1 });
});
