import { describe, expect, it } from 'vitest';
import { ackingFailures, type Ack } from './protocol.ts';

describe('ackingFailures', () => {
  it('passes an answer on, and turns a throw (sync or async) into an internal error ack', async () => {
    const answer = ackingFailures('reading the folder', (query: string): Promise<Ack<{ text: string }>> | Ack<{ text: string }> => {
      if (query === 'sync') throw new Error('EACCES: permission denied');
      if (query === 'async') return Promise.reject(new Error('x'.repeat(400)));
      if (query === 'odd') return Promise.reject('not an Error');
      return { ok: true, text: query };
    });
    expect(await answer('hello')).toEqual({ ok: true, text: 'hello' });
    expect(await answer('sync')).toEqual({ ok: false, code: 'internal', error: 'reading the folder failed: EACCES: permission denied' });
    expect(await answer('async')).toEqual({ ok: false, code: 'internal', error: `reading the folder failed: ${'x'.repeat(300)}` });
    expect(await answer('odd')).toEqual({ ok: false, code: 'internal', error: 'reading the folder failed: unknown error' });
  });
});
