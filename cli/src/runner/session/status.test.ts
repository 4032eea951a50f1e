// status.test.ts: the status reducer, fact by fact, and the orderings that left stale statuses
// when every part wrote the status itself.
import { describe, expect, it } from 'vitest';
import type { SessionStatus } from '@tether/shared';
import type { PendingRequest } from '@tether/shared';
import { recordingLink } from '../../testing/recording-link.ts';
import { createRequestRegistry } from '../requests/registry.ts';
import { createStatusTracker, deriveStatus, initialStatusModel, reduceStatus, statusFollowsRequests, type StatusFact } from './status.ts';

const ready: StatusFact = { kind: 'ready' };
const turnStarted: StatusFact = { kind: 'turnStarted' };
const turnEnded: StatusFact = { kind: 'turnEnded' };
const opened = (id: string): StatusFact => ({ kind: 'requestOpened', id });
const closed = (id: string): StatusFact => ({ kind: 'requestClosed', id });

/** The status after each fact, from a fresh session. */
function statuses(facts: StatusFact[]): SessionStatus[] {
  let model = initialStatusModel;
  return facts.map((fact) => deriveStatus((model = reduceStatus(model, fact))));
}

describe('status reducer', () => {
  it('starts as starting, idle once ready, thinking in a turn, idle after it', () => {
    expect(deriveStatus(initialStatusModel)).toBe('starting');
    expect(statuses([ready, turnStarted, turnEnded])).toEqual(['idle', 'thinking', 'idle']);
  });

  it('a turn before the agent is ready is thinking; its end leaves starting until ready', () => {
    expect(statuses([turnStarted, turnEnded, ready])).toEqual(['thinking', 'starting', 'idle']);
  });

  it('waiting while a request is open, back to thinking when it is answered mid-turn', () => {
    expect(statuses([ready, turnStarted, opened('a'), closed('a')])).toEqual(['idle', 'thinking', 'waiting', 'thinking']);
  });

  it('a dialog before the prompt is waiting, and starting again once answered', () => {
    expect(statuses([opened('dialog'), closed('dialog'), ready])).toEqual(['waiting', 'starting', 'idle']);
  });

  it('a request closed after the turn ended gives idle, not thinking', () => {
    expect(statuses([ready, turnStarted, opened('a'), turnEnded, closed('a')])).toEqual(['idle', 'thinking', 'waiting', 'waiting', 'idle']);
  });

  it('two requests open, one answered: still waiting until the other is', () => {
    expect(statuses([ready, turnStarted, opened('a'), opened('b'), closed('a'), closed('b')])).toEqual(['idle', 'thinking', 'waiting', 'waiting', 'waiting', 'thinking']);
  });

  it('an answer arriving after an abort leaves the session idle', () => {
    // The abort ends the turn (interrupt, turn/completed); the phone's answer comes after.
    expect(statuses([ready, turnStarted, opened('a'), turnEnded, closed('a'), closed('a')])).toEqual(['idle', 'thinking', 'waiting', 'waiting', 'idle', 'idle']);
  });

  it("a desk answer while the phone is asked closes the request once; the phone's late answer changes nothing", () => {
    // The desk answers the agent's own dialog: the request closes; the hub's answer to the same id follows.
    expect(statuses([ready, turnStarted, opened('p'), closed('p'), closed('p'), turnEnded])).toEqual(['idle', 'thinking', 'waiting', 'thinking', 'thinking', 'idle']);
  });

  it('closing a request never opened changes nothing', () => {
    expect(statuses([ready, turnStarted, closed('x')])).toEqual(['idle', 'thinking', 'thinking']);
  });

  it("the agent's own wait: over when a tool finishes, at the turn's end, at a new turn, or at any answer", () => {
    const wait: StatusFact = { kind: 'agentWaiting' };
    expect(statuses([ready, turnStarted, wait, { kind: 'agentResumed' }])).toEqual(['idle', 'thinking', 'waiting', 'thinking']);
    expect(statuses([ready, turnStarted, wait, turnEnded])).toEqual(['idle', 'thinking', 'waiting', 'idle']);
    expect(statuses([ready, wait, turnStarted])).toEqual(['idle', 'waiting', 'thinking']);
    expect(statuses([ready, turnStarted, opened('a'), wait, closed('a')])).toEqual(['idle', 'thinking', 'waiting', 'waiting', 'thinking']);
  });

  it("the agent's own wait does not end a request of tether's", () => {
    expect(statuses([ready, turnStarted, opened('a'), { kind: 'agentWaiting' }, { kind: 'agentResumed' }])).toEqual(['idle', 'thinking', 'waiting', 'waiting', 'waiting']);
  });

  it('ended and failed stick, whatever comes after', () => {
    const after: StatusFact[] = [ready, turnStarted, opened('a'), closed('a'), turnEnded, { kind: 'agentWaiting' }, { kind: 'exited', failed: true }];
    expect(statuses([ready, turnStarted, { kind: 'exited', failed: false }, ...after])).toEqual(['idle', 'thinking', ...Array(after.length + 1).fill('ended')]);
    expect(statuses([{ kind: 'exited', failed: true }, ...after])).toEqual(Array(after.length + 1).fill('failed'));
  });

  it('a request open when the session ends: ended, not waiting', () => {
    expect(statuses([ready, opened('a'), { kind: 'exited', failed: false }])).toEqual(['idle', 'waiting', 'ended']);
  });

  it('does not change the model it is given', () => {
    const model = reduceStatus(initialStatusModel, opened('a'));
    reduceStatus(model, closed('a'));
    expect(model.open.has('a')).toBe(true);
    expect(initialStatusModel.open.size).toBe(0);
  });
});

