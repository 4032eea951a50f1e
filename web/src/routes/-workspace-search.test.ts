// -workspace-search.test.ts: the address's path is kept exactly when the shared schema would take it.
import { describe, expect, it } from 'vitest';
import { WorkspacePathSchema } from '@tether/shared';
import { workspacePath } from './-workspace-search.ts';

describe('workspacePath', () => {
  it('keeps a plain path and drops what the hub would refuse, as the shared schema does', () => {
    const cases = ['src/app.ts', 'a', 'é/ü.txt', '../x', 'a/../b', '/etc/passwd', 'C:/x', 'a//b', 'a/./b', 'a\0b', '.git/config', 'sub/.GIT', '.github/ci.yml', 'x'.repeat(255), 'x'.repeat(256), 'é'.repeat(127), 'é'.repeat(128), `${'a/'.repeat(2048)}b`];
    for (const path of cases) {
      expect(workspacePath(path) !== undefined, JSON.stringify(path.slice(0, 30))).toBe(WorkspacePathSchema.safeParse(path).success);
    }
    expect(workspacePath('src/app.ts')).toBe('src/app.ts');
    expect(workspacePath('.git/config')).toBeUndefined();
    expect(workspacePath('x'.repeat(256))).toBeUndefined();
  });
});
