// A `dialog` request over real sockets: the hub takes only the strict dialog shape from a runner,
// takes only an answer that names one of its options from a client (anything else would resolve the
// request while claude still waits), forwards the chosen key to the runner, and lets the desk win.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const { connect, ack, next, register } = hubUnderTest({ home: 'tether-dialogs-' });

const DIALOG = {
  title: 'Switch model?',
  text: ['Switch model?', '', '  1. Yes, switch to Sonnet 5.5', '  2. No, go back'],
  options: [
    { key: '1', label: 'Yes, switch to Sonnet 5.5' },
    { key: '2', label: 'No, go back' },
  ],
};

async function withDialog() {
  const runner = await connect({ nsp: '/cli' });
  const phone = await connect({ nsp: '/web' });
  const sessionId = randomUUID();
  expect((await register(runner, { id: sessionId })).ok).toBe(true);
  const request = { id: randomUUID(), sessionId, kind: 'dialog', toolName: 'Dialog', toolInput: DIALOG, toolUseId: null, createdAt: Date.now() };
  return { runner, phone, sessionId, request };
}

describe('dialog requests', () => {
  it('refuses a dialog request whose input is not the strict dialog shape', async () => {
    const { runner, request } = await withDialog();
    for (const toolInput of [
      { ...DIALOG, options: [DIALOG.options[0]] }, // one option is no choice
      { ...DIALOG, options: [{ key: 'Enter', label: 'Yes' }, DIALOG.options[1]] }, // a key is a number
      { ...DIALOG, extra: 'x' },
      { ...DIALOG, text: Array.from({ length: 61 }, () => 'line') },
    ]) {
      const refused = await ack(runner, 'approval:request', { ...request, id: randomUUID(), toolInput });
      expect(refused).toMatchObject({ ok: false, code: 'bad_request' });
    }
  });

  it('takes only an answer that names one of its options, and hands that key to the runner', async () => {
    const { runner, phone, sessionId, request } = await withDialog();
    const requested = next<{ kind: string }>(phone, 'approval:requested');
    expect((await ack(runner, 'approval:request', request)).ok).toBe(true);
    expect(await requested).toMatchObject({ kind: 'dialog', toolInput: DIALOG });
    for (const answer of [{ decision: 'allow' }, { decision: 'deny' }, { decision: 'allow', choice: '3' }]) {
      const refused = await ack(phone, 'approval:answer', { requestId: request.id, answer });
      expect(refused).toMatchObject({ ok: false, code: 'bad_request' });
    }
    const answered = next<unknown>(runner, 'approval:answered');
    expect((await ack(phone, 'approval:answer', { requestId: request.id, answer: { decision: 'allow', choice: '2' } })).ok).toBe(true);
    expect(await answered).toEqual({ sessionId, requestId: request.id, answer: { decision: 'allow', choice: '2' } });
  });

  it('refuses a choice for a request that is not a dialog', async () => {
    const { runner, phone, sessionId } = await withDialog();
    const permission = { id: randomUUID(), sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: Date.now() };
    expect((await ack(runner, 'approval:request', permission)).ok).toBe(true);
    expect(await ack(phone, 'approval:answer', { requestId: permission.id, answer: { decision: 'allow', choice: '1' } })).toMatchObject({ ok: false, code: 'bad_request' });
  });

  it('the desk first: the phone\'s late answer is a conflict and every tab hears the desk', async () => {
    const { runner, phone, sessionId, request } = await withDialog();
    expect((await ack(runner, 'approval:request', request)).ok).toBe(true);
    const resolved = next<{ answeredBy: string | null }>(phone, 'approval:resolved');
    expect(await ack(runner, 'approval:desk-answer', { sessionId, requestId: request.id, answer: null, device: 'desk@box' })).toMatchObject({ ok: true, won: true });
    expect((await resolved).answeredBy).toBe('desk');
    expect(await ack(phone, 'approval:answer', { requestId: request.id, answer: { decision: 'allow', choice: '1' } })).toMatchObject({ ok: false, code: 'conflict' });
  });
});
