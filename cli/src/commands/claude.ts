// claude.ts: `tether claude [claude args…]`: claude's own TUI at this terminal, mirrored to the hub
// (run-agent.ts), after one line when its version is outside the tested range.
import { findClaudeBinary } from '../agents/claude/find-binary.ts';
import { claudeVersions } from '../agents/claude/version.ts';
import type { Command } from './command.ts';
import { runAgent, warnOutsideTestedRange } from './run-agent.ts';

const command: Command = {
  name: 'claude',
  startEnv: 'runner',
  summary: 'run Claude Code in a PTY at this terminal, mirrored to the hub',
  usage: 'tether claude [claude args…]',
  run: (args) =>
    runAgent({
      agent: 'claude',
      args,
      beforeStart: warnOutsideTestedRange({ find: () => findClaudeBinary(), cacheName: 'claude-version.json', versions: claudeVersions }),
    }),
};
export default command;
