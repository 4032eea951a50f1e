import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@tether/shared';
import { mergePending } from './queries.ts';

const request = (id: string): PendingRequest => ({
  id,
  sessionId: '11111111-1111-4111-8111-111111111111',
  kind: 'permission',
  toolName: 'Bash',
  toolInput: { command: 'ls' },
  toolUseId: null,
  createdAt: 1,
});

describe('pending requests fetched while socket facts arrive', () => {
  it('keeps a request raised during the fetch, drops one heard resolved, keeps the fetched ones', () => {
    const merged = mergePending({
      fetched: [request('a'), request('b')],
      cached: [request('b'), request('c'), request('d')],
      resolvedIds: new Set(['a', 'd']),
    });
    expect(merged.map((p) => p.id)).toEqual(['b', 'c']);
  });

  it('is the fetched list when nothing arrived meanwhile', () => {
    expect(mergePending({ fetched: [request('a')], cached: [], resolvedIds: new Set() }).map((p) => p.id)).toEqual(['a']);
  });
});
