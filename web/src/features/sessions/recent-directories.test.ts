import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { testSession } from '../../testing/test-records.ts';
import { recentDirectories } from './recent-directories.ts';

function session(cwd: string, machineId: string | null, updatedAt: number): Session {
  return testSession({ id: `00000000-0000-4000-8000-${String(updatedAt).padStart(12, '0')}`, machineId, title: '', cwd, launchKind: 'headless', status: 'ended', createdAt: updatedAt, updatedAt });
}

describe('recentDirectories', () => {
  it("lists one machine's directories once each, most recently used first", () => {
    const sessions = [
      session('/home/a/src/one', 'm1', 10),
      session('/home/a/src/two', 'm1', 30),
      session('/home/a/src/one', 'm1', 40),
      session('/home/a/src/other-machine', 'm2', 50),
      session('/home/a/src/desk', null, 60),
    ];
    expect(recentDirectories({ sessions, machineId: 'm1' })).toEqual(['/home/a/src/one', '/home/a/src/two']);
    expect(recentDirectories({ sessions, machineId: null })).toEqual([]);
    expect(recentDirectories({ sessions, machineId: 'm1', limit: 1 })).toEqual(['/home/a/src/one']);
  });
});
