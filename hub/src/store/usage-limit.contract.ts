// usage-limit.contract.ts: a session's usage limit, the person's continue choice and the one
// continue claim per reset (queries/sessions.ts), as every Store keeps them; run by store.contract.ts
// for SQLite and PostgreSQL alike.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRegistrationSchema, type AgentCapabilities } from '@tether/shared';
import type { Store } from './store.ts';

type Factory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

const NS_A = 'alpha';
const NS_B = 'beta';
const S1 = '11111111-1111-4111-8111-111111111111';
/** An agent that waits out its limit in a PTY (claude's terminal from 2.1.332). */
const WAITS: AgentCapabilities = {
  displayName: 'Claude',
  description: '',
  models: { offered: [], typed: true, example: null, switchableIn: [] },
  effort: { levels: [], maps: {}, switchableIn: [] },
  modes: { values: [], switchableIn: [] },
  resumeCommand: 'tether claude --resume {id}',
  waitsOutLimitIn: ['pty'],
  relays: { requests: ['permission'], editedInput: false, sessionRules: false },
};

export function runUsageLimitContract(options: { name: string; create: Factory }): void {
  describe(`Store contract (usage limits): ${options.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await options.create());
    });
    afterEach(async () => {
      await cleanup();
    });

    it('keeps a session\'s usage limit and the person\'s continue choice; one continue claim per reset, of this namespace only', async () => {
      await store.registerSession({ namespace: NS_A, registration: SessionRegistrationSchema.parse({ id: S1, cwd: '/p', launchKind: 'pty', capabilities: WAITS }), now: 10 });
      expect(await store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ limit: null, limitContinue: null });
      expect(await store.claimLimitContinue({ namespace: NS_A, sessionId: S1, resetsAt: 5_000 })).toBe(false);
      await store.updateSession({ namespace: NS_A, sessionId: S1, patch: { limit: { resetsAt: 5_000 } }, now: 11 });
      expect(await store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ limit: { resetsAt: 5_000, agentResumes: true, continued: false } });
      expect(await store.setLimitContinue({ namespace: NS_B, sessionId: S1, choice: { on: true, prompt: 'go on' }, now: 12 })).toBeNull();
      expect(await store.setLimitContinue({ namespace: NS_A, sessionId: S1, choice: { on: true, prompt: 'go on' }, now: 12 })).toMatchObject({ limitContinue: { on: true, prompt: 'go on' } });
      expect(await store.claimLimitContinue({ namespace: NS_B, sessionId: S1, resetsAt: 5_000 })).toBe(false);
      expect(await store.claimLimitContinue({ namespace: NS_A, sessionId: S1, resetsAt: 4_000 })).toBe(false);
      const claims = await Promise.all([1, 2, 3].map(() => store.claimLimitContinue({ namespace: NS_A, sessionId: S1, resetsAt: 5_000 })));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ limit: { continued: true } });
      // The continue met the limit again: a new reset, not continued yet, claimable once more.
      await store.updateSession({ namespace: NS_A, sessionId: S1, patch: { limit: { resetsAt: 9_000 } }, now: 13 });
      expect(await store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ limit: { resetsAt: 9_000, continued: false } });
      expect(await store.claimLimitContinue({ namespace: NS_A, sessionId: S1, resetsAt: 9_000 })).toBe(true);
      await store.updateSession({ namespace: NS_A, sessionId: S1, patch: { limit: null }, now: 14 });
      expect(await store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ limit: null, limitContinue: { on: true, prompt: 'go on' } });
    });
  });
}
