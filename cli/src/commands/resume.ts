// resume.ts: `tether resume <session> [--pty] [--fork] [--json]`: continue an ended or failed session on its
// machine's daemon, as the phone's Resume button does: same tether session (same chat), same agent
// session (claude's session id, Codex's thread), the launch kind it had unless --pty asks for the
// agent's TUI. Prints the session id once the agent is ready again; exits non-zero with the hub's
// reason when it cannot. `--fork`: its conversation continues in a NEW session with its history, the
// original (live or ended) left as it was, where the agent can fork (claude); else the reason.
import { CommandError, sessionArgument, parseFlags, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';

const command: Command = {
  name: 'resume',
  summary: 'resume an ended session on its machine (same chat, same agent session; --pty for the TUI; --fork: a new session with its history, the original left as it was)',
  usage: 'tether resume <session> [--pty] [--fork] [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['pty', 'json', 'fork'] });
    const sessionId = sessionArgument({ positionals, usage: command.usage });
    const creds = requireCredentials();
    const { resumeSession } = await import('../web-client/session-control.ts');
    const client = await connectAsPhone({ creds, device: 'tether resume' });
    try {
      const ack = await resumeSession(client, sessionId, flags.pty ? 'pty' : undefined, flags.fork === true);
      if (!ack.ok) {
        if (flags.json) process.stdout.write(`${JSON.stringify({ ok: false, code: ack.code, reason: ack.reason ?? null, error: ack.error })}\n`);
        throw new CommandError(`resume failed${ack.reason ? ` (${ack.reason})` : ''}: ${ack.error}`);
      }
      const s = ack.session;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ ok: true, sessionId: s.id, machineId: s.machineId, launchKind: s.launchKind, status: s.status, agentSessionId: s.agentSessionId })}\n`);
      } else {
        process.stdout.write(`${flags.fork ? 'forked into' : 'resumed'} ${s.id} (${s.launchKind}, ${s.status}); tether attach ${s.id} to drive it here\n`);
      }
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
