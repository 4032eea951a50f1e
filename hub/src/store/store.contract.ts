// store.contract.ts: the one suite every Store implementation passes. A new store (PostgreSQL) adds
// a test file that calls runStoreContract with its factory and needs no new tests.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatMessageInputSchema, DESK_ANSWERER, SessionRegistrationSchema, type AgentCapabilities, type PendingRequest } from '@tether/shared';
import type { Store } from './store.ts';
import { runReviewContract } from './reviews.contract.ts';
import { runScheduleContract } from './schedules.contract.ts';
import { runOutsideContract } from './outside.contract.ts';
import { runProjectRulesContract } from './project-rules.contract.ts';
import { runUsageLimitContract } from './usage-limit.contract.ts';
import { runUnattendedContract } from './unattended.contract.ts';
import { runFindContract } from './find.contract.ts';

export type StoreFactory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

const NS_A = 'alpha';
const NS_B = 'beta';
const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const R1 = '33333333-3333-4333-8333-333333333333';
const R2 = '66666666-6666-4666-8666-666666666666';
const P1 = '44444444-4444-4444-8444-444444444444';
const M1 = '55555555-5555-4555-8555-555555555555';
const A1 = '77777777-7777-4777-8777-777777777777';
const A2 = '88888888-8888-4888-8888-888888888888';
const A3 = '99999999-9999-4999-8999-999999999999';

function registration(id: string, extra: Record<string, unknown> = {}) {
  return SessionRegistrationSchema.parse({ id, cwd: '/tmp/project', launchKind: 'pty', ...extra });
}
/** A runner's stated capabilities (any agent's shape will do: the store keeps the record whole). */
export const CAPABILITIES: AgentCapabilities = {
  displayName: 'Agent',
  description: 'a test agent',
  models: { offered: ['small'], typed: false, example: null, switchableIn: ['headless'] },
  effort: { levels: ['low', 'high'], maps: { max: 'high' }, switchableIn: ['headless'] },
  modes: { values: [], switchableIn: [] },
  resumeCommand: 'agent resume {id}',
  relays: { requests: ['permission'], editedInput: false, sessionRules: false },
};
function message(id: string, text = id) {
  return ChatMessageInputSchema.parse({ id, role: 'user', content: [{ type: 'text', text }], createdAt: 1 });
}
function request(id: string, sessionId: string): PendingRequest {
  return { id, sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: 'tu1', createdAt: 1000 };
}
export function runStoreContract(options: { name: string; create: StoreFactory }): void {
  runReviewContract(options);
  runOutsideContract(options);
  runScheduleContract(options);
  runProjectRulesContract(options);
  runUsageLimitContract(options);
  runUnattendedContract(options);
  runFindContract(options);
  for (const [part, cases] of [
    ['tokens, pairing codes, devices', authContract],
    ['sessions', sessionContract],
    ['machines', machineContract],
    ['messages', messageContract],
    ['prompts and attachments', promptContract],
    ['slash commands', commandContract],
    ['requests and final screens', requestContract],
  ] as const) {
    describe(`Store contract (${part}): ${options.name}`, () => {
      // Each test's own store: the cases read it from here once beforeEach made it.
      const current = {} as { store: Store };
      let cleanup: () => Promise<void>;
      beforeEach(async () => {
        const made = await options.create();
        current.store = made.store;
        cleanup = made.cleanup;
      });
      afterEach(async () => {
        await cleanup();
      });
      cases(current);
    });
  }
}

