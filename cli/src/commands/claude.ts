// claude.ts: `tether claude [claude args…]`: claude's own TUI at this terminal, mirrored to the hub.
// Every argument goes to claude untouched; tether prints nothing over the TUI except errors, and
// exits with claude's exit code.
import { loadCredentials } from '../config/credentials.ts';
import { tetherPaths } from '../config/paths.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findClaudeBinary } from '../agents/claude/find-binary.ts';
import { cachedClaudeVersion, versionWarning } from '../agents/claude/version.ts';
import { CommandError, type Command } from './command.ts';

/** Long enough that this session's own outbox exists (and is locked) before orphans are scanned. */
const ORPHAN_DELAY_MS = 3_000;

/** One line before claude takes the terminal when its version is outside the tested range; never a
 *  refusal. A missing claude is reported by the runner itself, with its fix. */
function warnOutsideTestedRange(options: { home: string }): void {
  try {
    const bin = findClaudeBinary();
    mkdirSync(options.home, { recursive: true, mode: 0o700 });
    const warning = versionWarning(cachedClaudeVersion({ bin, cacheFile: join(options.home, 'claude-version.json') }));
    if (warning) process.stderr.write(`${warning}\n`);
  } catch {
    // not found: the runner says so
  }
}

const command: Command = {
  name: 'claude',
  summary: 'run claude in a PTY at this terminal, mirrored to the hub',
  usage: 'tether claude [claude args…]',
  async run(args) {
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
            .then(({ deliverOrphanOutboxes }) =>
              deliverOrphanOutboxes({ dir: paths.outbox, hubUrl: creds.hubUrl, token: creds.token, signal: orphans.signal }),
            )
            .catch(() => {});
        }, ORPHAN_DELAY_MS)
      : null;
    warnOutsideTestedRange({ home: paths.home });
    try {
      const result = await runSession({
        userArgs: args,
        cwd: process.cwd(),
        env: process.env,
        hub: creds ? { url: creds.hubUrl, token: creds.token } : null,
        tetherHome: paths.home,
        desk,
        launchKind: process.env.TETHER_LAUNCH_KIND === 'headless' ? 'headless' : 'pty',
        ...(process.env.TETHER_RUNNER_LOG ? { logFile: process.env.TETHER_RUNNER_LOG } : {}),
      });
      if (result.failure) process.stderr.write(`tether: ${result.failure}\n`);
      return result.exitCode;
    } catch (error) {
      if (error instanceof RunnerStartError) throw new CommandError(error.message, 127);
      throw error;
    } finally {
      if (orphanTimer) clearTimeout(orphanTimer);
      orphans.abort();
      await orphanRun;
    }
  },
};
export default command;
