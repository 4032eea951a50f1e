import { describe, expect, it } from 'vitest';
import type { Machine, Session } from '@tether/shared';
import { filterSessions } from './filter-sessions.ts';

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
});
