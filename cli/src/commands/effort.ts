// effort.ts: `tether effort <session> [level]`: read a session's effort level, or change it as the phone
// does, where its agent has one (its capabilities say which levels and launch kinds): claude's own
// `/effort <level>` typed at an idle prompt (PTY sessions), Codex's reasoning effort for its next turn.
import { EffortLevelSchema, SessionDetailSchema } from '@tether/shared';
import { CommandError, sessionArgument, parseFlags, type Command } from './command.ts';
import { connectAsPhone, getHubJson, requireCredentials } from './hub-access.ts';

const LEVELS = EffortLevelSchema.options.join('|');

const command: Command = {
  name: 'effort',
  summary: "show or change a session's effort level (claude's /effort, Codex's reasoning effort)",
  usage: `tether effort <session> [${LEVELS}] [--json]`,
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
    const sessionId = sessionArgument({ positionals, usage: command.usage, most: 2 });
    const wanted = positionals[1];
    const creds = requireCredentials();
    if (wanted === undefined) {
      const { session } = await getHubJson({ creds, path: `/api/sessions/${sessionId}`, schema: SessionDetailSchema, what: 'a session' });
      const level = session.effort ?? null;
      if (flags.json) process.stdout.write(`${JSON.stringify({ sessionId, effort: level })}\n`);
      else process.stdout.write(`${level ?? 'not known yet (the agent has not shown it)'}\n`);
      return 0;
    }
    const level = EffortLevelSchema.safeParse(wanted);
    if (!level.success) throw new CommandError(`unknown effort level "${wanted}": use one of ${EffortLevelSchema.options.join(', ')}`, 2);
    const client = await connectAsPhone({ creds, device: 'tether effort' });
    try {
      const ack = await client.request('session:set-effort', { sessionId, level: level.data });
      if (!ack.ok) throw new CommandError(`effort not changed: ${ack.error}`);
      if (flags.json) process.stdout.write(`${JSON.stringify({ sessionId, requested: level.data })}\n`);
      else process.stdout.write(`asked for effort ${level.data}: the agent switches at its next idle prompt or turn\n`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
