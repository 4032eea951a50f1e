// send.ts: `tether send <session> <text>`: queue a message for a session exactly as the phone does
// (/web prompt:send: same queue, same typing rules), and wait for the hub's ack.
import { CommandError, checkedSessionId, parseFlags, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';

const command: Command = {
  name: 'send',
  summary: 'send a message to a session, as the phone would',
  usage: 'tether send <session> <text…> [--json]   (text "-" reads stdin)',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
    const [sessionId, ...words] = positionals;
    if (!sessionId || words.length === 0) throw new CommandError(`usage: ${command.usage}`, 2);
    checkedSessionId(sessionId);
    const text = words.length === 1 && words[0] === '-' ? await Bun.stdin.text() : words.join(' ');
    if (!text.trim()) throw new CommandError('the message is empty', 2);
    const creds = requireCredentials();
    const client = await connectAsPhone({ creds, device: 'tether send' });
    try {
      const ack = await client.request('prompt:send', { sessionId, promptId: crypto.randomUUID(), text });
      if (!ack.ok) throw new CommandError(`hub refused the message: ${ack.error}`);
      if (flags.json) console.log(JSON.stringify({ promptId: ack.prompt.id, sessionId, status: ack.prompt.status }));
      else console.log(`queued ${ack.prompt.id} (${ack.prompt.status})`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
