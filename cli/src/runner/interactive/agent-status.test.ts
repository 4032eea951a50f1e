// agent-status.test.ts: readings of the agent's status file beside its hooks: the turn a late busy
// belongs to, an idle before the turn showed busy, Esc's end with no Stop hook.
import { describe, expect, it } from 'vitest';
import { readAgentStatus } from './agent-status.ts';

const read = (o: { status: 'idle' | 'busy' | 'waiting' | null; writtenAt?: number | null; session: 'starting' | 'idle' | 'thinking' | 'waiting'; fileSawTurn?: boolean; turnEndedAt?: number }) =>
  readAgentStatus({ reading: { status: o.status, writtenAt: o.writtenAt ?? null }, session: o.session, fileSawTurn: o.fileSawTurn ?? false, turnEndedAt: o.turnEndedAt ?? 0 });

describe("the agent's status file", () => {
  it('a busy written before the last turn ended is that turn, read late: it starts nothing', () => {
    // The Stop hook ended the turn at 2000; the poll then read the busy claude wrote at 1500.
    expect(read({ status: 'busy', writtenAt: 1500, session: 'idle', turnEndedAt: 2000 })).toEqual({ facts: [], turnEnded: false, fileSawTurn: true });
    // Written after it: a turn the hooks did not report (it starts one).
    expect(read({ status: 'busy', writtenAt: 2500, session: 'idle', turnEndedAt: 2000 }).facts).toEqual([{ kind: 'turnStarted' }]);
    // Unknown time: as before, a busy while idle starts a turn.
    expect(read({ status: 'busy', writtenAt: null, session: 'idle', turnEndedAt: 2000 }).facts).toEqual([{ kind: 'turnStarted' }]);
  });

  it('the idle after that late busy ends nothing new, and the queue goes on', () => {
    const late = read({ status: 'busy', writtenAt: 1500, session: 'idle', turnEndedAt: 2000 });
    expect(read({ status: 'idle', session: 'idle', fileSawTurn: late.fileSawTurn })).toEqual({ facts: [{ kind: 'ready' }, { kind: 'turnEnded' }], turnEnded: true, fileSawTurn: false });
  });

  it('Esc: the file says idle after busy with no Stop hook, and the turn ends', () => {
    expect(read({ status: 'idle', session: 'thinking', fileSawTurn: true }).facts).toEqual([{ kind: 'ready' }, { kind: 'turnEnded' }]);
  });

  it('an idle before the file showed this turn busy is stale: the turn goes on', () => {
    expect(read({ status: 'idle', session: 'thinking', fileSawTurn: false })).toEqual({ facts: [], turnEnded: false, fileSawTurn: false });
  });

  it('waiting is the agent asking for a person; nothing while starting', () => {
    expect(read({ status: 'waiting', session: 'thinking' }).facts).toEqual([{ kind: 'agentWaiting' }]);
    expect(read({ status: 'idle', session: 'starting', fileSawTurn: true }).facts).toEqual([]);
  });
});
