// resumability.ts: whether the phone can resume an ended session now, and if not, the reason a
// person reads under the disabled Resume. Same rules as the hub's session:resume (which decides;
// this only spares a tap that would be refused).
import type { Machine, Session } from '@tether/shared';
import { agentName } from '../../lib/format.ts';

export type Resumability = { ok: true; machineName: string } | { ok: false; reason: string };

export function resumability(session: Pick<Session, 'claudeSessionId' | 'machineId'> & Partial<Pick<Session, 'agent'>>, machines: readonly Pick<Machine, 'id' | 'name' | 'online'>[] | undefined): Resumability {
  const agent = session.agent ?? 'claude';
  if (!session.claudeSessionId) return { ok: false, reason: `${agentName(agent)} never started a conversation in this session, so there is nothing to resume.` };
  if (!session.machineId) {
    const again = agent === 'codex' ? `tether codex resume ${session.claudeSessionId}` : `claude --resume ${session.claudeSessionId} (or tether claude --resume)`;
    return { ok: false, reason: `This session was started at a desk: resume it there with ${again}.` };
  }
  if (!machines) return { ok: false, reason: 'Looking up its machine…' };
  const machine = machines.find((m) => m.id === session.machineId);
  if (!machine) return { ok: false, reason: 'Its machine is no longer registered with this hub.' };
  if (!machine.online) return { ok: false, reason: `${machine.name} is offline: start tether daemon there to resume this session.` };
  return { ok: true, machineName: machine.name };
}
