// broadcast.ts: typed fan-out of hub facts to rooms. Room names come only from shared/rooms.ts with
// the namespace of the connection that caused the fact, never from a client payload.
//   /web namespaceRoom: session list, approvals, prompts, machines  (every tab of the namespace)
//   /web sessionRoom:   chat messages of one session                (tabs watching it)
//   terminal bytes go to each viewer's own socket (hub/terminal rooms keep per-viewer positions)
//   /cli runnerRoom:    commands for the runner that owns a session
import type { Server } from 'socket.io';
import {
  namespaceRoom,
  runnerRoom,
  sessionRoom,
  type CliServerToClient,
  type Namespace,
  type WebServerToClient,
} from '@tether/shared';

export type Broadcast = ReturnType<typeof createBroadcast>;

export function createBroadcast(options: { io: Server }) {
  const web = options.io.of('/web');
  const cli = options.io.of('/cli');
  return {
    toNamespace<E extends 'session:updated' | 'prompt:updated' | 'approval:requested' | 'approval:resolved' | 'session:attention' | 'machine:updated'>(
      ns: Namespace,
      event: E,
      payload: Parameters<WebServerToClient[E]>[0],
    ): void {
      web.to(namespaceRoom(ns)).emit(event, payload);
    },
    toSession(ns: Namespace, sessionId: string, payload: Parameters<WebServerToClient['message:added']>[0]): void {
      web.to(sessionRoom(ns, sessionId)).emit('message:added', payload);
    },
    toRunner<E extends keyof CliServerToClient>(ns: Namespace, sessionId: string, event: E, payload: Parameters<CliServerToClient[E]>[0]): void {
      cli.to(runnerRoom(ns, sessionId)).emit(event, payload);
    },
  };
}
