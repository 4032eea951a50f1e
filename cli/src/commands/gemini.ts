// gemini.ts: `tether gemini [gemini args…]`: Gemini's own TUI at this terminal, mirrored to the hub
// (run-agent.ts), after one line when its version is outside the tested range.
import { geminiAgent } from '../agents/gemini/agent.ts';
import { geminiVersions } from '../agents/gemini/version.ts';
import type { Command } from './command.ts';
import { runAgent, warnOutsideTestedRange } from './run-agent.ts';

const command: Command = {
  name: 'gemini',
  startEnv: 'runner',
  summary: 'run Gemini CLI in a PTY at this terminal, mirrored to the hub',
  usage: 'tether gemini [gemini args…]',
  run: (args) =>
    runAgent({
      agent: 'gemini',
      args,
      beforeStart: warnOutsideTestedRange({ find: () => geminiAgent.findBinary({ env: process.env }), cacheName: 'gemini-version.json', versions: geminiVersions }),
    }),
};
export default command;
