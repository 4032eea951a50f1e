// outside.contract.ts: the outside index queries (queries/outside.ts) as every Store keeps them; run by
// store.contract.ts for SQLite and PostgreSQL alike.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRegistrationSchema, type OutsideEntry } from '@tether/shared';
import type { Store } from './store.ts';

type Factory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

const M1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const C1 = '11111111-1111-4111-8111-111111111111';
const C2 = '22222222-2222-4222-8222-222222222222';
const C3 = '33333333-3333-4333-8333-333333333333';
const S1 = '44444444-4444-4444-8444-444444444444';

const entry = (id: string, extra: Partial<OutsideEntry> = {}): OutsideEntry => ({
  agent: 'claude',
  agentSessionId: id,
  folder: '/work/app',
  title: `about ${id.slice(0, 4)}`,
  lastActivity: 1000,
  sizeBytes: 10,
  live: false,
  ...extra,
});

export function runOutsideContract(options: { name: string; create: Factory }): void {
  describe(`Store contract (outside index): ${options.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await options.create());
      await store.upsertMachine({ namespace: 'alpha', machine: { id: M1, name: 'box', os: 'linux', user: 'me', home: '/h', outside: true }, now: 1 });
    });
    afterEach(async () => cleanup());

    const list = (q = '', offset = 0, limit = 50, namespace = 'alpha') => store.listOutside({ namespace, machineId: M1, q, offset, limit });

    it('lists newest first, paged, searched by title and folder only (case-insensitive, LIKE signs taken literally)', async () => {
      await store.recordOutside({
        namespace: 'alpha',
        machineId: M1,
        entries: [entry(C1, { lastActivity: 1, title: 'Fix the 100% bug' }), entry(C2, { lastActivity: 3, folder: '/srv/API' }), entry(C3, { lastActivity: 2 })],
        removed: [],
        sweepBefore: null,
        now: 10,
      });
      expect((await list()).sessions.map((s) => s.agentSessionId)).toEqual([C2, C3, C1]);
      expect(await list('', 1, 1)).toMatchObject({ total: 3, sessions: [{ agentSessionId: C3, machineId: M1 }] });
      expect((await list('api')).sessions.map((s) => s.agentSessionId)).toEqual([C2]);
      expect((await list('100%')).sessions.map((s) => s.agentSessionId)).toEqual([C1]);
      expect((await list('1_0')).total).toBe(0);
      expect((await list('', 0, 50, 'beta')).total).toBe(0);
    });

    it("keeps a background session's id, and drops it once the daemon reports the conversation without one", async () => {
      await store.recordOutside({ namespace: 'alpha', machineId: M1, entries: [entry(C1, { live: true, backgroundId: 'f35b2b97' }), entry(C2)], removed: [], sweepBefore: null, now: 10 });
      expect((await store.findOutside({ namespace: 'alpha', agentSessionId: C1 }))[0]).toMatchObject({ live: true, backgroundId: 'f35b2b97' });
      expect((await list()).sessions.find((s) => s.agentSessionId === C2)).not.toHaveProperty('backgroundId');
      // It ended in the agent's pool: a past conversation now.
      await store.recordOutside({ namespace: 'alpha', machineId: M1, entries: [entry(C1)], removed: [], sweepBefore: null, now: 11 });
      expect((await store.findOutside({ namespace: 'alpha', agentSessionId: C1 }))[0]).not.toHaveProperty('backgroundId');
    });

    it('a conversation a session of the namespace names is not listed; removed and swept entries go', async () => {
      await store.recordOutside({ namespace: 'alpha', machineId: M1, entries: [entry(C1), entry(C2), entry(C3)], removed: [], sweepBefore: null, now: 10 });
      await store.registerSession({ namespace: 'alpha', registration: SessionRegistrationSchema.parse({ id: S1, cwd: '/w', launchKind: 'pty', agentSessionId: C1 }), now: 11 });
      expect((await list()).sessions.map((s) => s.agentSessionId).sort()).toEqual([C2, C3]);
      await store.recordOutside({ namespace: 'alpha', machineId: M1, entries: [], removed: [C2], sweepBefore: null, now: 12 });
      // A whole report that began at 20 and heard only C1 sweeps C3.
      await store.recordOutside({ namespace: 'alpha', machineId: M1, entries: [entry(C1)], removed: [], sweepBefore: 20, now: 20 });
      expect((await list()).total).toBe(0);
      expect((await store.findOutside({ namespace: 'alpha', agentSessionId: C3 })).length).toBe(0);
    });

    it('of two claims one wins; a released claim can be taken again; claimed entries are not listed; the switch off drops the index', async () => {
      await store.recordOutside({ namespace: 'alpha', machineId: M1, entries: [entry(C1)], removed: [], sweepBefore: null, now: 10 });
      const claims = await Promise.all([0, 1].map(() => store.claimOutside({ namespace: 'alpha', machineId: M1, agentSessionId: C1, now: 11 })));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await list()).total).toBe(0);
      expect(await store.claimOutside({ namespace: 'beta', machineId: M1, agentSessionId: C1, now: 11 })).toBe(false);
      await store.releaseOutside({ namespace: 'alpha', machineId: M1, agentSessionId: C1 });
      expect(await store.findOutside({ namespace: 'alpha', agentSessionId: C1 })).toMatchObject([{ claimed: false, machineId: M1 }]);
      expect(await store.setMachineOutside({ namespace: 'beta', machineId: M1, enabled: false })).toBeNull();
      expect(await store.setMachineOutside({ namespace: 'alpha', machineId: M1, enabled: false })).toMatchObject({ outside: false });
      expect((await list()).total).toBe(0);
      // A daemon without --outside leaves the switch as the phone set it; one with it turns it on.
      expect((await store.upsertMachine({ namespace: 'alpha', machine: { id: M1, name: 'box', os: 'linux', user: 'me', home: '/h' }, now: 2 })).outside).toBe(false);
      expect((await store.upsertMachine({ namespace: 'alpha', machine: { id: M1, name: 'box', os: 'linux', user: 'me', home: '/h', outside: true }, now: 3 })).outside).toBe(true);
    });
  });
}
