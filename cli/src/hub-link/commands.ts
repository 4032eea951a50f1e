// commands.ts: hub → client commands on the `/cli` socket. Each is validated with its shared schema
// before a handler sees it. A runner's commands name its session (another session's are ignored);
// a daemon's are acked with what its handler returns, a bad payload with bad_request. A runner's
// queries (workspace:query) are acked with what their handler resolves to.
import type { Socket } from 'socket.io-client';
import {
  ackError,
  CliCommandSchemas,
  DaemonCommandSchemas,
  describeZodError,
  RunnerQuerySchemas,
  type RunnerQueryAcks,
  type RunnerQueryName,
  type Ack,
  type CliCommandName,
  type DaemonCommandAcks,
} from '@tether/shared';
import type { z } from 'zod';

export type HubCommandHandlers = {
  [E in CliCommandName]?: (payload: z.infer<(typeof CliCommandSchemas)[E]>) => void;
};

export type RunnerQueryHandlers = {
  [E in RunnerQueryName]?: (payload: z.infer<(typeof RunnerQuerySchemas)[E]>) => Promise<Ack<RunnerQueryAcks[E]>>;
};

type DaemonCommandName = keyof typeof DaemonCommandSchemas;
export type DaemonCommandHandlers = {
  [E in DaemonCommandName]: (payload: z.infer<(typeof DaemonCommandSchemas)[E]>) => Ack<DaemonCommandAcks[E]> | Promise<Ack<DaemonCommandAcks[E]>>;
};

/** Who the commands are for: a session's runner, or a machine's daemon. */
export type CommandListener =
  | { client: 'runner'; sessionId: string; handlers: HubCommandHandlers; queries?: RunnerQueryHandlers }
  | { client: 'daemon'; handlers: DaemonCommandHandlers };

export function listenForCommands(socket: Socket, listener: CommandListener): void {
  const schemas: Record<string, z.ZodType> = listener.client === 'runner' ? CliCommandSchemas : DaemonCommandSchemas;
  const handlers = listener.handlers as Record<string, ((payload: unknown) => unknown) | undefined>;
  for (const [name, schema] of Object.entries(schemas)) {
    socket.on(name, (raw: unknown, ack?: unknown) => {
      // The hub acks-waits only for a daemon's commands; a runner's come without an ack function.
      const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : () => {};
      const parsed = schema.safeParse(raw);
      if (!parsed.success) return reply(ackError('bad_request', describeZodError(parsed.error)));
      if (listener.client === 'runner' && (parsed.data as { sessionId: string }).sessionId !== listener.sessionId) return;
      const handler = handlers[name];
      if (!handler) return reply(ackError('bad_request', `${name} is not handled here`));
      const answer = handler(parsed.data);
      // A daemon's git work (worktrees) answers later; a runner's commands stay synchronous, in order.
      if (answer instanceof Promise) answer.then(reply, (error: unknown) => reply(ackError('internal', error instanceof Error ? error.message.slice(0, 300) : 'failed')));
      else reply(answer);
    });
  }
  if (listener.client === 'runner') listenForQueries(socket, listener.sessionId, listener.queries ?? {});
}

function listenForQueries(socket: Socket, sessionId: string, queries: RunnerQueryHandlers): void {
  const handlers = queries as Record<string, ((payload: unknown) => Promise<unknown>) | undefined>;
  for (const [name, schema] of Object.entries(RunnerQuerySchemas) as Array<[string, z.ZodType]>) {
    socket.on(name, (raw: unknown, ack?: unknown) => {
      if (typeof ack !== 'function') return;
      const reply = ack as (answer: unknown) => void;
      const parsed = schema.safeParse(raw);
      if (!parsed.success) return reply(ackError('bad_request', describeZodError(parsed.error)));
      if ((parsed.data as { sessionId: string }).sessionId !== sessionId) return reply(ackError('not_found', 'not this runner\'s session'));
      const handler = handlers[name];
      if (!handler) return reply(ackError('bad_request', `${name} is not handled here`));
      handler(parsed.data).then(reply, (error: unknown) => reply(ackError('internal', error instanceof Error ? error.message.slice(0, 300) : 'failed')));
    });
  }
}
