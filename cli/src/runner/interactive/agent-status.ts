// agent-status.ts: what a reading of the agent's own status file (claude's `sessions/<pid>.json`)
// means for the session, beside its hooks. Hooks report most turn boundaries at once; the file
// notices the rest (Esc ends a turn with no Stop hook). A reading can be stale either way, since it
// is polled: both cases below were caught under load in CI rehearsals.
import type { SessionStatus } from '@tether/shared';
import type { StatusFact } from '../session/status.ts';

export type AgentStatusReading = {
  status: 'idle' | 'busy' | 'waiting' | null;
  /** When the agent wrote it (ms since the epoch), null when unknown. */
  writtenAt: number | null;
};

/** The facts a reading publishes, whether the turn ended by it (the prompt queue goes on), and
 *  whether the file has now shown a turn (busy or waiting) since it last said idle. */
export function readAgentStatus(o: { reading: AgentStatusReading; session: SessionStatus; fileSawTurn: boolean; turnEndedAt: number }): {
  facts: StatusFact[];
  turnEnded: boolean;
  fileSawTurn: boolean;
} {
  const { status, writtenAt } = o.reading;
  const fileSawTurn = status === 'busy' || status === 'waiting';
  // An idle the file shows before it ever showed this turn busy is stale: read as the turn starts
  // (the file first found then, or read before claude rewrote it; a floor-claude run under load lost
  // the in-flight prompt on abort because such a read ended the turn early).
  const endsTurn = status === 'idle' && o.fileSawTurn;
  if (status === 'idle' && o.session !== 'starting' && (endsTurn || o.session === 'idle')) {
    // Esc ends a turn without a Stop hook; the file still says idle (and so that the agent is up: a
    // turn typed before its prompt was seen ends idle, not starting).
    return { facts: [{ kind: 'ready' }, { kind: 'turnEnded' }], turnEnded: true, fileSawTurn };
  }
  if (status === 'busy' && o.session === 'idle') {
    // A busy written before the turn ended (a hook ended it first) is that turn's, read late: it
    // starts nothing. A poll landed between the Stop hook and claude's rewrite, and the session read
    // 'thinking' again until the next poll (a git write from the phone was refused as mid-turn).
    const stale = writtenAt !== null && writtenAt <= o.turnEndedAt;
    return { facts: stale ? [] : [{ kind: 'turnStarted' }], turnEnded: false, fileSawTurn };
  }
  if (status === 'waiting') return { facts: [{ kind: 'agentWaiting' }], turnEnded: false, fileSawTurn };
  return { facts: [], turnEnded: false, fileSawTurn };
}
