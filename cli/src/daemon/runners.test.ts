import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchEarlierRunners, type RunnerRecord } from './runners.ts';

const record = (pid: number, sessionId: string): RunnerRecord => ({ pid, sessionId, logFile: '/dev/null', startedAt: 0 });

afterEach(() => void vi.useRealTimers());

describe('runners an earlier daemon left', () => {
  it('with none, nothing is scheduled: the idle daemon is not woken', () => {
    vi.useFakeTimers();
    const exited: RunnerRecord[] = [];
    const watch = watchEarlierRunners({ records: [], everyMs: 1_000, onExit: (r) => exited.push(r) });
    watch.check();
    expect(vi.getTimerCount()).toBe(0);
    expect(exited).toEqual([]);
  });

  it('one that exits is reported once, a live one is not, and the poll stops with the last', async () => {
    const live = spawn('sleep', ['30']);
    const brief = spawn('true');
    await new Promise((resolve) => brief.on('exit', resolve));
    const exited: string[] = [];
    const watch = watchEarlierRunners({ records: [record(live.pid!, 'live'), record(brief.pid!, 'brief')], everyMs: 50, onExit: (r) => exited.push(r.sessionId) });
    try {
      watch.check();
      expect(exited).toEqual(['brief']);
      live.kill('SIGKILL');
      await new Promise((resolve) => live.on('exit', resolve));
      await vi.waitFor(() => expect(exited).toEqual(['brief', 'live']), { timeout: 2_000, interval: 20 });
      watch.check();
      expect(exited).toEqual(['brief', 'live']);
    } finally {
      watch.stop();
      live.kill('SIGKILL');
    }
  });
});
