// doctor's agent check: a --version that fails is a failure with its fix; one that is only slow (a
// loaded machine) is said as unchecked, never "reinstall".
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeVersions } from '../agents/opencode/version.ts';
import { tempDirs } from '../testing/temp-dirs.ts';
import { checkAgent } from './doctor.ts';

const tempDir = tempDirs('doctor');

function fakeAgent(script: string): string {
  const bin = join(tempDir(), 'opencode');
  writeFileSync(bin, `#!/bin/sh\n${script}\n`);
  chmodSync(bin, 0o755);
  return bin;
}

const check = (bin: string) =>
  checkAgent({ name: 'opencode', find: () => bin, pinVariable: 'TETHER_OPENCODE_BIN', install: 'npm install -g opencode-ai', optional: true, versions: opencodeVersions, timeoutMs: 300 });

describe('doctor: an agent\'s version', () => {
  it('inside the range is ok', async () => {
    const bin = fakeAgent(`echo ${opencodeVersions.range.current}`);
    expect(await check(bin)).toMatchObject({ ok: true, detail: expect.stringContaining('inside the tested') });
  });

  it('a --version that exits non-zero fails, with reinstall as the fix', async () => {
    expect(await check(fakeAgent('exit 3'))).toMatchObject({ ok: false, detail: expect.stringContaining('--version failed'), fix: 'reinstall opencode' });
  });

  it('a --version slower than the check is unchecked, not failed', async () => {
    const result = await check(fakeAgent('sleep 5; echo 1.18.33'));
    expect(result).toMatchObject({ ok: true, detail: expect.stringContaining('did not print its version within 0.3 s') });
    expect(result.fix).not.toContain('reinstall');
  });
});
