import { describe, expect, it } from 'vitest';
import type { Machine, Session } from '@tether/shared';
import { testSession } from '../../testing/test-records.ts';
import { groupSessions } from './group-sessions.ts';

const M1 = '00000000-0000-4000-8000-0000000000m1'.replace('m1', 'a1');
const session = (id: string, extra: Partial<Session>): Session => testSession({ id, title: id, ...extra });
const machine: Machine = { id: M1, name: 'build-box', os: 'linux', user: 'ana', home: '/home/ana', shell: false, agents: ['claude'], capabilities: {}, online: true, lastSeenAt: 0, outside: false };

describe('groupSessions', () => {
  it('puts desk sessions first, then machines; waiting and live before ended, newest first', () => {
    const groups = groupSessions({
      machines: [machine],
      sessions: [
        session('remote', { machineId: M1, updatedAt: 5 }),
        session('old', { updatedAt: 1 }),
        session('ended', { status: 'ended', updatedAt: 9 }),
        session('new', { updatedAt: 3 }),
        session('asks', { pendingCount: 1, updatedAt: 2 }),
      ],
    });
    expect(groups.map((g) => g.title)).toEqual(['Desk', 'build-box']);
    expect(groups[0]!.sessions.map((s) => s.id)).toEqual(['asks', 'new', 'old', 'ended']);
    expect(groups[1]).toMatchObject({ online: true, machine: { home: '/home/ana' } });
  });
  it('names a machine it does not know (yet) instead of dropping its sessions', () => {
    const groups = groupSessions({ machines: [], sessions: [session('s', { machineId: M1 })] });
    expect(groups[0]).toMatchObject({ title: 'Unknown machine', online: false });
  });
  it('puts waiting sessions first, then pinned ones (latest pin first, live or ended), then live, then ended', () => {
    const groups = groupSessions({
      machines: [],
      sessions: [
        session('live', { updatedAt: 9 }),
        session('pinned-old', { status: 'ended', pinnedAt: 1, updatedAt: 1 }),
        session('ended', { status: 'ended', updatedAt: 8 }),
        session('pinned-new', { pinnedAt: 5, updatedAt: 2 }),
        session('asks', { pendingCount: 1, updatedAt: 0 }),
        session('pinned-asks', { status: 'waiting', pinnedAt: 3, updatedAt: 0 }),
        session('unpinned', { pinnedAt: null, updatedAt: 7 }),
      ],
    });
    expect(groups[0]!.sessions.map((s) => s.id)).toEqual(['pinned-asks', 'asks', 'pinned-new', 'pinned-old', 'live', 'unpinned', 'ended']);
  });
});