/** The contract's cases on tokens, pairing codes, devices. */
function authContract(current: { store: Store }): void {
  it('stores tokens hashed, finds them by hash, revokes once', async () => {
    await current.store.insertToken({
      token: { id: 't1', namespace: NS_A, hash: 'h1', label: 'laptop', createdAt: 1, lastUsedAt: null, revokedAt: null, kind: 'access', parentId: null },
    });
    expect((await current.store.findTokenByHash({ hash: 'h1' }))?.namespace).toBe(NS_A);
    expect(await current.store.findTokenByHash({ hash: 'nope' })).toBeNull();
    expect(await current.store.listTokens()).toHaveLength(1);
    expect((await current.store.listTokens())[0]).not.toHaveProperty('hash');
    expect(await current.store.listTokens({ namespace: NS_B })).toHaveLength(0);
    await current.store.touchToken({ id: 't1', at: 5 });
    expect((await current.store.getToken({ id: 't1' }))?.lastUsedAt).toBe(5);
    expect(await current.store.revokeToken({ id: 't1', at: 7 })).toEqual(['t1']);
    expect(await current.store.revokeToken({ id: 't1', at: 8 })).toEqual([]);
    expect((await current.store.getToken({ id: 't1' }))?.revokedAt).toBe(7);
    expect(await current.store.revokeToken({ id: 'missing', at: 8 })).toEqual([]);
  });

  it('redeems a pairing code once: mints its token in the code\'s namespace; a used, expired or unknown code mints nothing', async () => {
    const code = (hash: string, expiresAt: number) => ({ hash, namespace: NS_B, createdBy: 'tether hub', createdAt: 1, expiresAt, usedAt: null, tokenId: null, creatorTokenId: null });
    const token = (id: string) => ({ id, hash: `th-${id}`, label: 'paired device', createdAt: 5, lastUsedAt: null, revokedAt: null, kind: 'device' as const });
    await current.store.insertPairCode({ code: code('c1', 100) });
    await current.store.insertPairCode({ code: code('c2', 100) });
    expect(await current.store.countLivePairCodes({ namespace: NS_B, at: 5 })).toBe(2);
    expect(await current.store.countLivePairCodes({ namespace: NS_A, at: 5 })).toBe(0);
    expect(await current.store.redeemPairCode({ hash: 'c1', at: 5, token: token('t1'), refreshHash: null })).toEqual({ kind: 'redeemed', token: { ...token('t1'), namespace: NS_B, parentId: null } });
    expect((await current.store.findTokenByHash({ hash: 'th-t1' }))?.namespace).toBe(NS_B);
    expect(await current.store.redeemPairCode({ hash: 'c1', at: 6, token: token('t2'), refreshHash: null })).toEqual({ kind: 'spent' });
    // Expired: at its expiry it is no longer live.
    expect(await current.store.redeemPairCode({ hash: 'c2', at: 100, token: token('t3'), refreshHash: null })).toEqual({ kind: 'spent' });
    expect(await current.store.redeemPairCode({ hash: 'nope', at: 6, token: token('t4'), refreshHash: null })).toEqual({ kind: 'unknown' });
    expect((await current.store.listTokens()).map((t) => t.id)).toEqual(['t1']);
    // c2 was never redeemed: live before its expiry, not at it.
    expect(await current.store.countLivePairCodes({ namespace: NS_B, at: 6 })).toBe(1);
    expect(await current.store.countLivePairCodes({ namespace: NS_B, at: 100 })).toBe(0);
    // Purged once expired before the cut-off, used or not; a later one stays.
    await current.store.insertPairCode({ code: code('c3', 500) });
    expect(await current.store.purgePairCodes({ before: 101 })).toBe(2);
    expect(await current.store.redeemPairCode({ hash: 'c1', at: 7, token: token('t5'), refreshHash: null })).toEqual({ kind: 'unknown' });
    expect(await current.store.redeemPairCode({ hash: 'c3', at: 200, token: token('t6'), refreshHash: null })).toMatchObject({ kind: 'redeemed' });
  });

  it('lets exactly one of several concurrent redeems of a pairing code win, minting one token', async () => {
    await current.store.insertPairCode({ code: { hash: 'c', namespace: NS_A, createdBy: 'x', createdAt: 1, expiresAt: 1000, usedAt: null, tokenId: null, creatorTokenId: null } });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        current.store.redeemPairCode({ hash: 'c', at: 10, token: { id: `t${i}`, hash: `h${i}`, label: '', createdAt: 10, lastUsedAt: null, revokedAt: null, kind: 'device' }, refreshHash: null }),
      ),
    );
    expect(results.filter((r) => r.kind === 'redeemed')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'spent')).toHaveLength(5);
    expect(await current.store.listTokens({ namespace: NS_A })).toHaveLength(1);
  });

  it('a code dies with its maker; the devices a token paired, and theirs, are revoked with it, never another branch', async () => {
    const device = (id: string) => ({ id, hash: `th-${id}`, label: 'paired device', createdAt: 5, lastUsedAt: null, revokedAt: null, kind: 'device' as const });
    const code = (hash: string, creatorTokenId: string | null) => ({ hash, namespace: NS_A, createdBy: 'x', createdAt: 1, expiresAt: 1000, usedAt: null, tokenId: null, creatorTokenId });
    await current.store.insertToken({ token: { id: 'owner', namespace: NS_A, hash: 'ho', label: 'laptop', createdAt: 1, lastUsedAt: null, revokedAt: null, kind: 'access', parentId: null } });
    // owner ─► phone ─► tablet ─► watch ; the hub's own machine ─► other (not owner's branch)
    await current.store.insertPairCode({ code: code('c-phone', 'owner') });
    expect(await current.store.redeemPairCode({ hash: 'c-phone', at: 10, token: device('phone'), refreshHash: 'r1' })).toMatchObject({ kind: 'redeemed', token: { parentId: 'owner', kind: 'device' } });
    await current.store.insertPairCode({ code: code('c-tablet', 'phone') });
    await current.store.redeemPairCode({ hash: 'c-tablet', at: 11, token: device('tablet'), refreshHash: null });
    await current.store.insertPairCode({ code: code('c-watch', 'tablet') });
    await current.store.redeemPairCode({ hash: 'c-watch', at: 12, token: device('watch'), refreshHash: null });
    await current.store.insertPairCode({ code: code('c-other', null) });
    await current.store.redeemPairCode({ hash: 'c-other', at: 13, token: device('other'), refreshHash: null });
    await current.store.insertPairCode({ code: code('c-unused', 'tablet') });
    expect((await current.store.getDeviceRefresh({ id: 'phone' }))?.hash).toBe('r1');

    const revoked = await current.store.revokeToken({ id: 'phone', at: 20 });
    expect(revoked[0]).toBe('phone');
    expect([...revoked].sort()).toEqual(['phone', 'tablet', 'watch']);
    const live = (await current.store.listTokens({ namespace: NS_A })).filter((t) => t.revokedAt === null).map((t) => t.id);
    expect(live.sort()).toEqual(['other', 'owner']);
    // The unused code the tablet made redeems nothing now.
    expect(await current.store.redeemPairCode({ hash: 'c-unused', at: 21, token: device('late'), refreshHash: null })).toEqual({ kind: 'spent' });
    expect(await current.store.getToken({ id: 'late' })).toBeNull();
  });

  it('rotates a live device\'s refresh secret only from its current one', async () => {
    await current.store.insertPairCode({ code: { hash: 'c', namespace: NS_A, createdBy: 'x', createdAt: 1, expiresAt: 1000, usedAt: null, tokenId: null, creatorTokenId: null } });
    await current.store.redeemPairCode({ hash: 'c', at: 10, token: { id: 'd', hash: 'hd', label: 'paired device', createdAt: 10, lastUsedAt: null, revokedAt: null, kind: 'device' }, refreshHash: 'r1' });
    expect(await current.store.getDeviceRefresh({ id: 'd' })).toMatchObject({ kind: 'device', hash: 'r1', prevHash: null, refreshedAt: 10, revokedAt: null });
    expect(await current.store.rotateDeviceRefresh({ id: 'd', from: 'nope', to: 'r2', at: 20 })).toBe(false);
    expect(await current.store.rotateDeviceRefresh({ id: 'd', from: 'r1', to: 'r2', at: 20 })).toBe(true);
    expect(await current.store.getDeviceRefresh({ id: 'd' })).toMatchObject({ hash: 'r2', prevHash: 'r1', refreshedAt: 20, lastUsedAt: 20 });
    expect(await current.store.rotateDeviceRefresh({ id: 'd', from: 'r1', to: 'r3', at: 30 })).toBe(false);
    await current.store.revokeToken({ id: 'd', at: 40 });
    expect(await current.store.rotateDeviceRefresh({ id: 'd', from: 'r2', to: 'r3', at: 50 })).toBe(false);
    expect(await current.store.getDeviceRefresh({ id: 'missing' })).toBeNull();
  });
}

