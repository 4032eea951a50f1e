// codex.ts: `tether codex [codex args…]`: Codex's own TUI at this terminal, mirrored to the hub
// (run-agent.ts), after one line when its version is outside the tested range.
// `tether codex --join <session>`: Codex's own TUI at this terminal on the live thread of a headless
// Codex session on this machine (one a daemon started from the phone): both see each other's turns.
import { statSync } from 'node:fs';
import { codexAgent } from '../agents/codex/agent.ts';
import { codexJoinSupport } from '../agents/codex/join-support.ts';
import { JOIN_TOKEN_VARIABLE, joinArgs, notYetJoinable } from '../agents/codex/remote.ts';
import { codexVersions } from '../agents/codex/version.ts';
import { tetherHome } from '../config/paths.ts';
import { withoutPrivateEnv } from '../config/private-env.ts';
import { findDeskJoin } from '../desk-join/join-file.ts';
import { CommandError, type Command } from './command.ts';
import { runAgent, warnOutsideTestedRange } from './run-agent.ts';

const command: Command = {
  name: 'codex',
  startEnv: 'runner',
  summary: 'run Codex in a PTY at this terminal, mirrored to the hub; --join <session>: its TUI on a headless session\'s live thread',
  usage: 'tether codex [codex args…] | tether codex --join <session>',
  run: (args) => {
    if (args[0] === '--join' || args[0]?.startsWith('--join=')) return joinAtDesk(args);
    return runAgent({
      agent: 'codex',
      args,
      beforeStart: warnOutsideTestedRange({ find: () => codexAgent.findBinary({ env: process.env }), cacheName: 'codex-version.json', versions: codexVersions }),
    });
  },
};
export default command;

function written(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

/** Codex's TUI on the session's thread, at this terminal, until it quits. The token reaches it in
 *  its environment only; the session goes on when it quits. */
async function joinAtDesk(args: string[]): Promise<number> {
  const session = args[0]!.startsWith('--join=') ? args[0]!.slice('--join='.length) : args[1];
  if (!session || args.length > (args[0]!.includes('=') ? 1 : 2)) throw new CommandError('usage: tether codex --join <session>');
  const found = findDeskJoin({ home: tetherHome(), session });
  if ('error' in found) throw new CommandError(found.error);
  if (found.join.agent !== codexAgent.name) throw new CommandError(`session ${found.sessionId} runs ${found.join.agent}, not Codex`);
  const support = codexJoinSupport(process.env);
  if (!support.supported) throw new CommandError(`this Codex cannot join a session: ${support.reason}`);
  const notYet = notYetJoinable({ version: support.version, transcriptWritten: written(found.join.transcript) });
  if (notYet) throw new CommandError(notYet);
  const env = codexAgent.env({ env: withoutPrivateEnv(process.env) });
  env[JOIN_TOKEN_VARIABLE] = found.join.token;
  const child = Bun.spawn([codexAgent.findBinary({ env: process.env }), ...joinArgs({ threadId: found.join.agentSessionId, url: found.join.url })], { cwd: found.join.cwd, env, stdio: ['inherit', 'inherit', 'inherit'] });
  // The TUI owns the terminal: Ctrl-C is its key; a signal to tether goes on to it.
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, forward(signal));
  return await child.exited;
}
