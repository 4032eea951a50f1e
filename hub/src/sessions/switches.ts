// switches.ts: what a live session's agent takes from the phone (set-model, set-effort, set-mode),
// decided by the capabilities its runner stated (shared agent-capabilities.ts), never by the agent's
// name. A session whose runner stated none (older than capabilities) switches nothing. Bypass mode is
// refused by the runner unless the session was started allowing it (the hub cannot know).
import { ackError, canSwitch, effortFor, type AckError, type CliServerToClient, type Session, type Switch } from '@tether/shared';

export type SwitchCommand = 'session:set-model' | 'session:set-effort' | 'session:set-mode';
export type SwitchPayload = Parameters<CliServerToClient[SwitchCommand]>[0];

const SWITCHES: Record<SwitchCommand, Switch> = { 'session:set-model': 'models', 'session:set-effort': 'effort', 'session:set-mode': 'modes' };

/** Why the session's agent does not take this from the phone (a `bad_request` saying what it does
 *  take), or null when it does. */
export function refusal(session: Session, event: SwitchCommand, payload: SwitchPayload): AckError | null {
  const what = SWITCHES[event];
  const caps = session.capabilities;
  const noun = event.slice('session:set-'.length);
  if (!caps) return ackError('bad_request', `${session.agent} sessions do not switch ${noun} from here (its runner stated no capabilities)`);
  if (!canSwitch(caps, what, session.launchKind)) {
    const other = session.launchKind === 'pty' ? 'headless' : 'PTY';
    if (caps[what].switchableIn.length > 0) return ackError('bad_request', `${caps.displayName} switches ${noun} from here in a ${other} session only`);
    return ackError('bad_request', `${caps.displayName} sessions do not switch ${noun} from here`);
  }
  if ('level' in payload && !effortFor(caps, payload.level)) return ackError('bad_request', `${caps.displayName} has no effort level ${payload.level}`);
  if ('mode' in payload && !caps.modes.values.includes(payload.mode)) return ackError('bad_request', `${caps.displayName} has no permission mode ${payload.mode}`);
  if ('model' in payload && !caps.models.typed && !caps.models.offered.includes(payload.model)) {
    return ackError('bad_request', `${caps.displayName} takes only these models: ${caps.models.offered.join(', ')}`);
  }
  return null;
}

/** What the runner is sent: an effort level as the agent's own (a level it lacks as the one its
 *  capabilities map it to: Codex's max → xhigh); anything else as asked. */
export function asked<P extends { sessionId: string }>(session: Session, payload: P): P {
  if (!('level' in payload) || !session.capabilities) return payload;
  const level = effortFor(session.capabilities, payload.level as Parameters<typeof effortFor>[1]);
  return level ? { ...payload, level } : payload;
}
