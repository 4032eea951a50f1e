// rooms.ts: the only place socket.io room names are built. Every name starts with the caller's
// authenticated namespace, which the hub takes from the connection, never from a payload.
import type { Namespace, SessionId } from './ids.ts';

/** Everything about sessions of one namespace (list updates, approvals badges). */
export function namespaceRoom(ns: Namespace): string {
  return `ns:${ns}`;
}
/** Chat messages and state of one session. */
export function sessionRoom(ns: Namespace, sessionId: SessionId): string {
  return `ns:${ns}:session:${sessionId}`;
}
/** Live PTY bytes of one session. */
export function terminalRoom(ns: Namespace, sessionId: SessionId): string {
  return `ns:${ns}:terminal:${sessionId}`;
}
/** The runner process that owns a session (one socket). */
export function runnerRoom(ns: Namespace, sessionId: SessionId): string {
  return `ns:${ns}:runner:${sessionId}`;
}
/** Every `/cli` socket of one machine's `tether daemon` (on whichever hub it is connected to). */
export function machineRoom(ns: Namespace, machineId: string): string {
  return `ns:${ns}:machine:${machineId}`;
}
