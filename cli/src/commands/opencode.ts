// opencode.ts: `tether opencode [--model m] [--agent plan] [--session id]`: opencode as a tether
// session. Headless only (`opencode acp`, what a daemon starts from the phone); at a terminal its
// TUI is not mirrored yet and the runner says so (agents/opencode/agent.ts).
import { opencodeAgent } from '../agents/opencode/agent.ts';
import { opencodeVersions } from '../agents/opencode/version.ts';
import type { Command } from './command.ts';
import { runAgent, warnOutsideTestedRange } from './run-agent.ts';

const command: Command = {
  name: 'opencode',
  startEnv: 'runner',
  summary: 'run opencode headless (ACP) as a session on the hub (the daemon starts it from the phone)',
  usage: 'tether opencode [--model provider/model] [--agent build|plan] [--session id]',
  run: (args) =>
    runAgent({
      agent: 'opencode',
      args,
      beforeStart: warnOutsideTestedRange({ find: () => opencodeAgent.findBinary({ env: process.env }), cacheName: 'opencode-version.json', versions: opencodeVersions }),
    }),
};
export default command;
