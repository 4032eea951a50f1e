// codex.ts: `tether codex [codex args…]`: Codex's own TUI at this terminal, mirrored to the hub
// (run-agent.ts).
import type { Command } from './command.ts';
import { runAgent } from './run-agent.ts';

const command: Command = {
  name: 'codex',
  summary: 'run Codex in a PTY at this terminal, mirrored to the hub',
  usage: 'tether codex [codex args…]',
  run: (args) => runAgent({ agent: 'codex', args }),
};
export default command;
