// claude.ts: `tether claude [claude args…]`: claude's own TUI at this terminal, mirrored to the hub
// (run-agent.ts), after one line when its version is outside the tested range.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findClaudeBinary } from '../agents/claude/find-binary.ts';
import { cachedClaudeVersion, versionWarning } from '../agents/claude/version.ts';
import type { Command } from './command.ts';
import { runAgent } from './run-agent.ts';

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
  run: (args) => runAgent({ agent: 'claude', args, beforeStart: warnOutsideTestedRange }),
};
export default command;
