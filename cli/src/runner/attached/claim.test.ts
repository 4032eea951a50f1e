import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { claimBackground } from './claim.ts';

/** A TETHER_HOME of this test's own, gone when it finishes. */
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-claim-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('one adopter per background session', () => {
  it('refuses a second claim while the first is held, naming its holder; released, it is free again', () => {
    const tetherHome = home();
    const first = claimBackground({ tetherHome, backgroundId: 'f35b2b97', sessionId: 's-one' });
    expect(first.ok).toBe(true);
    expect(claimBackground({ tetherHome, backgroundId: 'f35b2b97', sessionId: 's-two' })).toEqual({ ok: false, holder: { pid: process.pid, sessionId: 's-one' } });
    expect(claimBackground({ tetherHome, backgroundId: 'a0a0a0a0', sessionId: 's-two' }).ok).toBe(true); // another session is another claim
    if (first.ok) {
      first.release();
      first.release(); // a second release is a no-op
    }
    expect(claimBackground({ tetherHome, backgroundId: 'f35b2b97', sessionId: 's-two' }).ok).toBe(true);
  });

  it('takes over a claim whose runner is gone, and a release leaves a later holder alone', () => {
    const tetherHome = home();
    const file = join(tetherHome, 'adopted', 'f35b2b97.json');
    const stale = claimBackground({ tetherHome, backgroundId: 'f35b2b97', sessionId: 's-dead' });
    // The runner that held it died: its pid names no process now (pids are below 2^22 on Linux).
    writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 1, sessionId: 's-dead' }));
    const taken = claimBackground({ tetherHome, backgroundId: 'f35b2b97', sessionId: 's-new' });
    expect(taken.ok).toBe(true);
    if (stale.ok) stale.release();
    expect(existsSync(file)).toBe(true);
    expect(claimBackground({ tetherHome, backgroundId: 'f35b2b97', sessionId: 's-third' })).toMatchObject({ ok: false, holder: { sessionId: 's-new' } });
  });
});
