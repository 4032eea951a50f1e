// hook.ts: `tether hook <event>`, run by an agent's hooks, not by people: claude's SessionStart (it
// runs no HTTP hook for it; agents/claude/hook-settings.ts), and every hook Codex and Gemini CLI run
// (commands only: agents/codex, agents/gemini). Loads only hooks/client.ts, so startup stays small.
import { CommandError, type Command } from './command.ts';
import { HOOK_EVENTS } from '../hooks/events.ts';

const command: Command = {
  name: 'hook',
  summary: "called by the agents' hooks (claude, Codex, Gemini CLI); not for people",
  usage: `tether hook <${Object.keys(HOOK_EVENTS).join('|')}>`,
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
