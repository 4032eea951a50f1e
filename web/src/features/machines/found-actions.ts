// found-actions.ts: what the phone offers for one conversation found on a machine ("Found on this
// machine"), decided from the entry and the machine's capabilities only (no agent is named here):
//
//   a background session the agent runs (backgroundId) ─► Adopt: attach to it live, in a terminal
//   a live one in someone's terminal                   ─► not shareable while it runs: no Adopt
//   a past conversation                                ─► Adopt (chat only) · Adopt in terminal
//   any of them, where the agent forks                 ─► Fork (a new conversation, this one left as is)
//
// Invariant: nothing is offered that the hub would refuse for what the row shows; what is not
// offered says why (the agent's own reason for no fork; the machine to start the daemon on, once
// at the page's top: offlineNote).
import { agentDisplayName } from '@tether/shared/wire';
import type { Machine, OutsideSession } from '@tether/shared';
import { startDaemonOn } from '../../lib/daemon-hint.ts';

/** One button of a row: adopt as `launchKind` (or `attached` to a live one), or fork. */
export type FoundAction = { kind: 'adopt' | 'fork'; launchKind: 'headless' | 'pty'; label: string; hint: string };

export type FoundOffer = {
  /** Where it stands, in a few words ("Running in Claude's pool", "Past conversation"). */
  state: string;
  /** The row's tone: live rows are marked. */
  live: boolean;
  actions: FoundAction[];
  /** Why something is not offered (a live terminal session, no fork, the daemon offline). */
  notes: string[];
};

/** Why this machine's agent cannot fork, or null when it can. */
function noFork(entry: Pick<OutsideSession, 'agent'>, machine: Pick<Machine, 'capabilities'>): string | null {
  const fork = machine.capabilities[entry.agent]?.fork;
  if (fork?.supported) return null;
  const name = agentDisplayName(entry.agent, machine.capabilities[entry.agent]);
  return `No fork: ${fork?.reason ?? `tether on this machine is older than forks of ${name}`}`;
}

export function foundOffer(entry: Pick<OutsideSession, 'agent' | 'live' | 'backgroundId'>, machine: Pick<Machine, 'capabilities'>): FoundOffer {
  const name = agentDisplayName(entry.agent, machine.capabilities[entry.agent]);
  const fork: FoundAction = { kind: 'fork', launchKind: 'headless', label: 'Fork', hint: `Continues it as a new ${name} conversation; this one stays as it is` };
  const forkRefused = noFork(entry, machine);
  const forks = forkRefused ? [] : [fork];
  const forkNotes = forkRefused ? [forkRefused] : [];
  let offer: FoundOffer;
  if (entry.backgroundId) {
    offer = {
      state: `Running in ${name}'s pool`,
      live: true,
      actions: [{ kind: 'adopt', launchKind: 'pty', label: 'Adopt', hint: `Attaches to background session ${entry.backgroundId} live: its terminal and chat here, no hook approvals` }, ...forks],
      notes: forkNotes,
    };
  } else if (entry.live) {
    offer = {
      state: 'Running in a terminal',
      live: true,
      actions: forks,
      notes: [`A ${name} running in someone's terminal cannot be shared while it runs: continue it here once it has ended.`, ...forkNotes],
    };
  } else {
    offer = {
      state: 'Past conversation',
      live: false,
      actions: [
        { kind: 'adopt', launchKind: 'headless', label: 'Adopt', hint: `Continues it under tether with its history, chat only` },
        { kind: 'adopt', launchKind: 'pty', label: 'Adopt in terminal', hint: `Continues it in ${name}'s own screen, mirrored here (PTY)` },
        ...forks,
      ],
      notes: forkNotes,
    };
  }
  return offer;
}

/** Said once, at the page's top, while the machine's daemon is offline (every button waits for it). */
export function offlineNote(machineName: string): string {
  return `Daemon offline: ${startDaemonOn(machineName)} to adopt or fork.`;
}

/** Where an adopted session opens: a terminal one on its terminal, a chat-only one on its chat. */
export function adoptedTarget(session: { id: string; launchKind: string }): { to: '/sessions/$sessionId/terminal' | '/sessions/$sessionId'; params: { sessionId: string } } {
  return { to: session.launchKind === 'pty' ? '/sessions/$sessionId/terminal' : '/sessions/$sessionId', params: { sessionId: session.id } };
}

/** A refusal in the words the row shows: the daemon to start, or the hub's own reason. */
export function adoptFailure(o: { reason: string | undefined; message: string; machineName: string }): string {
  if (o.reason === 'machine_offline') return `${o.machineName} is offline: ${startDaemonOn(o.machineName)}.`;
  return o.message.charAt(0).toUpperCase() + o.message.slice(1);
}
