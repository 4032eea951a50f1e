import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { sessionTable, statusLabel, type ListedSession } from './sessions.ts';

const base = { id: 'a'.repeat(8), machineId: null, machineName: null, title: 'Fix it', cwd: '/w', launchKind: 'pty', status: 'idle', pendingCount: 0, updatedAt: Date.now() } as unknown as ListedSession;

describe('tether sessions', () => {
  it('marks pinned and archived sessions in STATUS; a live one is never shown archived', () => {
    expect(statusLabel(base)).toBe('idle');
    expect(statusLabel({ ...base, pinnedAt: 1 })).toBe('idle, pinned');
    expect(statusLabel({ ...base, status: 'ended', archivedAt: 2 } as Session)).toBe('ended, archived');
    // A stale record: the list shows a running session whatever it says.
    expect(statusLabel({ ...base, archivedAt: 2 })).toBe('idle');
    const table = sessionTable([{ ...base, pinnedAt: 1 }]);
    expect(table.split('\n')[1]).toMatch(/^a{8}\s+desk\s+idle, pinned\s+pty\s+0/);
  });
});
