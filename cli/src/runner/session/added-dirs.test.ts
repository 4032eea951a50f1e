import { describe, expect, it } from 'vitest';
import { MAX_ADDED_DIRS } from '@tether/shared';
import { recordedAddedDirs } from './added-dirs.ts';

describe('recordedAddedDirs', () => {
  it('makes each folder absolute against the cwd, once', () => {
    const log: string[] = [];
    expect(recordedAddedDirs({ dirs: ['../lib', '/srv/data', 'notes/', '/srv/data', '/home/ada/project/../lib'], cwd: '/home/ada/project', log: (l) => log.push(l) })).toEqual(['/home/ada/lib', '/srv/data', '/home/ada/project/notes']);
    expect(log).toEqual([]);
  });

  it('keeps the first ones the protocol allows and says which were left out', () => {
    const log: string[] = [];
    const dirs = Array.from({ length: MAX_ADDED_DIRS + 3 }, (_, i) => `/d/${i}`);
    const kept = recordedAddedDirs({ dirs: [...dirs, `/${'x'.repeat(5000)}`], cwd: '/', log: (l) => log.push(l) });
    expect(kept).toEqual(dirs.slice(0, MAX_ADDED_DIRS));
    expect(log).toEqual([expect.stringContaining(`/d/${MAX_ADDED_DIRS} and those after it`)]);
    expect(recordedAddedDirs({ dirs: [`/${'x'.repeat(5000)}`], cwd: '/', log: (l) => log.push(l) })).toEqual([]);
    expect(log[1]).toMatch(/^added folder not recorded/);
  });
});
