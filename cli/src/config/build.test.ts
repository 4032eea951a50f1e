import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCommit, buildKind, versionLine, webDistDir } from './build.ts';
import { tetherCommand } from './self-command.ts';

// The package and binary kinds are exercised by building them: tests/e2e/install-*.test.ts.
describe('build info in a source checkout', () => {
  it('is a checkout, with the commit git reports and the repo web/dist', () => {
    expect(buildKind()).toBe('checkout');
    expect(buildCommit()).toMatch(/^[0-9a-f]{12}(-dirty)?$/);
    expect(versionLine('1.2.3')).toMatch(/^tether 1\.2\.3 \(commit [0-9a-f]{12}(-dirty)?, source checkout\)$/);
    expect(webDistDir()).toBe(resolve(import.meta.dirname, '..', '..', '..', 'web', 'dist'));
  });

  it('restarts itself as this Bun running cli/src/main.ts', () => {
    const [program, entry, ...rest] = tetherCommand();
    expect(program).toBe(process.execPath);
    expect(entry).toBe(resolve(import.meta.dirname, '..', 'main.ts'));
    expect(existsSync(entry!)).toBe(true);
    expect(rest).toEqual([]);
  });
});
