// review.ts: `tether review <session> [--agent A] [--focus "text"] [--pty] [--json]`: a second
// opinion from another agent (shared reviews.ts), exactly as the phone's "Review" starts one: the
// hub starts a read-only reviewer on the session's machine and folder, its first prompt holding the
// session's diff and the focus. Prints the reviewer's session id once it is at work; its answer
// shows on the session's chat (`tether chat <session>`) as a review card.
import { AgentKindSchema, MAX_REVIEW_FOCUS_CHARS, SPAWN_ACK_TIMEOUT_MS, type Ack, type WebAcks } from '@tether/shared';
import { CommandError, sessionArgument, parseFlags, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';

/** The hub reads the session's diff (a page at most 20 s) before it starts the reviewer. */
const REVIEW_ACK_TIMEOUT_MS = SPAWN_ACK_TIMEOUT_MS + 30_000;

const command: Command = {
  name: 'review',
  summary: "start a read-only review of a session's changes by another agent",
  usage: 'tether review <session> [--agent A] [--focus "text"] [--pty] [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['pty', 'json'], strings: ['agent', 'focus'] });
    const sessionId = sessionArgument({ positionals, usage: command.usage });
    const agent = flags.agent === undefined ? undefined : AgentKindSchema.safeParse(flags.agent);
    if (agent && !agent.success) throw new CommandError(`--agent must be one of ${AgentKindSchema.options.join(', ')}`, 2);
    const focus = flags.focus ?? '';
    if (focus.length > MAX_REVIEW_FOCUS_CHARS) throw new CommandError(`--focus is at most ${MAX_REVIEW_FOCUS_CHARS} characters (got ${focus.length})`, 2);
    const creds = requireCredentials();
    const client = await connectAsPhone({ creds, device: 'tether review' });
    try {
      const payload = { sessionId, focus, launchKind: flags.pty ? 'pty' : 'headless', ...(agent?.success ? { agent: agent.data } : {}) };
      let ack: Ack<WebAcks['review:start']> & { reason?: string };
      try {
        ack = (await client.socket.timeout(REVIEW_ACK_TIMEOUT_MS).emitWithAck('review:start', payload)) as typeof ack;
      } catch {
        throw new CommandError(`the hub did not answer within ${REVIEW_ACK_TIMEOUT_MS / 1000} s`);
      }
      if (!ack.ok) {
        if (flags.json) process.stdout.write(`${JSON.stringify({ ok: false, code: ack.code, reason: ack.reason ?? null, error: ack.error })}\n`);
        throw new CommandError(`review refused${ack.reason ? ` (${ack.reason})` : ''}: ${ack.error}`);
      }
      if (flags.json) process.stdout.write(`${JSON.stringify({ ok: true, review: ack.review, session: ack.session })}\n`);
      else process.stdout.write(`${ack.review.id}\n`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
