// codex.ts: `tether codex [codex args…]`: Codex's own TUI at this terminal, mirrored to the hub
// (run-agent.ts), after one line when its version is outside the tested range.
import { codexAgent } from '../agents/codex/agent.ts';
import { codexVersions } from '../agents/codex/version.ts';
import type { Command } from './command.ts';
import { runAgent, warnOutsideTestedRange } from './run-agent.ts';

const command: Command = {
  name: 'codex',
  startEnv: 'runner',
  summary: 'run Codex in a PTY at this terminal, mirrored to the hub',
  usage: 'tether codex [codex args…]',
  run: (args) =>
    runAgent({
      agent: 'codex',
      args,
      beforeStart: warnOutsideTestedRange({ find: () => codexAgent.findBinary({ env: process.env }), cacheName: 'codex-version.json', versions: codexVersions }),
    }),
};
export default command;
