// hook.ts: `tether hook <event>`, run by claude (registered through --settings), not by people.
// Only SessionStart still comes this way (claude runs no HTTP hook for it); see hooks/settings.ts.
// Loads only hooks/client.ts, so startup stays small.
import { CommandError, type Command } from './command.ts';

const command: Command = {
  name: 'hook',
  summary: 'called by claude for its SessionStart hook; not for people',
  usage: 'tether hook session-start',
  async run(args) {
    const { isHookEventArg } = await import('../hooks/events.ts');
    const event = args[0];
    if (!event || !isHookEventArg(event)) throw new CommandError(`unknown hook event "${event ?? ''}"`, 2);
    const { runHookClient } = await import('../hooks/client.ts');
    const stdin = await Bun.stdin.text().catch(() => '');
    const result = await runHookClient({ event, stdin });
    if (result.problem) process.stderr.write(`tether hook ${event}: ${result.problem}\n`);
    if (result.stdout) process.stdout.write(`${result.stdout}\n`);
    return result.exitCode;
  },
};
export default command;
