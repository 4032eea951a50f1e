// hook.ts: `tether hook <event>`, run by claude (registered through --settings), not by people.
// Loads only hooks/client.ts: it runs on every tool call, so startup must stay small.
import { CommandError, type Command } from './command.ts';

const command: Command = {
  name: 'hook',
  summary: 'called by claude for its hooks; not for people',
  usage: 'tether hook <session-start|user-prompt-submit|stop|notification|pre-tool-use|post-tool-use>',
  async run(args) {
    const { isHookEventArg } = await import('../hooks/events.ts');
    const event = args[0];
    if (!event || !isHookEventArg(event)) throw new CommandError(`unknown hook event "${event ?? ''}"`, 2);
    const { runHookClient } = await import('../hooks/client.ts');
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, onSignal);
    const stdin = await Bun.stdin.text().catch(() => '');
    const result = await runHookClient({ event, stdin, signal: stop.signal });
    if (result.stdout) process.stdout.write(`${result.stdout}\n`);
    return result.exitCode;
  },
};
export default command;
