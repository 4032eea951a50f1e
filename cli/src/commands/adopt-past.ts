// adopt-past.ts: `tether adopt <conversation id>`: continue a conversation found on one of this user's
// machines (tether sessions --outside) as a tether session: resumed by the machine's daemon with its
// history (claude --resume, codex resume, gemini --resume), its chat rebuilt from the agent's own
// record; `--fork` continues it as a new conversation and leaves it as it was. Prints the new
// session's id once the agent is ready; exits non-zero with the hub's reason (a live process still
// writes it, someone else adopted it, its record is damaged or too large…).
import { MachineListSchema } from '@tether/shared';
import { CommandError } from './command.ts';
import { connectAsPhone, getHubJson, requireCredentials } from './hub-access.ts';

export async function adoptConversation(o: { id: string; machine: string | undefined; pty: boolean; fork: boolean; json: boolean }): Promise<number> {
  const creds = requireCredentials();
  const control = await import('../web-client/session-control.ts');
  let machineId: string | undefined;
  if (o.machine !== undefined) {
    const { machines } = await getHubJson({ creds, path: '/api/machines', schema: MachineListSchema, what: 'a machine list' });
    const picked = control.pickMachine(machines, o.machine);
    if (typeof picked === 'string') throw new CommandError(picked);
    machineId = picked.id;
  }
  const client = await connectAsPhone({ creds, device: 'tether adopt' });
  try {
    const ack = await control.adoptConversation(client, { agentSessionId: o.id, launchKind: o.pty ? 'pty' : 'headless', fork: o.fork, ...(machineId ? { machineId } : {}) });
    if (!ack.ok) {
      if (o.json) process.stdout.write(`${JSON.stringify({ ok: false, code: ack.code, reason: ack.reason ?? null, error: ack.error })}\n`);
      throw new CommandError(`adopt failed${ack.reason ? ` (${ack.reason})` : ''}: ${ack.error}`);
    }
    const s = ack.session;
    if (o.json) process.stdout.write(`${JSON.stringify({ ok: true, sessionId: s.id, machineId: s.machineId, launchKind: s.launchKind, status: s.status, agentSessionId: s.agentSessionId })}\n`);
    else process.stdout.write(`${o.fork ? 'forked' : 'adopted'} as ${s.id} (${s.launchKind}, ${s.status}); tether attach ${s.id} to drive it here\n`);
    return 0;
  } finally {
    client.close();
  }
}
