// claim.ts: one adopter per background session on this machine. Two people adopting the same
// session at once would type into one TUI from two PTYs; the first to create
// `TETHER_HOME/adopted/<id>.json` (O_EXCL) holds it until its session is over, the other is told who
// holds it. A claim whose runner died is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../agents/alive.ts';

export type ClaimHolder = { pid: number; sessionId: string };
export type Claim = { ok: true; release(): void } | { ok: false; holder: ClaimHolder };

function readHolder(file: string): ClaimHolder | null {
  try {
    const held = JSON.parse(readFileSync(file, 'utf8')) as Partial<ClaimHolder>;
    return typeof held.pid === 'number' && typeof held.sessionId === 'string' ? { pid: held.pid, sessionId: held.sessionId } : null;
  } catch {
    return null;
  }
}

/** Claims background session `backgroundId` for tether session `sessionId` (this process). */
export function claimBackground(o: { tetherHome: string; backgroundId: string; sessionId: string }): Claim {
  const dir = join(o.tetherHome, 'adopted');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${o.backgroundId}.json`);
  const mine: ClaimHolder = { pid: process.pid, sessionId: o.sessionId };
  // Twice at most: a stale claim (its runner gone) is removed once and the create tried again.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      // Only our own claim goes (so a second release is a no-op): never one a later adopter made.
      const ours = (held: ClaimHolder | null) => held?.pid === mine.pid && held.sessionId === mine.sessionId;
      const release = () => ours(readHolder(file)) && rmSync(file, { force: true });
      return { ok: true, release: () => void release() };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    // Unreadable: another adopter is between its create and its write; it holds the claim.
    if (holder === null) return { ok: false, holder: { pid: 0, sessionId: 'unknown' } };
    if (isAlive(holder.pid)) return { ok: false, holder };
    rmSync(file, { force: true });
  }
  return { ok: false, holder: readHolder(file) ?? { pid: 0, sessionId: 'unknown' } };
}
