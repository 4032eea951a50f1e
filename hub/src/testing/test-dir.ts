// test-dir.ts: a fresh directory for one test, removed when that test finishes (passed or failed), so
// a test file keeps no list of its directories and no try/finally of its own. Test support: only
// *.test.ts files import it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Call inside a test: a new directory under the system's temp dir, its name starting with `prefix`. */
export function testDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
