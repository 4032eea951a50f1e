// stop.ts: `tether stop <session>`: stop a session as the phone does (graceful, then forced);
// returns once it has ended.
import { isUuid } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';

const command: Command = {
  name: 'stop',
  summary: 'stop a session (graceful, then forced)',
  usage: 'tether stop <session> [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
    const [sessionId] = positionals;
    if (!sessionId || positionals.length > 1) throw new CommandError(`usage: ${command.usage}`, 2);
    if (!isUuid(sessionId)) throw new CommandError(`"${sessionId}" is not a session id (see tether sessions)`, 2);
    const creds = requireCredentials();
    const { stopSession } = await import('../hub-link/session-control.ts');
    const client = await connectAsPhone({ creds, device: 'tether stop' });
    try {
      const ack = await stopSession(client, sessionId);
      if (!ack.ok) throw new CommandError(`stop failed: ${ack.error}`);
      if (flags.json) process.stdout.write(`${JSON.stringify({ sessionId, status: ack.session.status, exitCode: ack.session.exitCode })}\n`);
      else process.stdout.write(`stopped ${sessionId} (${ack.session.status})\n`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
