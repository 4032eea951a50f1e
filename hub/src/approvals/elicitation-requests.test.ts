// An MCP form (`elicitation` request) over real sockets: the hub takes an accepted answer only when
// its content fits the form's requested schema, by the same check the runner makes before it hands
// the content to claude (shared/elicitation.ts). An answer the runner would drop must not resolve the
// request: every phone would show it done while the form waits at the desk.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { PendingList } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-elicitation-' });
const { connect, ack, runnerWithTab } = live;

const FORM = {
  serverName: 'deployer',
  message: 'Who is deploying, and where to?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 5 },
      email: { type: 'string', format: 'email' },
      region: { type: 'string', enum: ['us-east', 'eu-west'] },
      replicas: { type: 'integer', minimum: 1, maximum: 9 },
      notify: { type: 'boolean' },
    },
    required: ['name', 'region'],
  },
};

async function pendingIds(): Promise<string[]> {
  const res = await fetch(`${live.hub.url}/api/pending`, { headers: { authorization: `Bearer ${live.accessToken}` } });
  return ((await res.json()) as PendingList).pending.map((r) => r.id);
}

it("refuses an answer that breaks the form's rules, says which field and which rule, and keeps the request waiting everywhere", async () => {
  const { runner, web: phone, sid: sessionId, registered } = await runnerWithTab();
  expect(registered.ok).toBe(true);
  const request = { id: randomUUID(), sessionId, kind: 'elicitation', toolName: 'deployer', toolInput: FORM, toolUseId: null, createdAt: Date.now() };
  expect((await ack(runner, 'approval:request', request)).ok).toBe(true);
  const heard: string[] = [];
  runner.on('approval:answered', () => heard.push('runner'));
  phone.on('approval:resolved', () => heard.push('phone'));

  const accept = (content: Record<string, unknown>) => ({ decision: 'allow', elicitation: { action: 'accept', content } });
  const cases: Array<{ answer: unknown; says: RegExp }> = [
    { answer: accept({ name: 'Adalovelace', region: 'us-east' }), says: /name.*at most 5 characters/ },
    { answer: accept({ name: 'A', region: 'us-east' }), says: /name.*at least 2 characters/ },
    { answer: accept({ name: 'Ada', region: 'mars' }), says: /region.*one of the choices/ },
    { answer: accept({ name: 'Ada', region: 'us-east', replicas: 10 }), says: /replicas.*at most 9/ },
    { answer: accept({ name: 'Ada', region: 'us-east', replicas: 0 }), says: /replicas.*at least 1/ },
    { answer: accept({ name: 'Ada', region: 'us-east', replicas: 2.5 }), says: /replicas.*whole number/ },
    { answer: accept({ name: 'Ada', region: 'us-east', notify: 'yes' }), says: /notify.*yes or no/ },
    { answer: accept({ name: 'Ada', region: 'us-east', email: 'nope' }), says: /email.*email address/ },
    { answer: accept({ name: 'Ada' }), says: /region.*required/ },
    { answer: accept({ name: 'Ada', region: 'us-east', extra: 1 }), says: /extra.*not asked for/ },
    // A bare allow is an accept without content: the required fields are missing.
    { answer: { decision: 'allow' }, says: /name.*required/ },
  ];
  for (const { answer, says } of cases) {
    const refused = await ack(phone, 'approval:answer', { requestId: request.id, answer });
    expect(refused, JSON.stringify(answer)).toMatchObject({ ok: false, code: 'bad_request' });
    expect(refused.error, JSON.stringify(answer)).toMatch(says);
  }
  expect(await pendingIds()).toEqual([request.id]);

  // A fitting answer resolves it and reaches the runner as sent; a decline needs no content.
  const answered = new Promise<{ answer: unknown }>((resolve) => runner.once('approval:answered', resolve));
  const good = accept({ name: 'Ada', region: 'eu-west', replicas: 3, notify: true, email: 'ada@example.com' });
  expect((await ack(phone, 'approval:answer', { requestId: request.id, answer: good })).ok).toBe(true);
  expect((await answered).answer).toEqual(good);
  expect(heard.filter((h) => h === 'runner')).toHaveLength(1);
  expect(await pendingIds()).toEqual([]);

  const second = { ...request, id: randomUUID() };
  expect((await ack(runner, 'approval:request', second)).ok).toBe(true);
  expect((await ack(phone, 'approval:answer', { requestId: second.id, answer: { decision: 'deny', elicitation: { action: 'decline' } } })).ok).toBe(true);
});
