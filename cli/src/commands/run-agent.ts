// run-agent.ts: the body of `tether claude` and `tether codex`: the agent's own TUI at this terminal,
// mirrored to the hub. Every argument goes to the agent untouched; tether prints nothing over the TUI
// except errors, and exits with the agent's exit code.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentKind } from '@tether/shared';
import type { AgentVersions } from '../agents/version.ts';
import { loadCredentials } from '../config/credentials.ts';
import { tetherPaths } from '../config/paths.ts';
import { startHeapProbe } from '../memory/heap-probe.ts';
import { CommandError } from './command.ts';

/** A `beforeStart` that prints one line before the agent takes the terminal when its version is
 *  outside the tested range; never a refusal. The version is cached per binary in `<home>/<cacheName>`.
 *  A missing agent is reported by the runner itself, with its fix. */
export function warnOutsideTestedRange(agent: {
  find: () => string;
  cacheName: string;
  versions: AgentVersions;
}): (options: { home: string }) => void {
  return ({ home }) => {
    try {
      const bin = agent.find();
      mkdirSync(home, { recursive: true, mode: 0o700 });
      const warning = agent.versions.warning(agent.versions.cached({ bin, cacheFile: join(home, agent.cacheName) }));
      if (warning) process.stderr.write(`${warning}\n`);
    } catch {
      // not found: the runner says so
    }
  };
}

/** Long enough that this session's own outbox exists (and is locked) before orphans are scanned. */
const ORPHAN_DELAY_MS = 3_000;

export async function runAgent(options: {
  agent: AgentKind;
  args: string[];
  beforeStart?: (o: { home: string }) => void;
  /** `tether adopt`: attach to the agent's background session `backgroundId` instead of starting one. */
  backgroundId?: string;
  /** Called with the session's result before the exit code is returned (`tether adopt --json`). */
  onResult?: (result: { sessionId: string; exitCode: number; failure: string | null }) => void;
}): Promise<number> {
  // Bench only (TETHER_BENCH_HEAP): the soak's heap samples; unset, no timer exists.
  const stopHeapProbe = startHeapProbe({ label: 'runner' });
  const { runSession, RunnerStartError } = await import('../runner/runner.ts');
  const creds = loadCredentials();
  const paths = tetherPaths();
  // TETHER_DESK=none: started by `tether daemon`, no person at this terminal even if it is one.
  const desk = process.env.TETHER_DESK !== 'none' && process.stdin.isTTY && process.stdout.isTTY ? 'attached' : 'headless';
  // Outboxes left by runners that exited while the hub was down (or died) are delivered in the
  // background, a little after this session opened its own outbox (which is never touched).
  const orphans = new AbortController();
  let orphanRun: Promise<unknown> = Promise.resolve();
  const orphanTimer = creds
    ? setTimeout(() => {
        orphanRun = import('../hub-link/orphans.ts')
          .then(({ deliverOrphanOutboxes }) => deliverOrphanOutboxes({ dir: paths.outbox, hubUrl: creds.hubUrl, token: creds.token, signal: orphans.signal }))
          .catch(() => {});
      }, ORPHAN_DELAY_MS)
    : null;
  options.beforeStart?.({ home: paths.home });
  try {
    const result = await runSession({
      userArgs: options.args,
      agent: options.agent,
      cwd: process.cwd(),
      env: process.env,
      hub: creds ? { url: creds.hubUrl, token: creds.token } : null,
      tetherHome: paths.home,
      desk,
      ...(options.backgroundId ? { launchKind: 'attached', backgroundId: options.backgroundId } : { launchKind: process.env.TETHER_LAUNCH_KIND === 'headless' ? 'headless' : 'pty' }),
      ...(process.env.TETHER_RUNNER_LOG ? { logFile: process.env.TETHER_RUNNER_LOG } : {}),
    });
    if (result.failure) process.stderr.write(`tether: ${result.failure}\n`);
    options.onResult?.(result);
    return result.exitCode;
  } catch (error) {
    if (error instanceof RunnerStartError) throw new CommandError(error.message, 127);
    throw error;
  } finally {
    stopHeapProbe();
    if (orphanTimer) clearTimeout(orphanTimer);
    orphans.abort();
    await orphanRun;
  }
}