describe('status tracker', () => {
  it('reports only changes, with the status before', () => {
    const seen: string[] = [];
    const tracker = createStatusTracker({ onChange: (next, before) => seen.push(`${before}->${next}`) });
    for (const fact of [ready, turnStarted, turnStarted, opened('a'), opened('b'), closed('a'), closed('b'), turnEnded, turnEnded]) tracker.publish(fact);
    expect(seen).toEqual(['starting->idle', 'idle->thinking', 'thinking->waiting', 'waiting->thinking', 'thinking->idle']);
    expect(tracker.status()).toBe('idle');
    expect(tracker.turnRunning()).toBe(false);
  });

  it("remembers when the last turn ended (a status file's busy written before it is that turn's)", () => {
    let clock = 100;
    const tracker = createStatusTracker({ onChange: () => {}, now: () => clock });
    expect(tracker.turnEndedAt()).toBe(0);
    tracker.publish(ready);
    tracker.publish(turnStarted);
    clock = 250;
    tracker.publish(turnEnded);
    expect(tracker.turnEndedAt()).toBe(250);
    // A second end of no turn moves nothing.
    clock = 400;
    tracker.publish(turnEnded);
    expect(tracker.turnEndedAt()).toBe(250);
  });
});

describe('the status follows the request registry (no owner of a request tells the status)', () => {
  const request = (id: string, kind: PendingRequest['kind']): PendingRequest => ({ id, sessionId: 's1', kind, toolName: 'Bash', toolInput: {}, toolUseId: null, createdAt: 1 });
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  function setup(link = recordingLink()) {
    const seen: string[] = [];
    const tracker = createStatusTracker({ onChange: (next) => seen.push(next) });
    const requests = createRequestRegistry({ sessionId: () => 's1', link: () => link });
    statusFollowsRequests({ requests, status: tracker });
    tracker.publish(ready);
    tracker.publish(turnStarted);
    return { seen, tracker, requests };
  }

  it('waits once the hub took a request, and thinks again when it closes', async () => {
    const t = setup();
    const handle = t.requests.open({ request: request('r1', 'permission'), onAnswer: () => {} });
    await nextTurn();
    expect(t.tracker.status()).toBe('thinking'); // not yet the hub's: nobody could answer it
    expect(await handle.send()).toBe(true);
    await nextTurn();
    expect(t.tracker.status()).toBe('waiting');
    handle.close();
    await nextTurn();
    expect(t.tracker.status()).toBe('thinking');
    expect(t.seen).toEqual(['idle', 'thinking', 'waiting', 'thinking']);
  });

  it('waits while any of several is open, whichever way each ends (answered, withdrawn, answered at the desk)', async () => {
    const t = setup();
    const handles = (['permission', 'elicitation', 'dialog'] as const).map((kind, i) => t.requests.open({ request: request(`r${i}`, kind), onAnswer: () => {} }));
    for (const handle of handles) await handle.send();
    await nextTurn();
    expect(t.tracker.status()).toBe('waiting');
    handles[0]!.close();
    handles[1]!.withdraw('gone');
    await nextTurn();
    expect(t.tracker.status()).toBe('waiting');
    await handles[2]!.answeredAtDesk();
    await nextTurn();
    expect(t.tracker.status()).toBe('thinking');
  });

  it('keeps one wait through a re-ask under a new id, and never waits for one the hub did not take', async () => {
    const t = setup(recordingLink({ gone: new Set(['old']) }));
    const asked = t.requests.open({ request: request('old', 'permission'), onAnswer: () => {} });
    expect(await asked.send()).toBe(true);
    await asked.send(); // sent again (a reconnect): still one request
    await nextTurn();
    expect(t.tracker.status()).toBe('waiting');
    asked.close();
    await nextTurn();
    expect(t.tracker.status()).toBe('thinking');

    const unlinked = createRequestRegistry({ sessionId: () => 's1', link: () => null });
    const tracker = createStatusTracker({ onChange: () => {} });
    statusFollowsRequests({ requests: unlinked, status: tracker });
    tracker.publish(ready);
    const refused = unlinked.open({ request: request('x', 'dialog'), onAnswer: () => {} });
    expect(await refused.send()).toBe(false);
    refused.close();
    await nextTurn();
    expect(t.seen).toEqual(['idle', 'thinking', 'waiting', 'thinking']);
    expect(tracker.status()).toBe('idle');
  });
});
