// runners.ts: the other direction from facts: a command for the runner that owns a session
// (prompt:deliver, approval:answered, session:stop…). Domain rooms hold this port; the socket
// rooms (sockets/rooms.ts) carry it to the session's runner room, on whichever hub the runner is.
import type { CliServerToClient, Namespace } from '@tether/shared';

export type RunnerCommands = {
  send<E extends keyof CliServerToClient>(ns: Namespace, sessionId: string, event: E, payload: Parameters<CliServerToClient[E]>[0]): void;
};
