// The worktree removal's wire shapes across versions: an older daemon's loss (no ignored files, no
// digest) still reads, and says it looked at none (digest null); a confirmation is a yes/no (an older
// web or hub) or a loss digest, nothing else; the hub's inspect to an older daemon drops `measure`.
import { describe, expect, it } from 'vitest';
import { DaemonCommandAckSchemas } from './spawn.ts';
import { DaemonWorktreeInspectSchema, DaemonWorktreeRemoveSchema, WorktreeLossSchema, WorktreeRemoveSchema } from './worktrees.ts';

const SESSION = '0b1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';
const DIGEST = '0f'.repeat(32);

describe('the worktree loss on the wire', () => {
  it("reads an older daemon's answer as one that named no ignored file (digest null)", () => {
    const old = DaemonCommandAckSchemas['daemon:worktree-inspect'].parse({ ok: true, uncommitted: ['a.txt'], unpushed: [] });
    expect(old).toEqual({ ok: true, uncommitted: ['a.txt'], unpushed: [], ignored: [], ignoredMore: 0, rebuildable: [], rebuildableMore: 0, digest: null });
    const full = { uncommitted: [], unpushed: [], ignored: [{ path: '.env', bytes: 3, files: 1, atLeast: false }], ignoredMore: 2, rebuildable: [{ path: 'dist/', bytes: null, files: null, atLeast: false }], rebuildableMore: 0, digest: DIGEST };
    expect(WorktreeLossSchema.parse(full)).toEqual(full);
    // A size is whole and not negative; a digest is 64 lower-case hex digits.
    expect(WorktreeLossSchema.safeParse({ ...full, ignored: [{ path: '.env', bytes: -1, files: 1, atLeast: false }] }).success).toBe(false);
    expect(WorktreeLossSchema.safeParse({ ...full, digest: DIGEST.toUpperCase() }).success).toBe(false);
  });

  it('takes a confirmation as a yes/no or a loss digest, nothing else', () => {
    expect(WorktreeRemoveSchema.parse({ sessionId: SESSION })).toEqual({ sessionId: SESSION, confirm: false });
    expect(WorktreeRemoveSchema.parse({ sessionId: SESSION, confirm: true }).confirm).toBe(true);
    expect(WorktreeRemoveSchema.parse({ sessionId: SESSION, confirm: DIGEST }).confirm).toBe(DIGEST);
    expect(DaemonWorktreeRemoveSchema.parse({ repo: '/r', path: '/r.worktrees/b', confirm: DIGEST }).confirm).toBe(DIGEST);
    for (const confirm of ['yes', DIGEST.slice(1), `${DIGEST}0`, 1, null]) {
      expect(WorktreeRemoveSchema.safeParse({ sessionId: SESSION, confirm }).success, String(confirm)).toBe(false);
      expect(DaemonWorktreeRemoveSchema.safeParse({ repo: '/r', path: '/p', confirm }).success, String(confirm)).toBe(false);
    }
  });

  it("sizes everything unless the hub asks for the loss alone (an older hub's inspect has no `measure`)", () => {
    expect(DaemonWorktreeInspectSchema.parse({ repo: '/r', path: '/p' }).measure).toBe('all');
    expect(DaemonWorktreeInspectSchema.parse({ repo: '/r', path: '/p', measure: 'loss' }).measure).toBe('loss');
    expect(DaemonWorktreeInspectSchema.safeParse({ repo: '/r', path: '/p', measure: 'some' }).success).toBe(false);
  });
});
