// adopt.ts: `tether adopt <id> [--machine M] [--pty] [--fork] [--json]`: continue a conversation found on
// one of this user's machines (tether sessions --outside) as a tether session: resumed by the
// machine's daemon with its history (claude --resume, codex resume, gemini --resume), its chat rebuilt
// from the agent's own record; `--fork` continues it as a new conversation and leaves it as it was.
// Prints the new session's id once the agent is ready; exits non-zero with the hub's reason (a live
// process still writes it, someone else adopted it, its record is damaged or too large…).
import { isUuid, MachineListSchema } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { connectAsPhone, getHubJson, requireCredentials } from './hub-access.ts';

const command: Command = {
  name: 'adopt',
  summary: 'continue a conversation found on a machine (tether sessions --outside) as a tether session',
  usage: 'tether adopt <id> [--machine M] [--pty] [--fork] [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['pty', 'fork', 'json'], strings: ['machine'] });
    const [id] = positionals;
    if (!id || positionals.length > 1) throw new CommandError(`usage: ${command.usage}`, 2);
    if (!isUuid(id)) throw new CommandError(`"${id}" is not a conversation id (see tether sessions --outside)`, 2);
    const creds = requireCredentials();
    const control = await import('../hub-link/session-control.ts');
    let machineId: string | undefined;
    if (typeof flags.machine === 'string') {
      const { machines } = await getHubJson({ creds, path: '/api/machines', schema: MachineListSchema, what: 'a machine list' });
      const picked = control.pickMachine(machines, flags.machine);
      if (typeof picked === 'string') throw new CommandError(picked);
      machineId = picked.id;
    }
    const client = await connectAsPhone({ creds, device: 'tether adopt' });
    try {
      const ack = await control.adoptConversation(client, { agentSessionId: id, launchKind: flags.pty ? 'pty' : 'headless', fork: flags.fork === true, ...(machineId ? { machineId } : {}) });
      if (!ack.ok) {
        if (flags.json) process.stdout.write(`${JSON.stringify({ ok: false, code: ack.code, reason: ack.reason ?? null, error: ack.error })}\n`);
        throw new CommandError(`adopt failed${ack.reason ? ` (${ack.reason})` : ''}: ${ack.error}`);
      }
      const s = ack.session;
      if (flags.json) process.stdout.write(`${JSON.stringify({ ok: true, sessionId: s.id, machineId: s.machineId, launchKind: s.launchKind, status: s.status, agentSessionId: s.agentSessionId })}\n`);
      else process.stdout.write(`${flags.fork ? 'forked' : 'adopted'} as ${s.id} (${s.launchKind}, ${s.status}); tether attach ${s.id} to drive it here\n`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
