// runners.ts: the runner processes a daemon started, remembered on disk so that a restarted daemon
// still knows them (TETHER_HOME/daemon/runners/<session id>.json = { pid, sessionId, logFile }),
// and whether a live claude already owns a claude session id (claude's <config>/sessions/<pid>.json).
// Invariant: a record exists while its runner may be alive; liveness is checked with signal 0, and
// only for runners of an earlier daemon (this daemon's own children exit as events).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type RunnerRecord = { sessionId: string; pid: number; logFile: string; startedAt: number };

export function runnersDir(home: string): string {
  return join(home, 'daemon', 'runners');
}

export function saveRunnerRecord(home: string, record: RunnerRecord): void {
  mkdirSync(runnersDir(home), { recursive: true, mode: 0o700 });
  writeFileSync(join(runnersDir(home), `${record.sessionId}.json`), JSON.stringify(record), { mode: 0o600 });
}

export function removeRunnerRecord(home: string, sessionId: string): void {
  rmSync(join(runnersDir(home), `${sessionId}.json`), { force: true });
}

export function listRunnerRecords(home: string): RunnerRecord[] {
  const dir = runnersDir(home);
  if (!existsSync(dir)) return [];
  const records: RunnerRecord[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const parsed = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Partial<RunnerRecord>;
      if (typeof parsed.sessionId === 'string' && typeof parsed.pid === 'number' && typeof parsed.logFile === 'string') {
        records.push({ sessionId: parsed.sessionId, pid: parsed.pid, logFile: parsed.logFile, startedAt: parsed.startedAt ?? 0 });
      }
    } catch {
      // half-written record: the next poll reads it again
    }
  }
  return records;
}

import { isAlive } from '../agents/alive.ts';

export { isAlive };

/** Runners an earlier daemon started are not this daemon's children, so their exit is no event
 *  here: their pids are checked (signal 0, nothing read from disk) every `everyMs` while any is
 *  left. With none left (the usual case) no timer runs, and the idle daemon is not woken. */
export function watchEarlierRunners(o: { records: RunnerRecord[]; everyMs: number; onExit: (record: RunnerRecord) => void }) {
  const left = new Map(o.records.map((record) => [record.pid, record]));
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const check = () => {
    for (const [pid, record] of left) {
      if (isAlive(pid)) continue;
      left.delete(pid);
      o.onExit(record);
    }
    if (left.size === 0) stop();
  };
  if (left.size > 0) timer = setInterval(check, o.everyMs);
  return { check, stop };
}

/** The last lines of a runner's log: why it stopped, in its own words. */
export function logTail(logFile: string, lines = 8): string | null {
  try {
    const text = readFileSync(logFile, 'utf8').trimEnd();
    if (!text) return null;
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return null;
  }
}
