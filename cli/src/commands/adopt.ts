// adopt.ts: `tether adopt <id>`: a session started outside tether becomes a tether session. Which
// kind the id names picks the path: 8 hex digits are a live background session's id (claude --bg:
// attached to live, adopt-live.ts); a conversation's UUID is a past one (continued under tether).
import { AgentKindSchema, BackgroundIdSchema, DEFAULT_AGENT } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';

const command: Command = {
  name: 'adopt',
  startEnv: 'runner',
  summary: 'take over a session started outside tether (a live claude --bg session by its id)',
  usage: 'tether adopt <background id> [--agent claude] [--json] [--stop [--yes]]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json', 'stop', 'yes'], strings: ['agent'] });
    const [id] = positionals;
    if (!id || positionals.length > 1) throw new CommandError(`usage: ${command.usage}`, 2);
    const picked = AgentKindSchema.safeParse(flags.agent ?? DEFAULT_AGENT);
    if (!picked.success) throw new CommandError(`unknown agent "${flags.agent}" (${AgentKindSchema.options.join(', ')})`, 2);
    const agent = picked.data;
    if (BackgroundIdSchema.safeParse(id).success) {
      const live = await import('./adopt-live.ts');
      if (flags.stop) return live.stopBackground({ id, agent, yes: flags.yes === true, json: flags.json === true });
      return live.adoptBackground({ id, agent, json: flags.json === true });
    }
    throw new CommandError(`"${id}" is not a background session id (8 hex digits, as claude agents lists them)`, 2);
  },
};
export default command;
