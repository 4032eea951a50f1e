// opencode.ts: `tether opencode [--model m] [--agent plan] [--session id]`: opencode as a tether
// session: at a terminal its own TUI (from 1.18.33, heard through its server: agents/opencode/pty.ts),
// headless (`opencode acp`) when a daemon starts it from the phone.
import { opencodeAgent } from '../agents/opencode/agent.ts';
import { opencodeVersions } from '../agents/opencode/version.ts';
import type { Command } from './command.ts';
import { runAgent, warnOutsideTestedRange } from './run-agent.ts';

const command: Command = {
  name: 'opencode',
  startEnv: 'runner',
  summary: 'run opencode as a session on the hub (its TUI at a terminal; headless, over ACP, from the phone)',
  usage: 'tether opencode [--model provider/model] [--agent build|plan] [--session id]',
  run: (args) =>
    runAgent({
      agent: 'opencode',
      args,
      beforeStart: warnOutsideTestedRange({ find: () => opencodeAgent.findBinary({ env: process.env }), cacheName: 'opencode-version.json', versions: opencodeVersions }),
    }),
};
export default command;
