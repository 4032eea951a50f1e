// project-rules.contract.ts: the rules tether proposes (queries/project-rules.ts) as every Store keeps
// them; run by store.contract.ts for SQLite and PostgreSQL alike.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './store.ts';

type Factory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

const M1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const S1 = '44444444-4444-4444-8444-444444444444';

export function runProjectRulesContract(options: { name: string; create: Factory }): void {
  describe(`Store contract (project rules): ${options.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await options.create());
    });
    afterEach(async () => cleanup());

    const allow = (command: string, at: number, namespace = 'alpha') =>
      store.countRuleAllow({ namespace, machineId: M1, folder: '/work/app', toolName: 'Bash', command, call: { command, sessionId: S1, at }, proposeAt: 3, now: at });

    it('counts allows per call and proposes at the third; counting rows are never listed; other namespaces see nothing', async () => {
      expect((await allow('npm test', 1)).proposedNow).toBe(false);
      await allow('npm run build', 2);
      expect((await allow('npm test', 3)).proposedNow).toBe(false);
      expect(await store.listRules({ namespace: 'alpha' })).toEqual([]);
      const third = await allow('npm test', 4);
      expect(third).toMatchObject({ proposedNow: true, rule: { status: 'proposed', allows: 3, ruleContent: 'npm test', proposedAt: 4, acceptedAt: null } });
      expect(third.rule.calls.map((c) => c.at)).toEqual([1, 3, 4]);
      expect((await allow('npm test', 5)).proposedNow).toBe(false);
      expect((await store.listRules({ namespace: 'alpha', machineId: M1, folder: '/work/app' })).map((r) => [r.command, r.allows])).toEqual([['npm test', 4]]);
      expect(await store.listRules({ namespace: 'beta' })).toEqual([]);
      expect(await store.getRule({ namespace: 'beta', ruleId: third.rule.id })).toBeNull();
      expect(await store.acceptRule({ namespace: 'beta', ruleId: third.rule.id, ruleContent: 'npm test', by: 'x', device: null, tokenId: null, now: 6 })).toBeNull();
    });

    it('allows counted at once (two hubs) are all counted, and proposed once', async () => {
      const counted = await Promise.all([1, 2, 3, 4].map((at) => allow('npm test', at)));
      expect(counted.filter((c) => c.proposedNow)).toHaveLength(1);
      expect((await store.listRules({ namespace: 'alpha' }))[0]).toMatchObject({ allows: 4, status: 'proposed' });
    });

    it('accept once, only a proposed rule; written; revoked waits for its removal; a revoked rule is not counted again', async () => {
      for (const at of [1, 2, 3]) await allow('npm test', at);
      const [rule] = await store.listRules({ namespace: 'alpha' });
      const accepted = await store.acceptRule({ namespace: 'alpha', ruleId: rule!.id, ruleContent: 'npm:*', by: 'me', device: 'phone', tokenId: 't1', now: 10 });
      expect(accepted).toMatchObject({ status: 'accepted', ruleContent: 'npm:*', acceptedBy: 'me', acceptedDevice: 'phone', acceptedAt: 10 });
      expect(await store.acceptRule({ namespace: 'alpha', ruleId: rule!.id, ruleContent: 'npm test', by: 'me', device: null, tokenId: null, now: 11 })).toBeNull();
      expect(await store.reportRule({ namespace: 'alpha', ruleId: rule!.id, outcome: 'failed', error: 'a link', now: 12 })).toMatchObject({ status: 'accepted', error: 'a link' });
      expect(await store.reportRule({ namespace: 'alpha', ruleId: rule!.id, outcome: 'written', error: null, now: 13 })).toMatchObject({ status: 'written', writtenAt: 13, error: null });
      expect(await store.revokeRule({ namespace: 'alpha', ruleId: rule!.id, now: 14 })).toMatchObject({ status: 'revoked', revokedAt: 14, removedAt: null });
      expect(await store.revokeRule({ namespace: 'alpha', ruleId: rule!.id, now: 15 })).toBeNull();
      expect(await store.reportRule({ namespace: 'alpha', ruleId: rule!.id, outcome: 'removed', error: null, now: 16 })).toMatchObject({ removedAt: 16 });
      // Recorded once: a runner and the daemon may both report it.
      expect(await store.reportRule({ namespace: 'alpha', ruleId: rule!.id, outcome: 'removed', error: null, now: 17 })).toBeNull();
      expect(await allow('npm test', 18)).toMatchObject({ proposedNow: false, rule: { status: 'revoked', allows: 3 } });
    });

    it('a proposal said no to, or never written, is removed at once; a revoked token takes its accepted and written rules', async () => {
      for (const at of [1, 2, 3]) {
        await allow('a', at);
        await allow('b', at);
        await allow('c', at);
      }
      const byCommand = Object.fromEntries((await store.listRules({ namespace: 'alpha' })).map((r) => [r.command, r]));
      expect(await store.revokeRule({ namespace: 'alpha', ruleId: byCommand.a!.id, now: 5 })).toMatchObject({ status: 'revoked', removedAt: 5 });
      await store.acceptRule({ namespace: 'alpha', ruleId: byCommand.b!.id, ruleContent: 'b', by: 'me', device: null, tokenId: 'gone', now: 6 });
      await store.acceptRule({ namespace: 'alpha', ruleId: byCommand.c!.id, ruleContent: 'c', by: 'me', device: null, tokenId: 'kept', now: 6 });
      await store.reportRule({ namespace: 'alpha', ruleId: byCommand.b!.id, outcome: 'written', error: null, now: 7 });
      const revoked = await store.revokeRulesOfTokens({ namespace: 'alpha', tokenIds: ['gone'], now: 8 });
      expect(revoked.map((r) => [r.command, r.status, r.removedAt])).toEqual([['b', 'revoked', null]]);
      expect(await store.revokeRulesOfTokens({ namespace: 'beta', tokenIds: ['kept'], now: 8 })).toEqual([]);
      expect((await store.getRule({ namespace: 'alpha', ruleId: byCommand.c!.id }))?.status).toBe('accepted');
    });
  });
}
