// session/scope.ts: what every part of a session runner logs to and cleans up with. The log is a
// file (never the desk: the agent's TUI owns it); cleanups run on every exit path, last registered
// first, each in its own try. The pace is stirred by output, keys and hooks; polls slow down while
// the session is quiet.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPace } from '../../pace/pace.ts';
import { collectWhileBusy } from '../../pace/gc-timer.ts';

export type SessionScope = ReturnType<typeof createSessionScope>;

export function createSessionScope(o: { logFile?: string | undefined; tetherHome: string; agentName: string }) {
  const logFile = o.logFile ?? join(o.tetherHome, 'logs', 'runner.log');
  mkdirSync(join(logFile, '..'), { recursive: true, mode: 0o700 });
  const log = (line: string) => {
    try {
      appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // logging never breaks the session
    }
  };
  const cleanups: Array<() => void> = [];
  /** Who asked the agent to stop first (a signal, the phone's End), if anyone did. */
  let stopAsked: string | null = null;
  let stopFailure: string | null = null;
  const onCleanup = (fn: () => void) => {
    cleanups.push(fn);
  };
  const pace = createPace();
  // A busy runner collects every 30 s; an idle one leaves it to Bun's 120 s timer (gc-timer.ts).
  onCleanup(collectWhileBusy({ poll: pace.poll }));
  return {
    log,
    pace,
    /** Released on every exit path, last registered first. */
    onCleanup,
    cleanup() {
      for (const fn of cleanups.splice(0).reverse()) {
        try {
          fn();
        } catch (error) {
          log(`cleanup: ${String(error)}`);
        }
      }
    },
    /** A person asked the agent to stop (a signal at the desk, the phone's End): its exit then ends
     *  the session, never fails it. The first asker is the one kept. */
    stopAsked(by: string) {
      stopAsked ??= by;
    },
    stopAskedBy: () => stopAsked,
    /** What a person asked for at the end could not be done (a stop in the agent's pool that
     *  failed): the session then ends failed with this, not as asked. */
    stopFailed(why: string) {
      stopFailure ??= why;
    },
    stopFailure: () => stopFailure,
    /** Outside a desk terminal (daemon, headless), these signals stop the agent; the session then ends normally. */
    stopOnSignals(kill: () => void) {
      const onSignal = (signal: NodeJS.Signals) => {
        log(`got ${signal}: stopping ${o.agentName}`);
        stopAsked ??= signal;
        kill();
      };
      for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, onSignal);
      onCleanup(() => {
        for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.off(signal, onSignal);
      });
    },
  };
}
