import { describe, expect, it } from 'vitest';
import type { Machine, Session } from '@tether/shared';
import { filterSessions, splitArchived } from './filter-sessions.ts';

const session = (id: string, title: string, cwd: string, machineId: string | null): Session =>
  ({ id, title, cwd, machineId, launchKind: 'pty', status: 'idle', pendingCount: 0, lastSeq: 0, updatedAt: 1 }) as Session;

const machines = [{ id: 'm1', name: 'build-box' }] as Machine[];
const sessions = [session('a', 'Fix the login', '/home/dev/src/web', null), session('b', '', '/srv/payments', 'm1'), session('c', 'Release notes', '/home/dev/docs', 'm1')];

describe('filterSessions', () => {
  it('matches every word against the title, the directory and the machine, in any case', () => {
    expect(filterSessions({ sessions, machines, query: 'LOGIN' }).map((s) => s.id)).toEqual(['a']);
    expect(filterSessions({ sessions, machines, query: 'payments' }).map((s) => s.id)).toEqual(['b']);
    expect(filterSessions({ sessions, machines, query: 'build-box notes' }).map((s) => s.id)).toEqual(['c']);
    expect(filterSessions({ sessions, machines, query: 'desk web' }).map((s) => s.id)).toEqual(['a']);
    expect(filterSessions({ sessions, machines, query: '  ' }).map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(filterSessions({ sessions, machines, query: 'nothing-like-it' })).toEqual([]);
  });

  it('finds reviews by the word review', () => {
    const withReview = [...sessions, { ...session('r', 'Second opinion', '/srv/payments', 'm1'), parentId: 'b' }];
    expect(filterSessions({ sessions: withReview, machines, query: 'review' }).map((s) => s.id)).toEqual(['r']);
    expect(filterSessions({ sessions: withReview, machines, query: 'payments review' }).map((s) => s.id)).toEqual(['r']);
  });
});

describe('splitArchived', () => {
  it('moves archived ended sessions out of the list (the latest archived first), never a live one', () => {
    const all = [
      { ...session('live', '', '/a', null), archivedAt: 5 },
      { ...session('old', '', '/b', null), status: 'ended', archivedAt: 2 },
      { ...session('kept', '', '/c', null), status: 'failed', archivedAt: null },
      { ...session('new', '', '/d', null), status: 'failed', archivedAt: 9 },
      session('plain', '', '/e', null),
    ] as Session[];
    const { listed, archived } = splitArchived(all);
    // A stale copy that says "archived" on a running session must not hide it: it may ask something.
    expect(listed.map((s) => s.id)).toEqual(['live', 'kept', 'plain']);
    expect(archived.map((s) => s.id)).toEqual(['new', 'old']);
  });
});
