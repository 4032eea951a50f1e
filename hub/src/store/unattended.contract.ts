// unattended.contract.ts: the unattended guard (queries/unattended.ts), a continue the guard held
// (queries/sessions.ts) and the prompts a revoked device sent (queries/prompts.ts), as every Store
// keeps them; run by store.contract.ts for SQLite and PostgreSQL alike.
import { describe, expect, it } from 'vitest';
import { SessionRegistrationSchema, type Prompt } from '@tether/shared';
import type { Store } from './store.ts';
import { useContractStore } from '../testing/contract-store.ts';

type Factory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

const NS_A = 'alpha';
const NS_B = 'beta';
const S1 = '11111111-1111-4111-8111-111111111111';
const P1 = '21111111-1111-4111-8111-111111111111';
const P2 = '31111111-1111-4111-8111-111111111111';
const DAY = '2026-12-06';
const NEXT_DAY = '2026-12-07';
/** The hub's defaults: a cap of 3, no continue at a reset for a namespace that chose none. */
const D = { defaultCap: 3, defaultContinue: false };

const prompt = (id: string): Prompt => ({ id, sessionId: S1, text: 'later', attachments: [], status: 'queued', reason: null, createdAt: 5, updatedAt: 5, handedAt: null });

export function runUnattendedContract(options: { name: string; create: Factory }): void {
  describe(`Store contract (unattended guard): ${options.name}`, () => {
    const opened = useContractStore(options.create);

    it('counts runs up to the day\'s cap, once per claim with racing hubs; a new day starts at one; pause stops all; per namespace', async () => {
      const store = opened();
      expect(await store.getUnattendedGuard({ namespace: NS_A, ...D })).toMatchObject({ paused: false, dailyCap: 3, runsToday: 0 });
      const claims = await Promise.all([1, 2, 3, 4, 5].map(() => store.claimUnattendedRun({ namespace: NS_A, day: DAY, ...D, now: 10 })));
      expect(claims.filter((c) => c.kind === 'counted')).toHaveLength(3);
      expect(claims.filter((c) => c.kind === 'cap')).toHaveLength(2);
      expect(await store.getUnattendedGuard({ namespace: NS_A, ...D })).toEqual({ paused: false, dailyCap: 3, day: DAY, runsToday: 3, limitContinue: { on: false, prompt: 'continue' } });
      // Another namespace counts apart.
      expect((await store.claimUnattendedRun({ namespace: NS_B, day: DAY, ...D, now: 10 })).kind).toBe('counted');
      expect(await store.claimUnattendedRun({ namespace: NS_A, day: NEXT_DAY, ...D, now: 20 })).toMatchObject({ kind: 'counted', guard: { day: NEXT_DAY, runsToday: 1 } });
      expect(await store.setUnattendedGuard({ namespace: NS_A, paused: true, ...D, now: 21 })).toMatchObject({ paused: true, dailyCap: 3 });
      expect((await store.claimUnattendedRun({ namespace: NS_A, day: NEXT_DAY, ...D, now: 22 })).kind).toBe('paused');
      expect(await store.setUnattendedGuard({ namespace: NS_A, paused: false, dailyCap: 1, ...D, now: 23 })).toMatchObject({ paused: false, dailyCap: 1, runsToday: 1 });
      expect((await store.claimUnattendedRun({ namespace: NS_A, day: NEXT_DAY, ...D, now: 24 })).kind).toBe('cap');
      expect(await store.setUnattendedGuard({ namespace: NS_A, dailyCap: 0, ...D, now: 25 })).toMatchObject({ dailyCap: 0 });
      expect((await store.claimUnattendedRun({ namespace: NS_A, day: '2026-12-08', ...D, now: 26 })).kind).toBe('cap');
      expect(await store.getUnattendedGuard({ namespace: NS_B, ...D })).toMatchObject({ paused: false, runsToday: 1 });
    });

    it("keeps the namespace's continue default once chosen; the hub's stands until then, also on a row a claim made; per namespace", async () => {
      const store = opened();
      const ON = { defaultCap: 3, defaultContinue: true };
      expect((await store.getUnattendedGuard({ namespace: NS_A, ...ON })).limitContinue).toEqual({ on: true, prompt: 'continue' });
      // A claim makes the row; the continue default is still open there.
      expect((await store.claimUnattendedRun({ namespace: NS_A, day: DAY, ...D, now: 10 })).guard.limitContinue).toEqual({ on: false, prompt: 'continue' });
      expect((await store.getUnattendedGuard({ namespace: NS_A, ...ON })).limitContinue).toEqual({ on: true, prompt: 'continue' });
      const chosen = await store.setUnattendedGuard({ namespace: NS_A, limitContinue: { on: false, prompt: 'go on from the last step' }, ...ON, now: 11 });
      expect(chosen).toMatchObject({ paused: false, dailyCap: 3, runsToday: 1, limitContinue: { on: false, prompt: 'go on from the last step' } });
      // Chosen off stays off whatever the hub says; changing the pause or cap leaves it alone.
      expect(await store.setUnattendedGuard({ namespace: NS_A, paused: true, ...ON, now: 12 })).toMatchObject({ paused: true, limitContinue: { on: false, prompt: 'go on from the last step' } });
      expect((await store.claimUnattendedRun({ namespace: NS_A, day: DAY, ...ON, now: 13 })).guard.limitContinue).toEqual({ on: false, prompt: 'go on from the last step' });
      expect((await store.setUnattendedGuard({ namespace: NS_A, limitContinue: { on: true, prompt: 'continue' }, ...D, now: 14 })).limitContinue).toEqual({ on: true, prompt: 'continue' });
      expect((await store.getUnattendedGuard({ namespace: NS_A, ...D })).limitContinue).toEqual({ on: true, prompt: 'continue' });
      expect((await store.getUnattendedGuard({ namespace: NS_B, ...D })).limitContinue).toEqual({ on: false, prompt: 'continue' });
    });

    it('records a held continue on the claimed reset only; a new claim clears it; sessionsAtLimit lists every namespace\'s', async () => {
      const store = opened();
      await store.registerSession({ namespace: NS_A, registration: SessionRegistrationSchema.parse({ id: S1, cwd: '/p', launchKind: 'headless' }), now: 10 });
      expect(await store.sessionsAtLimit()).toEqual([]);
      await store.updateSession({ namespace: NS_A, sessionId: S1, patch: { limit: { resetsAt: 5_000 } }, now: 11 });
      expect(await store.holdLimitContinue({ namespace: NS_A, sessionId: S1, resetsAt: 5_000, held: 'cap', now: 12 })).toBeNull();
      expect(await store.claimLimitContinue({ namespace: NS_A, sessionId: S1, resetsAt: 5_000 })).toBe(true);
      expect(await store.holdLimitContinue({ namespace: NS_B, sessionId: S1, resetsAt: 5_000, held: 'cap', now: 12 })).toBeNull();
      expect(await store.holdLimitContinue({ namespace: NS_A, sessionId: S1, resetsAt: 5_000, held: 'paused', now: 12 })).toMatchObject({ limit: { continued: true, held: 'paused' } });
      expect(await store.sessionsAtLimit()).toEqual([{ namespace: NS_A, session: expect.objectContaining({ id: S1, limit: expect.objectContaining({ held: 'paused' }) }) }]);
      await store.updateSession({ namespace: NS_A, sessionId: S1, patch: { limit: { resetsAt: 9_000 } }, now: 13 });
      expect(await store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ limit: { resetsAt: 9_000, continued: false, held: null } });
      expect(await store.claimLimitContinue({ namespace: NS_A, sessionId: S1, resetsAt: 9_000 })).toBe(true);
      expect(await store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ limit: { continued: true, held: null } });
    });

    it('drops the held prompts a revoked token sent, never hands one over, and leaves the rest', async () => {
      const store = opened();
      await store.insertToken({ token: { id: 'phone', namespace: NS_A, hash: 'hp', label: 'phone', createdAt: 1, lastUsedAt: null, revokedAt: null, kind: 'device', parentId: null } });
      await store.registerSession({ namespace: NS_A, registration: SessionRegistrationSchema.parse({ id: S1, cwd: '/p', launchKind: 'headless' }), now: 10 });
      await store.addPrompt({ namespace: NS_A, prompt: prompt(P1), creatorTokenId: 'phone' });
      await store.addPrompt({ namespace: NS_A, prompt: { ...prompt(P2), createdAt: 6 }, creatorTokenId: null });
      expect(await store.dropPromptsOfTokens({ namespace: NS_B, tokenIds: ['phone'], reason: 'gone', now: 20 })).toEqual([]);
      // Revoked through another hub: the drop has not run here yet, and the hand-over already skips it.
      await store.revokeToken({ id: 'phone', at: 15 });
      expect((await store.handOverPrompts({ namespace: NS_A, sessionId: S1, now: 16 })).map((p) => p.id)).toEqual([P2]);
      const dropped = await store.dropPromptsOfTokens({ namespace: NS_A, tokenIds: ['phone'], reason: 'its device was signed out', now: 20 });
      expect(dropped).toEqual([expect.objectContaining({ id: P1, status: 'dropped', reason: 'its device was signed out' })]);
      expect(await store.dropPromptsOfTokens({ namespace: NS_A, tokenIds: ['phone'], reason: 'again', now: 21 })).toEqual([]);
    });
  });
}
