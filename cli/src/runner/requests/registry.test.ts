import { describe, expect, it } from 'vitest';
import type { Answer, PendingRequest } from '@tether/shared';
import { recordingLink } from '../../testing/recording-link.ts';
import { createRequestRegistry } from './registry.ts';

const request = (id: string, kind: PendingRequest['kind'] = 'permission'): PendingRequest => ({ id, sessionId: 's1', kind, toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: 1 });
const allow: Answer = { decision: 'allow' };

describe('request registry (one id → owner map for every request to a person)', () => {
  it('routes a hub answer to the request with that id only, and to nobody once it is closed', async () => {
    const link = recordingLink();
    const registry = createRequestRegistry({ sessionId: () => 's1', link: () => link });
    const heard: string[] = [];
    const a = registry.open({ request: request('a'), onAnswer: (answer) => heard.push(`a:${answer.decision}`) });
    registry.open({ request: request('b', 'elicitation'), onAnswer: (answer) => heard.push(`b:${answer.decision}`) });
    expect(await a.send()).toBe(true);
    expect(registry.answered({ requestId: 'b', answer: { decision: 'deny' } })).toBe(true);
    expect(registry.answered({ requestId: 'nope', answer: allow })).toBe(false);
    a.close();
    expect(registry.answered({ requestId: 'a', answer: allow })).toBe(false);
    expect(heard).toEqual(['b:deny']);
    expect(registry.size()).toBe(1);
  });

  it('asks again under a new id when the hub withdrew the request while the runner was away, and routes that id', async () => {
    const link = recordingLink({ gone: new Set(['old']) });
    const registry = createRequestRegistry({ sessionId: () => 's1', link: () => link });
    const heard: Answer[] = [];
    const handle = registry.open({ request: request('old'), onAnswer: (answer) => heard.push(answer) });
    expect(await handle.send()).toBe(true);
    expect(handle.request.id).not.toBe('old');
    expect(link.sent.map((s) => s.payload.id)).toEqual(['old', handle.request.id]);
    expect(registry.answered({ requestId: 'old', answer: allow })).toBe(false);
    expect(registry.answered({ requestId: handle.request.id, answer: allow })).toBe(true);
    expect(heard).toEqual([allow]);
  });

  it('re-sends every open request that wants it when the link comes back, and says false with no hub', async () => {
    const link = recordingLink();
    const registry = createRequestRegistry({ sessionId: () => 's1', link: () => link });
    registry.open({ request: request('a'), onAnswer: () => {} });
    registry.open({ request: request('d', 'dialog'), onAnswer: () => {}, resend: false });
    registry.reconnected();
    await expect.poll(() => link.sent.map((s) => s.payload.id)).toEqual(['a']);
    const unlinked = createRequestRegistry({ sessionId: () => 's1', link: () => null });
    expect(await unlinked.open({ request: request('x'), onAnswer: () => {} }).send()).toBe(false);
    expect(await createRequestRegistry({ sessionId: () => 's1', link: () => recordingLink({ refuse: true }) }).open({ request: request('y'), onAnswer: () => {} }).send()).toBe(false);
  });

  it('withdraws and reports a desk answer under the current id, closing the request either way', async () => {
    const link = recordingLink();
    const registry = createRequestRegistry({ sessionId: () => 's1', link: () => link });
    registry.open({ request: request('w'), onAnswer: () => {} }).withdraw('the agent stopped waiting');
    const ack = await registry.open({ request: request('k'), onAnswer: () => {} }).answeredAtDesk();
    expect(ack).toMatchObject({ ok: true, won: true });
    expect(link.sent).toEqual([
      { event: 'approval:withdraw', payload: { sessionId: 's1', requestId: 'w', reason: 'the agent stopped waiting' } },
      { event: 'approval:desk-answer', payload: expect.objectContaining({ sessionId: 's1', requestId: 'k', answer: null }) },
    ]);
    expect(registry.size()).toBe(0);
  });
});
