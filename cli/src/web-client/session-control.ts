// session-control.ts: spawn / stop / resume a session through the hub's /web namespace, as the
// phone does, for `tether spawn`, `tether stop` and `tether attach`. Longer ack timeouts than other
// requests: the hub acks a spawn only once claude is ready, a stop only once it has ended.
import {
  SPAWN_ACK_TIMEOUT_MS,
  STOP_ACK_TIMEOUT_MS,
  type Ack,
  type Machine,
  type OutsideAdopt,
  type SessionSpawn,
  type SessionStop,
  type SpawnFailureReason,
  type WebAcks,
} from '@tether/shared';
import type { WebClient } from './web-client.ts';

type ControlEvent = 'session:spawn' | 'session:stop' | 'session:resume' | 'outside:adopt';
export type ControlAck<E extends ControlEvent> = Ack<WebAcks[E]> & { reason?: SpawnFailureReason };

async function ask<E extends ControlEvent>(client: WebClient, event: E, payload: unknown, timeoutMs: number): Promise<ControlAck<E>> {
  try {
    return (await client.socket.timeout(timeoutMs).emitWithAck(event, payload)) as ControlAck<E>;
  } catch {
    return { ok: false, code: 'internal', error: `the hub did not answer ${event} within ${timeoutMs / 1000} s` };
  }
}

export const spawnSession = (client: WebClient, spawn: SessionSpawn) => ask(client, 'session:spawn', spawn, SPAWN_ACK_TIMEOUT_MS);
/** `reviews`: what becomes of its live reviews (shared SessionStop); left out, a session that has
 *  some is refused with them listed (reason `reviews_live`). */
export const stopSession = (client: WebClient, stop: SessionStop) => ask(client, 'session:stop', stop, STOP_ACK_TIMEOUT_MS);
/** `fork`: its conversation continues in a new session, the original left as it was. */
export const resumeSession = (client: WebClient, sessionId: string, launchKind?: 'pty' | 'headless', fork = false) =>
  ask(client, 'session:resume', { sessionId, ...(launchKind ? { launchKind } : {}), ...(fork ? { fork } : {}) }, SPAWN_ACK_TIMEOUT_MS);

/** Continue a conversation found on a machine (shared outside.ts) as a tether session. */
export const adoptConversation = (client: WebClient, adopt: OutsideAdopt) => ask(client, 'outside:adopt', adopt, SPAWN_ACK_TIMEOUT_MS);

/** A machine by id, or by name when that name is unique. */
export function pickMachine(machines: readonly Machine[], wanted: string): Machine | string {
  const byId = machines.find((m) => m.id === wanted);
  if (byId) return byId;
  const byName = machines.filter((m) => m.name === wanted);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) return `several machines are named "${wanted}"; use the id (tether machines)`;
  return `no machine "${wanted}" (tether machines lists them)`;
}
