// adopt.ts: `tether adopt <id>`: a session started outside tether becomes a tether session. Which
// kind the id names picks the path: 8 hex digits are a live background session's id (claude --bg:
// attached to live, adopt-live.ts); a conversation's UUID is a past one found on a machine (tether
// sessions --outside), continued under tether through that machine's daemon (adopt-past.ts).
import { AgentKindSchema, BackgroundIdSchema, DEFAULT_AGENT, isUuid } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';

const command: Command = {
  name: 'adopt',
  startEnv: 'runner',
  summary: 'take over a session started outside tether: a live claude --bg session, or a conversation found on a machine (tether sessions --outside)',
  usage: 'tether adopt <background id> [--agent claude] [--json] [--stop [--yes]] | tether adopt <conversation id> [--machine M] [--pty] [--fork] [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json', 'stop', 'yes', 'pty', 'fork'], strings: ['agent', 'machine'] });
    const [id] = positionals;
    if (!id || positionals.length > 1) throw new CommandError(`usage: ${command.usage}`, 2);
    const json = flags.json === true;
    if (BackgroundIdSchema.safeParse(id).success) {
      const picked = AgentKindSchema.safeParse(flags.agent ?? DEFAULT_AGENT);
      if (!picked.success) throw new CommandError(`unknown agent "${flags.agent}" (${AgentKindSchema.options.join(', ')})`, 2);
      const live = await import('./adopt-live.ts');
      if (flags.stop) return live.stopBackground({ id, agent: picked.data, yes: flags.yes === true, json });
      return live.adoptBackground({ id, agent: picked.data, json });
    }
    if (isUuid(id)) {
      const past = await import('./adopt-past.ts');
      return past.adoptConversation({ id, machine: typeof flags.machine === 'string' ? flags.machine : undefined, pty: flags.pty === true, fork: flags.fork === true, json });
    }
    throw new CommandError(`"${id}" is neither a background session id (8 hex digits, as claude agents lists them) nor a conversation id (see tether sessions --outside)`, 2);
  },
};
export default command;
