// runners.ts: the other direction from facts: a command for the runner that owns a session
// (prompt:deliver, approval:answered, session:stop…), or a question it answers (workspace:query).
// Domain rooms hold this port; the socket rooms (sockets/rooms.ts) carry it to the session's runner
// room, on whichever hub the runner is.
import type { CliCommandName, CliServerToClient, Namespace, RunnerQueryName, RunnerQuerySchemas } from '@tether/shared';
import type { z } from 'zod';

export type RunnerCommands = {
  send<E extends CliCommandName>(ns: Namespace, sessionId: string, event: E, payload: Parameters<CliServerToClient[E]>[0]): void;
  /** Whether a runner of the session is connected (to any hub); unsure (a hub did not answer) is yes. */
  present(ns: Namespace, sessionId: string): Promise<boolean>;
  /** Asks the session's runner (on any hub) and resolves with every answer heard within
   *  `timeoutMs`: [] when no runner of the session is connected; rejects when one did not answer. */
  ask<E extends RunnerQueryName>(ns: Namespace, sessionId: string, event: E, payload: z.input<(typeof RunnerQuerySchemas)[E]>, timeoutMs: number): Promise<unknown[]>;
};