/** The contract's cases on sessions. */
function sessionContract(current: { store: Store }): void {
  it('registers a session, re-registers it keeping seq, refuses another namespace', async () => {
    const first = await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { title: 't' }), now: 10 });
    expect(first).toMatchObject({ kind: 'ok', created: true, session: { id: S1, title: 't', status: 'starting', lastSeq: 0 } });
    await current.store.appendMessages({ namespace: NS_A, sessionId: S1, messages: [message('m1')] });
    const again = await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { status: 'idle' }), now: 20 });
    expect(again).toMatchObject({ kind: 'ok', created: false, session: { status: 'idle', lastSeq: 1, createdAt: 10 } });
    expect(await current.store.registerSession({ namespace: NS_B, registration: registration(S1), now: 30 })).toEqual({ kind: 'forbidden' });
    expect(await current.store.getSession({ namespace: NS_B, sessionId: S1 })).toBeNull();
    expect(await current.store.listSessions({ namespace: NS_B })).toEqual([]);
    expect((await current.store.listSessions({ namespace: NS_A })).map((s) => s.id)).toEqual([S1]);
  });

  it('patches and ends sessions only in their namespace', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 10 });
    expect(await current.store.updateSession({ namespace: NS_B, sessionId: S1, patch: { title: 'x' }, now: 11 })).toBeNull();
    const patched = await current.store.updateSession({
      namespace: NS_A,
      sessionId: S1,
      patch: { title: 'new', status: 'thinking', deskAttached: true, controller: 'remote', effort: 'xhigh' },
      now: 12,
    });
    expect(patched).toMatchObject({ title: 'new', status: 'thinking', deskAttached: true, controller: 'remote', effort: 'xhigh', updatedAt: 12 });
    expect(await current.store.endSession({ namespace: NS_B, sessionId: S1, status: 'ended', exitCode: 0, reason: null, now: 13 })).toBeNull();
    const ended = await current.store.endSession({ namespace: NS_A, sessionId: S1, status: 'failed', exitCode: 2, reason: 'boom', now: 14 });
    expect(ended).toMatchObject({ status: 'failed', exitCode: 2, failureReason: 'boom', endedAt: 14 });
  });

  it('keeps a session\'s token usage: none at first, replaced by each patch, kept by a re-registration (a resume)', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 10 });
    expect(await current.store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ usage: null });
    const usage = { inputTokens: 123_456_789_012, cachedInputTokens: 100_000_000_000, outputTokens: 4_321, contextTokens: 41_000, contextWindow: 258_400 };
    expect(await current.store.updateSession({ namespace: NS_B, sessionId: S1, patch: { usage }, now: 11 })).toBeNull();
    expect(await current.store.updateSession({ namespace: NS_A, sessionId: S1, patch: { usage }, now: 12 })).toMatchObject({ usage, updatedAt: 12 });
    const next = { ...usage, outputTokens: 5_000, contextWindow: null };
    await current.store.updateSession({ namespace: NS_A, sessionId: S1, patch: { usage: next, title: 't' }, now: 13 });
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { status: 'idle' }), now: 14 });
    expect(await current.store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ usage: next, title: '' });
    expect((await current.store.listSessions({ namespace: NS_A }))[0]?.usage).toEqual(next);
  });

  it('keeps the capabilities a runner stated (none: null), replaced by its next registration, and a machine\'s per agent', async () => {
    expect(await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 10 })).toMatchObject({ session: { capabilities: null, agentSessionId: null } });
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { capabilities: CAPABILITIES, agentSessionId: '0199a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b' }), now: 11 });
    expect(await current.store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ capabilities: CAPABILITIES, agentSessionId: '0199a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b' });
    expect((await current.store.listSessions({ namespace: NS_A }))[0]?.capabilities).toEqual(CAPABILITIES);
    const info = { id: M1, name: 'desk', os: 'linux', user: 'me', home: '/home/me', agents: ['codex' as const], capabilities: { codex: CAPABILITIES } };
    expect(await current.store.upsertMachine({ namespace: NS_A, machine: info, now: 5 })).toMatchObject({ agents: ['codex'], capabilities: { codex: CAPABILITIES } });
    expect(await current.store.listMachines({ namespace: NS_A })).toMatchObject([{ capabilities: { codex: CAPABILITIES } }]);
  });

  it('pins and archives only in their namespace, keeps the first pin time, pinned and archived exclusive', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { status: 'idle' }), now: 10 });
    expect(await current.store.getSession({ namespace: NS_A, sessionId: S1 })).toMatchObject({ pinnedAt: null, archivedAt: null });
    expect(await current.store.pinSession({ namespace: NS_B, sessionId: S1, pinned: true, now: 11 })).toBeNull();
    expect(await current.store.archiveSession({ namespace: NS_B, sessionId: S1, archived: false, now: 11 })).toEqual({ kind: 'not_found' });
    expect(await current.store.pinSession({ namespace: NS_A, sessionId: S1, pinned: true, now: 12 })).toMatchObject({ pinnedAt: 12, updatedAt: 12 });
    expect(await current.store.pinSession({ namespace: NS_A, sessionId: S1, pinned: true, now: 13 })).toMatchObject({ pinnedAt: 12, updatedAt: 13 });
    // A live session is never archived; nothing changes.
    const refused = await current.store.archiveSession({ namespace: NS_A, sessionId: S1, archived: true, now: 14 });
    expect(refused).toMatchObject({ kind: 'live', session: { pinnedAt: 12, archivedAt: null, updatedAt: 13 } });
    await current.store.endSession({ namespace: NS_A, sessionId: S1, status: 'ended', exitCode: 0, reason: null, now: 15 });
    expect(await current.store.archiveSession({ namespace: NS_A, sessionId: S1, archived: true, now: 16 })).toMatchObject({
      kind: 'ok',
      session: { archivedAt: 16, pinnedAt: null, updatedAt: 16 },
    });
    // Pinning brings an archived session back; archiving a failed one works too.
    expect(await current.store.pinSession({ namespace: NS_A, sessionId: S1, pinned: true, now: 17 })).toMatchObject({ pinnedAt: 17, archivedAt: null });
    expect(await current.store.pinSession({ namespace: NS_A, sessionId: S1, pinned: false, now: 18 })).toMatchObject({ pinnedAt: null, archivedAt: null });
    await current.store.registerSession({ namespace: NS_A, registration: registration(S2, { status: 'failed' }), now: 19 });
    expect(await current.store.archiveSession({ namespace: NS_A, sessionId: S2, archived: true, now: 20 })).toMatchObject({ kind: 'ok', session: { archivedAt: 20 } });
    expect(await current.store.archiveSession({ namespace: NS_A, sessionId: S2, archived: false, now: 21 })).toMatchObject({ kind: 'ok', session: { archivedAt: null } });
    expect((await current.store.listSessions({ namespace: NS_B })).length).toBe(0);
  });

  it('unarchives a session that runs again (resumed, or reporting a live status)', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { status: 'idle' }), now: 10 });
    await current.store.endSession({ namespace: NS_A, sessionId: S1, status: 'ended', exitCode: 0, reason: null, now: 11 });
    await current.store.archiveSession({ namespace: NS_A, sessionId: S1, archived: true, now: 12 });
    // Re-registered as ended (a runner's late resend): still archived.
    const late = await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { status: 'ended' }), now: 13 });
    expect(late).toMatchObject({ kind: 'ok', session: { archivedAt: 12 } });
    // A patch without a status leaves it alone.
    expect(await current.store.updateSession({ namespace: NS_A, sessionId: S1, patch: { title: 'x' }, now: 14 })).toMatchObject({ archivedAt: 12 });
    const resumed = await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { status: 'starting' }), now: 15 });
    expect(resumed).toMatchObject({ kind: 'ok', session: { status: 'starting', archivedAt: null } });
    await current.store.endSession({ namespace: NS_A, sessionId: S1, status: 'ended', exitCode: 0, reason: null, now: 16 });
    await current.store.archiveSession({ namespace: NS_A, sessionId: S1, archived: true, now: 17 });
    expect(await current.store.updateSession({ namespace: NS_A, sessionId: S1, patch: { status: 'idle' }, now: 18 })).toMatchObject({ archivedAt: null });
  });

  it("keeps a session's worktree as the hub records it, through a runner's re-registration, in its namespace only", async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    expect((await current.store.getSession({ namespace: NS_A, sessionId: S1 }))?.worktree).toBeNull();
    const worktree = { path: '/tmp/project.worktrees/fix/login', branch: 'fix/login', repo: '/tmp/project', removedAt: null, base: { ref: 'main', commit: '0123456789abcdef' } };
    expect(await current.store.setSessionWorktree({ namespace: NS_B, sessionId: S1, worktree, now: 2 })).toBeNull();
    expect(await current.store.setSessionWorktree({ namespace: NS_A, sessionId: S1, worktree, now: 2 })).toMatchObject({ worktree, updatedAt: 2 });
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1, { status: 'idle' }), now: 3 });
    expect((await current.store.getSession({ namespace: NS_A, sessionId: S1 }))?.worktree).toEqual(worktree);
    const removed = { ...worktree, removedAt: 4 };
    expect(await current.store.setSessionWorktree({ namespace: NS_A, sessionId: S1, worktree: removed, now: 4 })).toMatchObject({ worktree: removed });
  });

  it("keeps the folders a session's agent was given, refreshed by its runner's re-registration, and none for a session that named none", async () => {
    const { store } = current;
    const dirs = ['/srv/shared-lib', '/home/ada/notes'];
    await store.registerSession({ namespace: NS_A, registration: registration(S1, { addedDirs: dirs }), now: 1 });
    await store.registerSession({ namespace: NS_A, registration: registration(S2), now: 1 });
    expect((await store.getSession({ namespace: NS_A, sessionId: S1 }))?.addedDirs).toEqual(dirs);
    expect((await store.getSession({ namespace: NS_A, sessionId: S2 }))?.addedDirs).toEqual([]);
    // A resumed runner states what it was given this time.
    await store.registerSession({ namespace: NS_A, registration: registration(S1, { status: 'idle', addedDirs: ['/srv/shared-lib'] }), now: 2 });
    expect((await store.getSession({ namespace: NS_A, sessionId: S1 }))?.addedDirs).toEqual(['/srv/shared-lib']);
    expect(await store.getSession({ namespace: NS_B, sessionId: S1 })).toBeNull();
  });
}

