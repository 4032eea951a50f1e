// resumability.ts: whether the phone can resume an ended session now, and if not, the reason a
// person reads under the disabled Resume. Same rules as the hub's session:resume (which decides;
// this only spares a tap that would be refused).
import type { Machine, Session } from '@tether/shared';
import { agentDisplayName, DEFAULT_AGENT, resumeAtDesk } from '@tether/shared/wire';
import { startDaemonOn } from '../../lib/daemon-hint.ts';

export type Resumability = { ok: true; machineName: string } | { ok: false; reason: string };

export function resumability(
  session: Pick<Session, 'agentSessionId' | 'machineId'> & Partial<Pick<Session, 'agent' | 'capabilities'>>,
  machines: readonly Pick<Machine, 'id' | 'name' | 'online'>[] | undefined,
): Resumability {
  const agent = session.agent ?? DEFAULT_AGENT;
  const name = agentDisplayName(agent, session.capabilities);
  if (!session.agentSessionId) return { ok: false, reason: `${name} never started a conversation in this session, so there is nothing to resume.` };
  if (!session.machineId) {
    // The command is the agent's (its capabilities); a runner older than them named none.
    const again = session.capabilities ? `with ${resumeAtDesk(session.capabilities, session.agentSessionId)}` : `(${name}'s session ${session.agentSessionId})`;
    // A desk whose machine runs tether daemon (same TETHER_HOME) names the machine: say how to get there.
    return { ok: false, reason: `This session was started at a desk without tether daemon: resume it there ${again}, or run tether daemon on that machine so its desk sessions can be resumed from here.` };
  }
  if (!machines) return { ok: false, reason: 'Looking up its machine…' };
  const machine = machines.find((m) => m.id === session.machineId);
  if (!machine) return { ok: false, reason: 'Its machine is no longer registered with this hub.' };
  if (!machine.online) return { ok: false, reason: `${machine.name} is offline: ${startDaemonOn(machine.name)} to resume this session.` };
  return { ok: true, machineName: machine.name };
}

/** What a resume from here starts the agent with besides its conversation and folder (the hub's
 *  session:resume; docs/decisions/daemon.md lists what it carries and what not), or null when that
 *  is only the agent's defaults. */
export function resumeCarries(session: Pick<Session, 'model' | 'permissionMode'> & Partial<Pick<Session, 'addedDirs'>>): string | null {
  const dirs = session.addedDirs ?? [];
  const parts = [
    ...(session.model ? [session.model] : []),
    ...(session.permissionMode !== 'default' ? [`${session.permissionMode} mode`] : []),
    ...(dirs.length > 0 ? [`${dirs.length === 1 ? 'the added folder' : 'the added folders'} ${dirs.join(', ')}`] : []),
  ];
  return parts.length > 0 ? `With ${parts.join(', ')}.` : null;
}
