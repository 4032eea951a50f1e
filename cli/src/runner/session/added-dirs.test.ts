import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ADDED_DIRS } from '@tether/shared';
import { tempDirPerTest } from '../../testing/temp-dirs.ts';
import { recordedAddedDirs } from './added-dirs.ts';

const root = tempDirPerTest('added-dirs');

describe('recordedAddedDirs', () => {
  it('makes each folder absolute against the cwd, once', () => {
    const project = join(root(), 'project');
    for (const dir of [project, join(root(), 'lib'), join(project, 'notes')]) mkdirSync(dir, { recursive: true });
    const log: string[] = [];
    const dirs = ['../lib', root(), 'notes/', `${root()}/`, `${project}/../lib`];
    expect(recordedAddedDirs({ dirs, cwd: project, log: (l) => log.push(l) })).toEqual([join(root(), 'lib'), root(), join(project, 'notes')]);
    expect(log).toEqual([]);
  });

  it("leaves out what is no folder here (a prompt claude's variadic --add-dir took, a file), saying so", () => {
    writeFileSync(join(root(), 'a-file'), 'x');
    const log: string[] = [];
    expect(recordedAddedDirs({ dirs: ['fix the login', 'a-file', '.'], cwd: root(), log: (l) => log.push(l) })).toEqual([root()]);
    expect(log).toEqual([`added folder not recorded (not a folder here): ${join(root(), 'fix the login')}`, `added folder not recorded (not a folder here): ${join(root(), 'a-file')}`]);
  });

  it('keeps the first ones the protocol allows and says which were left out', () => {
    const dirs = Array.from({ length: MAX_ADDED_DIRS + 3 }, (_, i) => join(root(), `d${i}`));
    for (const dir of dirs) mkdirSync(dir);
    const log: string[] = [];
    expect(recordedAddedDirs({ dirs, cwd: '/', log: (l) => log.push(l) })).toEqual(dirs.slice(0, MAX_ADDED_DIRS));
    expect(log).toEqual([expect.stringContaining(`${dirs[MAX_ADDED_DIRS]} and those after it`)]);
  });
});
