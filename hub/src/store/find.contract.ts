// find.contract.ts: a search's first pass over a session's chat (queries/messages.ts findMessages),
// as every Store answers it; run by store.contract.ts for SQLite and PostgreSQL alike: the pieces
// in order, LIKE's own characters taken literally, case folded unless asked, newest first within
// the seq range and the limit (case-sensitive narrows no less than folded), and another namespace's session not read at all.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatMessageInputSchema, SessionRegistrationSchema } from '@tether/shared';
import type { Store } from './store.ts';

type Factory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

const S1 = '11111111-1111-4111-8111-111111111111';
const say = (id: string, text: string) => ChatMessageInputSchema.parse({ id, role: 'assistant', content: [{ type: 'text', text }], createdAt: 1 });

export function runFindContract(options: { name: string; create: Factory }): void {
  describe(`Store contract (find in chat): ${options.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await options.create());
      await store.registerSession({ namespace: 'alpha', registration: SessionRegistrationSchema.parse({ id: S1, cwd: '/p', launchKind: 'pty' }), now: 1 });
      await store.appendMessages({
        namespace: 'alpha',
        sessionId: S1,
        messages: [say('m1', 'The Walrus sleeps'), say('m2', '100% of the_walrus'), say('m3', 'walrus "quoted" \\ back'), say('m4', 'nothing here'), say('m5', 'a walrus again')],
      });
    });
    afterEach(async () => {
      await cleanup();
    });
    const find = (pieces: string[], extra: { caseSensitive?: boolean; after?: number; before?: number; limit?: number; namespace?: string } = {}) =>
      store
        .findMessages({ namespace: extra.namespace ?? 'alpha', sessionId: S1, pieces, caseSensitive: extra.caseSensitive ?? false, after: extra.after ?? 0, before: extra.before ?? 1_000, limit: extra.limit ?? 50 })
        .then((found) => found?.map((m) => m.seq) ?? null);

    it('finds the pieces in order, newest first, case folded unless asked', async () => {
      expect(await find(['walrus'])).toEqual([5, 3, 2, 1]);
      expect(await find(['Walrus'], { caseSensitive: true })).toContain(1);
      // Case-sensitive is a first pass too: SQLite's LIKE folds ASCII case whatever is asked, so a
      // store may return more; the hub's line test decides (find/chat.ts).
      expect(await find(['WALRUS'], { caseSensitive: false })).toEqual([5, 3, 2, 1]);
      expect(await find(['the', 'walrus'])).toEqual([2, 1]);
      expect(await find(['walrus', 'the'])).toEqual([]);
    });

    it("takes %, _, \\ and quotes literally (as JSON stores them)", async () => {
      expect(await find(['0%'])).toEqual([2]);
      expect(await find(['e_w'])).toEqual([2]);
      expect(await find(['"quoted"'])).toEqual([3]);
      expect(await find(['\\ back'])).toEqual([3]);
      expect(await find(['_'])).toEqual([2]);
    });

    it('stays in the seq range and the limit; another namespace reads nothing', async () => {
      expect(await find(['walrus'], { after: 1, before: 5 })).toEqual([3, 2]);
      expect(await find(['walrus'], { limit: 2 })).toEqual([5, 3]);
      expect(await find(['walrus'], { namespace: 'beta' })).toBeNull();
    });
  });
}
