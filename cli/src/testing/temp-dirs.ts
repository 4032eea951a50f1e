// temp-dirs.ts: fresh temporary folders for a test file's tests, each removed after the test that
// made it (test support: imported by tests only).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

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
