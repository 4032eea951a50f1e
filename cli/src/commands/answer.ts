// answer.ts: `tether answer <request> allow|deny …`: answer a waiting request exactly as the phone
// does (/web approval:answer with the access token), so first-answer-wins, the audit trail and the
// "cleared in every tab" broadcast are the hub's, not this command's.
import { AnswerSchema, isUuid, type Answer } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';

/** A flag that carries JSON, parsed; undefined when it was not given. */
function jsonFlag(options: { flag: string; value: string | undefined; expected: string }): unknown {
  if (typeof options.value !== 'string') return undefined;
  try {
    return JSON.parse(options.value);
  } catch {
    throw new CommandError(`--${options.flag} is not JSON (expected ${options.expected})`, 2);
  }
}

const command: Command = {
  name: 'answer',
  summary: 'answer an approval, question, plan or dialog (see tether pending)',
  usage:
    'tether answer <request> allow|deny [--reason R] [--session-wide] [--prefix "git:*"] [--answers \'{"question":"answer"}\'] [--choice N] [--content \'{"field":value}\'] [--json]\n' +
    '  --session-wide  allow this tool (Bash: this exact command) for the rest of the session\n' +
    '  --prefix P      allow Bash commands starting with P (e.g. "npm test:*") for the session\n' +
    '  --answers JSON  AskUserQuestion answers keyed by question text (several labels joined with ", ")\n' +
    '  --choice N      a dialog claude drew (tether pending lists its options as "N. label"): allow --choice N\n' +
    '  --content JSON  an MCP server\'s form (elicitation): accept with these field values; deny declines it\n' +
    '  deny --reason   the reason claude gets (for a plan: the feedback to keep planning with)',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json', 'session-wide'], strings: ['reason', 'prefix', 'answers', 'choice', 'content'] });
    const [requestId, decision, extra] = positionals;
    if (!requestId || !decision || extra !== undefined) throw new CommandError(`usage: ${command.usage}`, 2);
    if (!isUuid(requestId)) throw new CommandError(`"${requestId}" is not a request id (see tether pending)`, 2);
    if (decision !== 'allow' && decision !== 'deny') throw new CommandError('the decision is allow or deny', 2);
    if (decision === 'deny' && (flags['session-wide'] || flags.prefix || flags.answers || flags.choice || flags.content)) {
      throw new CommandError('--session-wide, --prefix, --answers, --choice and --content go with allow', 2);
    }
    if (flags['session-wide'] && flags.prefix) throw new CommandError('use --session-wide or --prefix, not both', 2);
    const answers = jsonFlag({ flag: 'answers', value: flags.answers, expected: '{"question text": "answer"}' });
    const content = jsonFlag({ flag: 'content', value: flags.content, expected: '{"field": value}' });
    const candidate = {
      decision,
      ...(typeof flags.reason === 'string' ? { reason: flags.reason } : {}),
      ...(flags['session-wide'] ? { sessionRule: { kind: 'tool' } } : {}),
      ...(typeof flags.prefix === 'string' ? { sessionRule: { kind: 'bash-prefix', prefix: flags.prefix } } : {}),
      ...(answers !== undefined ? { answers } : {}),
      ...(typeof flags.choice === 'string' ? { choice: flags.choice } : {}),
      ...(content !== undefined ? { elicitation: { action: 'accept', content } } : {}),
    };
    const parsed = AnswerSchema.safeParse(candidate);
    if (!parsed.success) throw new CommandError(`bad answer: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, 2);
    const answer: Answer = parsed.data;
    const creds = requireCredentials();
    const client = await connectAsPhone({ creds, device: 'tether answer' });
    try {
      const ack = await client.request('approval:answer', { requestId, answer });
      if (!ack.ok) throw new CommandError(ack.code === 'conflict' ? 'already answered' : `hub refused the answer: ${ack.error}`);
      if (flags.json) console.log(JSON.stringify({ requestId, resolution: ack.resolution }));
      else console.log(`answered ${requestId}: ${answer.choice ? `option ${answer.choice}` : answer.decision}`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
