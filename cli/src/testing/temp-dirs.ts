// temp-dirs.ts: fresh temporary folders for a test file's tests, each removed after the test that
// made it (test support: imported by tests only).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** Called where vitest hooks may be (a file's top, a describe): the function it returns makes a
 *  folder `tether-<name>-…` under the system's temp folder, removed after the current test. */
export function tempDirs(name: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `tether-${name}-`));
    made.push(dir);
    return dir;
  };
}

/** A folder of its own for every test, made before the test and removed after it: the function it
 *  returns is the current test's folder (for a file whose every test works in one). */
export function tempDirPerTest(name: string): () => string {
  const make = tempDirs(name);
  let current: string | null = null;
  beforeEach(() => {
    current = make();
  });
  return () => {
    if (current === null) throw new Error('tempDirPerTest: no test is running');
    return current;
  };
}