/** The contract's cases on machines. */
function machineContract(current: { store: Store }): void {
  it('keeps machines per namespace', async () => {
    const info = { id: M1, name: 'desk', os: 'linux', user: 'me', home: '/home/me' };
    expect(await current.store.upsertMachine({ namespace: NS_A, machine: info, now: 5 })).toMatchObject({ online: true, lastSeenAt: 5 });
    expect(await current.store.setMachineOnline({ namespace: NS_A, machineId: M1, online: false, now: 6 })).toMatchObject({ online: false });
    expect(await current.store.setMachineOnline({ namespace: NS_B, machineId: M1, online: false, now: 6 })).toBeNull();
    expect(await current.store.listMachines({ namespace: NS_A })).toHaveLength(1);
    expect(await current.store.listMachines({ namespace: NS_B })).toHaveLength(0);
  });
}

/** The contract's cases on chat messages. */
function messageContract(current: { store: Store }): void {
  it('assigns strictly increasing seq per session; re-inserting an id is a no-op', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    await current.store.registerSession({ namespace: NS_A, registration: registration(S2), now: 1 });
    const a = await current.store.appendMessages({ namespace: NS_A, sessionId: S1, messages: [message('m1'), message('m2')] });
    expect(a?.added.map((m) => m.seq)).toEqual([1, 2]);
    expect(a?.lastSeq).toBe(2);
    const b = await current.store.appendMessages({ namespace: NS_A, sessionId: S1, messages: [message('m2', 'changed'), message('m3')] });
    expect(b?.added.map((m) => [m.id, m.seq])).toEqual([['m3', 3]]);
    expect(b?.seqs).toEqual([2, 3]);
    const other = await current.store.appendMessages({ namespace: NS_A, sessionId: S2, messages: [message('m1')] });
    expect(other?.added[0]?.seq).toBe(1);
    expect(await current.store.appendMessages({ namespace: NS_B, sessionId: S1, messages: [message('x')] })).toBeNull();
    const page = await current.store.listMessages({ namespace: NS_A, sessionId: S1, limit: 10 });
    expect(page?.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(page?.messages[1]?.content).toEqual([{ type: 'text', text: 'm2' }]);
    expect(page?.messages[0]?.sessionId).toBe(S1);
    expect((await current.store.getSession({ namespace: NS_A, sessionId: S1 }))?.lastSeq).toBe(3);
  });

  it('pages messages after, before, and latest', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    await current.store.appendMessages({ namespace: NS_A, sessionId: S1, messages: Array.from({ length: 10 }, (_, i) => message(`m${i + 1}`)) });
    const seqs = (p: { messages: { seq: number }[]; more: boolean } | null) => [p?.messages.map((m) => m.seq), p?.more];
    expect(seqs(await current.store.listMessages({ namespace: NS_A, sessionId: S1, after: 2, limit: 3 }))).toEqual([[3, 4, 5], true]);
    expect(seqs(await current.store.listMessages({ namespace: NS_A, sessionId: S1, after: 7, limit: 3 }))).toEqual([[8, 9, 10], false]);
    expect(seqs(await current.store.listMessages({ namespace: NS_A, sessionId: S1, before: 5, limit: 3 }))).toEqual([[2, 3, 4], true]);
    expect(seqs(await current.store.listMessages({ namespace: NS_A, sessionId: S1, before: 3, limit: 3 }))).toEqual([[1, 2], false]);
    expect(seqs(await current.store.listMessages({ namespace: NS_A, sessionId: S1, limit: 4 }))).toEqual([[7, 8, 9, 10], true]);
    expect(await current.store.listMessages({ namespace: NS_B, sessionId: S1, limit: 4 })).toBeNull();
  });

  it('gives concurrent appends to one session distinct, gapless seqs', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    const batches = await Promise.all(
      Array.from({ length: 6 }, (_, i) => current.store.appendMessages({ namespace: NS_A, sessionId: S1, messages: [message(`a${i}`), message(`b${i}`)] })),
    );
    const seqs = batches.flatMap((b) => b?.seqs ?? []).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect((await current.store.getSession({ namespace: NS_A, sessionId: S1 }))?.lastSeq).toBe(12);
  });

}

