// claude.ts: `tether claude [claude args…]`: claude's own TUI at this terminal, mirrored to the hub.
// Every argument goes to claude untouched; tether prints nothing over the TUI except errors, and
// exits with claude's exit code.
import { loadCredentials } from '../config/credentials.ts';
import { tetherPaths } from '../config/paths.ts';
import { CommandError, type Command } from './command.ts';

const command: Command = {
  name: 'claude',
  summary: 'run claude in a PTY at this terminal, mirrored to the hub',
  usage: 'tether claude [claude args…]',
  async run(args) {
    const { runSession, RunnerStartError } = await import('../runner/runner.ts');
    const creds = loadCredentials();
    const paths = tetherPaths();
    const desk = process.stdin.isTTY && process.stdout.isTTY ? 'attached' : 'headless';
    try {
      const result = await runSession({
        userArgs: args,
        cwd: process.cwd(),
        env: process.env,
        hub: creds ? { url: creds.hubUrl, token: creds.token } : null,
        tetherHome: paths.home,
        desk,
      });
      if (result.failure) process.stderr.write(`tether: ${result.failure}\n`);
      return result.exitCode;
    } catch (error) {
      if (error instanceof RunnerStartError) throw new CommandError(error.message, 127);
      throw error;
    }
  },
};
export default command;
