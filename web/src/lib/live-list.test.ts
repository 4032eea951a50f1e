import { describe, expect, it } from 'vitest';
import { createLiveList } from './live-list.ts';

type Row = { id: string; v: number };
const list = () => createLiveList<Row>({ id: (r) => r.id, at: (r) => r.v });

describe('a live list merged with a read that was under way', () => {
  it('keeps a record only a fact heard after the read started brought, first', () => {
    const live = list();
    const since = live.mark();
    live.heard({ id: 'new', v: 1 });
    const merged = live.merge({ fetched: [{ id: 'a', v: 1 }], cached: [{ id: 'new', v: 1 }, { id: 'a', v: 1 }], since });
    expect(merged.map((r) => r.id)).toEqual(['new', 'a']);
  });

  it('drops a cached record the read lacks when no fact brought it during the read', () => {
    const live = list();
    live.heard({ id: 'old', v: 1 });
    const since = live.mark();
    expect(live.merge({ fetched: [], cached: [{ id: 'old', v: 1 }], since })).toEqual([]);
  });

  it('takes the newer of two copies, whichever side it is on', () => {
    const live = list();
    const since = live.mark();
    const merged = live.merge({ fetched: [{ id: 'a', v: 2 }, { id: 'b', v: 1 }], cached: [{ id: 'a', v: 1 }, { id: 'b', v: 3 }], since });
    expect(merged).toEqual([{ id: 'a', v: 2 }, { id: 'b', v: 3 }]);
  });

  it('is the read alone before anything was cached', () => {
    const live = list();
    expect(live.merge({ fetched: [{ id: 'a', v: 1 }], cached: undefined, since: live.mark() })).toEqual([{ id: 'a', v: 1 }]);
  });

  it('without versions, takes the copy a fact brought during the read, and the read’s otherwise', () => {
    const live = createLiveList<Row>({ id: (r) => r.id });
    live.heard({ id: 'before', v: 9 });
    const since = live.mark();
    live.heard({ id: 'during', v: 2 });
    const merged = live.merge({
      fetched: [{ id: 'before', v: 1 }, { id: 'during', v: 1 }],
      cached: [{ id: 'before', v: 9 }, { id: 'during', v: 2 }],
      since,
    });
    expect(merged).toEqual([{ id: 'before', v: 1 }, { id: 'during', v: 2 }]);
  });
});