/** The contract's cases on prompts (the queue, its hand-over to the runner) and attachments. */
function promptContract(current: { store: Store }): void {
  it('queues prompts idempotently and drops unsent ones when the session ends', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    const prompt = { id: P1, sessionId: S1, text: 'hi', attachments: [], status: 'queued' as const, reason: null, createdAt: 2, updatedAt: 2 };
    expect(await current.store.addPrompt({ namespace: NS_B, prompt })).toEqual({ kind: 'not_found' });
    expect((await current.store.addPrompt({ namespace: NS_A, prompt })).kind).toBe('added');
    expect((await current.store.addPrompt({ namespace: NS_A, prompt })).kind).toBe('exists');
    expect(await current.store.updatePrompt({ namespace: NS_B, sessionId: S1, promptId: P1, status: 'typing', reason: null, now: 3 })).toBeNull();
    expect(await current.store.updatePrompt({ namespace: NS_A, sessionId: S1, promptId: P1, status: 'typing', reason: null, now: 3 })).toMatchObject({
      status: 'typing',
    });
    expect(await current.store.listPrompts({ namespace: NS_A, sessionId: S1, status: 'typing' })).toHaveLength(1);
    await current.store.endSession({ namespace: NS_A, sessionId: S1, status: 'ended', exitCode: 0, reason: null, now: 4 });
    expect((await current.store.listPrompts({ namespace: NS_A, sessionId: S1 }))[0]).toMatchObject({ status: 'dropped' });
  });

  it('edits and withdraws a prompt only until it is handed over, atomically with the hand-over', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    const queued = (id: string, at: number) => ({ id, sessionId: S1, text: `text ${id}`, attachments: [], status: 'queued' as const, reason: null, createdAt: at, updatedAt: at, handedAt: null });
    await current.store.addPrompt({ namespace: NS_A, prompt: queued(P1, 2) });
    await current.store.addPrompt({ namespace: NS_A, prompt: queued(R1, 3) });
    const edit = (promptId: string, text: string, namespace = NS_A) => current.store.changeHeldPrompt({ namespace, sessionId: S1, promptId, change: { kind: 'edit', text }, now: 5 });
    expect(await edit(P1, 'other namespace', NS_B)).toEqual({ kind: 'not_found' });
    expect(await edit(M1, 'no such prompt')).toEqual({ kind: 'not_found' });
    expect(await edit(P1, 'edited')).toMatchObject({ kind: 'changed', prompt: { text: 'edited', status: 'queued', handedAt: null, updatedAt: 5 } });
    expect(await current.store.changeHeldPrompt({ namespace: NS_A, sessionId: S1, promptId: R1, change: { kind: 'withdraw' }, now: 6 })).toMatchObject({
      kind: 'changed',
      prompt: { status: 'dropped', reason: 'withdrawn' },
    });
    // A withdrawn prompt is never handed over, and cannot be edited back.
    expect(await edit(R1, 'again')).toMatchObject({ kind: 'not_held', prompt: { status: 'dropped' } });
    expect(await current.store.handOverPrompts({ namespace: NS_B, sessionId: S1, now: 7 })).toEqual([]);
    const handed = await current.store.handOverPrompts({ namespace: NS_A, sessionId: S1, now: 7 });
    expect(handed.map((p) => [p.id, p.text, p.handedAt])).toEqual([[P1, 'edited', 7]]);
    expect(await edit(P1, 'too late')).toMatchObject({ kind: 'not_held', prompt: { text: 'edited' } });
    // Handed again (a runner that comes back): the first hand-over's time stays.
    expect((await current.store.handOverPrompts({ namespace: NS_A, sessionId: S1, promptId: P1, now: 9 }))[0]?.handedAt).toBe(7);
  });

  it('never hands over old text or a withdrawn prompt when an edit races the hand-over', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    for (let round = 0; round < 20; round++) {
      const id = `${round.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
      const withdrawId = `${round.toString(16).padStart(8, '0')}-0000-4000-8000-000000000001`;
      for (const pid of [id, withdrawId]) {
        await current.store.addPrompt({ namespace: NS_A, prompt: { id: pid, sessionId: S1, text: 'old', attachments: [], status: 'queued', reason: null, createdAt: round, updatedAt: round, handedAt: null } });
      }
      const [edited, withdrawn, handed] = await Promise.all([
        current.store.changeHeldPrompt({ namespace: NS_A, sessionId: S1, promptId: id, change: { kind: 'edit', text: 'new' }, now: 10 }),
        current.store.changeHeldPrompt({ namespace: NS_A, sessionId: S1, promptId: withdrawId, change: { kind: 'withdraw' }, now: 10 }),
        current.store.handOverPrompts({ namespace: NS_A, sessionId: S1, now: 10 }),
      ]);
      const got = new Map(handed.map((p) => [p.id, p.text]));
      // The edit either landed first (the new text is handed) or was refused (the old text is).
      expect(got.get(id)).toBe(edited.kind === 'changed' ? 'new' : 'old');
      expect(got.has(withdrawId)).toBe(withdrawn.kind !== 'changed');
    }
  });

  it('keeps a prompt\'s attachment refs', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    const attachments = [{ id: A1, name: 'shot.png', mediaType: 'image/png' as const, size: 4 }];
    const prompt = { id: P1, sessionId: S1, text: '', attachments, status: 'queued' as const, reason: null, createdAt: 2, updatedAt: 2 };
    await current.store.addPrompt({ namespace: NS_A, prompt });
    expect((await current.store.listPrompts({ namespace: NS_A, sessionId: S1 }))[0]?.attachments).toEqual(attachments);
  });

  it('stores attachments per session and namespace, within the caps, and deletes them', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    await current.store.registerSession({ namespace: NS_A, registration: registration(S2), now: 1 });
    const caps = { perSession: 2, sessionBytes: 10, namespaceBytes: 14 };
    const data = new Uint8Array([1, 2, 3, 4]);
    const attachment = (id: string, sessionId = S1, size = 4) => ({ id, sessionId, name: `${id}.bin`, mediaType: 'image/png' as const, size, createdAt: 5 });
    expect(await current.store.addAttachment({ namespace: NS_B, attachment: attachment(A1), data, caps })).toEqual({ kind: 'not_found' });
    expect((await current.store.addAttachment({ namespace: NS_A, attachment: attachment(A1), data, caps })).kind).toBe('added');
    // Bytes come back as they went in; another namespace or session reads nothing.
    const read = await current.store.getAttachment({ namespace: NS_A, sessionId: S1, id: A1 });
    expect(read?.attachment).toEqual(attachment(A1));
    expect([...(read?.data ?? [])]).toEqual([1, 2, 3, 4]);
    expect(await current.store.getAttachment({ namespace: NS_B, sessionId: S1, id: A1 })).toBeNull();
    expect(await current.store.getAttachment({ namespace: NS_A, sessionId: S2, id: A1 })).toBeNull();
    expect(await current.store.findAttachments({ namespace: NS_A, sessionId: S1, ids: [A1, A2] })).toEqual([attachment(A1)]);
    expect(await current.store.findAttachments({ namespace: NS_B, sessionId: S1, ids: [A1] })).toEqual([]);
    // Caps: bytes per session, count per session, bytes per namespace.
    expect(await current.store.addAttachment({ namespace: NS_A, attachment: attachment(A2, S1, 7), data, caps })).toEqual({ kind: 'full', cap: 'session_bytes' });
    expect((await current.store.addAttachment({ namespace: NS_A, attachment: attachment(A2), data, caps })).kind).toBe('added');
    expect(await current.store.addAttachment({ namespace: NS_A, attachment: attachment(A3), data, caps })).toEqual({ kind: 'full', cap: 'session_count' });
    expect(await current.store.addAttachment({ namespace: NS_A, attachment: attachment(A3, S2, 7), data, caps })).toEqual({ kind: 'full', cap: 'namespace_bytes' });
    expect((await current.store.addAttachment({ namespace: NS_A, attachment: attachment(A3, S2, 6), data, caps })).kind).toBe('added');
    // Deleted one by one (only by its own namespace), then with the session.
    expect(await current.store.deleteAttachment({ namespace: NS_B, sessionId: S1, id: A1 })).toBe(false);
    expect(await current.store.deleteAttachment({ namespace: NS_A, sessionId: S1, id: A1 })).toBe(true);
    expect(await current.store.deleteSessionAttachments({ namespace: NS_A, sessionId: S1 })).toBe(1);
    expect(await current.store.findAttachments({ namespace: NS_A, sessionId: S2, ids: [A3] })).toHaveLength(1);
  });

}

/** The contract's cases on the slash commands a session reported. */
function commandContract(current: { store: Store }): void {
  it('keeps the slash commands a session reported, replaced whole, for its namespace only', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    expect(await current.store.getSessionCommands({ namespace: NS_A, sessionId: S1 })).toEqual({ commands: [], reportedAt: null });
    const review = { name: 'review', description: 'Review the diff', argumentHint: '', source: 'project' as const, opensPicker: false };
    expect(await current.store.saveSessionCommands({ namespace: NS_B, sessionId: S1, commands: [review], at: 2 })).toBe(false);
    expect(await current.store.saveSessionCommands({ namespace: NS_A, sessionId: S1, commands: [review], at: 2 })).toBe(true);
    const model = { ...review, name: 'model', source: 'builtin' as const, opensPicker: true };
    expect(await current.store.saveSessionCommands({ namespace: NS_A, sessionId: S1, commands: [model], at: 3 })).toBe(true);
    expect(await current.store.getSessionCommands({ namespace: NS_A, sessionId: S1 })).toEqual({ commands: [model], reportedAt: 3 });
    expect(await current.store.getSessionCommands({ namespace: NS_B, sessionId: S1 })).toBeNull();
  });
}

/** The contract's cases on requests and final screens. */
function requestContract(current: { store: Store }): void {
  it('resolves a request once (first answer wins) and keeps the audit', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    expect(await current.store.addRequest({ namespace: NS_B, request: request(R1, S1) })).toEqual({ kind: 'not_found' });
    expect((await current.store.addRequest({ namespace: NS_A, request: request(R1, S1) })).kind).toBe('added');
    expect((await current.store.addRequest({ namespace: NS_A, request: request(R1, S1) })).kind).toBe('pending');
    expect((await current.store.getSession({ namespace: NS_A, sessionId: S1 }))?.pendingCount).toBe(1);
    expect(await current.store.listPending({ namespace: NS_A, sessionId: S1 })).toEqual([request(R1, S1)]);
    expect(await current.store.getPending({ namespace: NS_A, requestId: R1 })).toEqual(request(R1, S1));
    expect(await current.store.getPending({ namespace: NS_B, requestId: R1 })).toBeNull();
    expect(await current.store.getPending({ namespace: NS_A, requestId: R2 })).toBeNull();
    const answer = { decision: 'allow' as const };
    const base = { requestId: R1, outcome: 'answered' as const, answer, answeredBy: 'phone', device: 'Pixel', at: 1500 };
    expect(await current.store.resolveRequest({ ...base, namespace: NS_B })).toEqual({ kind: 'not_found' });
    const first = await current.store.resolveRequest({ ...base, namespace: NS_A });
    expect(first).toMatchObject({ kind: 'resolved', resolution: { waitedMs: 500, answeredBy: 'phone', answer } });
    const second = await current.store.resolveRequest({ ...base, namespace: NS_A, answer: { decision: 'deny' } });
    expect(second).toMatchObject({ kind: 'already', resolution: { answer } });
    expect((await current.store.getSession({ namespace: NS_A, sessionId: S1 }))?.pendingCount).toBe(0);
    expect(await current.store.listPending({ namespace: NS_A, sessionId: S1 })).toEqual([]);
    expect(await current.store.getPending({ namespace: NS_A, requestId: R1 })).toBeNull();
    const audit = await current.store.listAudit({ namespace: NS_A, sessionId: S1, limit: 10 });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ toolName: request(R1, S1).toolName, answeredBy: 'phone', device: 'Pixel' });
    expect(await current.store.listAudit({ namespace: NS_B, sessionId: S1, limit: 10 })).toHaveLength(0);
    expect((await current.store.addRequest({ namespace: NS_A, request: request(R1, S1) })).kind).toBe('resolved');
  });

  it('keeps which sub-agent asks a request, and leaves it out for the session’s own', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    const asked = { ...request(R1, S1), askedBy: { nickname: 'Ada', role: 'explorer', thread: '019a2b3c' } };
    expect(await current.store.addRequest({ namespace: NS_A, request: asked })).toEqual({ kind: 'added', request: asked });
    await current.store.addRequest({ namespace: NS_A, request: request(R2, S1) });
    const pending = await current.store.listPending({ namespace: NS_A, sessionId: S1 });
    expect(pending.find((r) => r.id === R1)).toEqual(asked);
    expect(pending.find((r) => r.id === R2)).not.toHaveProperty('askedBy');
  });

  it('keeps final screens per namespace, upserted, pruned to the newest, deleted on resume', async () => {
    const screen = (n: number) => ({ offset: 100 * n, cols: 80, rows: 24, data: `screen ${n}`, savedAt: n });
    await current.store.saveFinalScreen({ namespace: NS_A, sessionId: S1, screen: screen(1), keep: 2 });
    expect(await current.store.getFinalScreen({ namespace: NS_A, sessionId: S1 })).toEqual(screen(1));
    expect(await current.store.getFinalScreen({ namespace: NS_B, sessionId: S1 })).toBeNull();
    await current.store.saveFinalScreen({ namespace: NS_A, sessionId: S1, screen: screen(2), keep: 2 });
    expect(await current.store.getFinalScreen({ namespace: NS_A, sessionId: S1 })).toEqual(screen(2));
    await current.store.saveFinalScreen({ namespace: NS_A, sessionId: S2, screen: screen(3), keep: 2 });
    await current.store.saveFinalScreen({ namespace: NS_B, sessionId: S1, screen: screen(9), keep: 2 });
    // A third session in namespace A pushes out its oldest; namespace B is counted apart.
    await current.store.saveFinalScreen({ namespace: NS_A, sessionId: P1, screen: screen(4), keep: 2 });
    expect(await current.store.getFinalScreen({ namespace: NS_A, sessionId: S1 })).toBeNull();
    expect(await current.store.getFinalScreen({ namespace: NS_A, sessionId: S2 })).toEqual(screen(3));
    expect(await current.store.getFinalScreen({ namespace: NS_B, sessionId: S1 })).toEqual(screen(9));
    await current.store.deleteFinalScreen({ namespace: NS_B, sessionId: S2 });
    expect(await current.store.getFinalScreen({ namespace: NS_A, sessionId: S2 })).toEqual(screen(3));
    await current.store.deleteFinalScreen({ namespace: NS_A, sessionId: S2 });
    expect(await current.store.getFinalScreen({ namespace: NS_A, sessionId: S2 })).toBeNull();
  });

  it("fills the answer of a request the desk took to claude's dialog, and of nothing else", async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    await current.store.addRequest({ namespace: NS_A, request: request(R1, S1) });
    const allow = { decision: 'allow' as const, reason: 'in the dialog' };
    // Not resolved yet: nothing to fill.
    expect(await current.store.recordDialogOutcome({ namespace: NS_A, sessionId: S1, requestId: R1, answer: allow })).toBeNull();
    await current.store.resolveRequest({ namespace: NS_A, requestId: R1, sessionId: S1, outcome: 'answered', answer: null, answeredBy: DESK_ANSWERER, device: 'desk@box', at: 5 });
    expect(await current.store.recordDialogOutcome({ namespace: NS_B, sessionId: S1, requestId: R1, answer: allow })).toBeNull();
    expect(await current.store.recordDialogOutcome({ namespace: NS_A, sessionId: S1, requestId: R1, answer: allow })).toMatchObject({ requestId: R1, answeredBy: DESK_ANSWERER, answer: allow });
    // Once filled it stays: a second outcome changes nothing.
    expect(await current.store.recordDialogOutcome({ namespace: NS_A, sessionId: S1, requestId: R1, answer: { decision: 'deny' } })).toBeNull();
    expect((await current.store.listAudit({ namespace: NS_A, sessionId: S1, limit: 5 }))[0]?.answer).toEqual(allow);
    // A request answered on the phone is not a dialog entry.
    await current.store.addRequest({ namespace: NS_A, request: request(R2, S1) });
    await current.store.resolveRequest({ namespace: NS_A, requestId: R2, sessionId: S1, outcome: 'answered', answer: { decision: 'deny' }, answeredBy: 'phone', device: 'Pixel', at: 6 });
    expect(await current.store.recordDialogOutcome({ namespace: NS_A, sessionId: S1, requestId: R2, answer: allow })).toBeNull();
  });

  it('lets exactly one of several concurrent answers win', async () => {
    await current.store.registerSession({ namespace: NS_A, registration: registration(S1), now: 1 });
    await current.store.addRequest({ namespace: NS_A, request: request(R1, S1) });
    const answers = await Promise.all(
      ['allow', 'deny', 'allow', 'deny', 'allow'].map((decision, i) =>
        current.store.resolveRequest({ namespace: NS_A, requestId: R1, outcome: 'answered', answer: { decision: decision as 'allow' | 'deny' }, answeredBy: `tab${i}`, device: null, at: 2000 }),
      ),
    );
    const won = answers.filter((a) => a.kind === 'resolved');
    expect(won).toHaveLength(1);
    // Every loser is told the winner's answer.
    for (const a of answers) expect(a).toMatchObject({ resolution: { answeredBy: won[0]!.kind === 'resolved' ? won[0]!.resolution.answeredBy : '' } });
    expect(await current.store.listAudit({ namespace: NS_A, sessionId: S1, limit: 10 })).toHaveLength(1);
  });
}
