// handle.ts: the one way a socket event reaches a handler. Every payload is parsed with its shared
// schema first; a bad payload gets `ackError('bad_request', …)`, a thrown error `ackError('internal')`.
// Invariant: no client input can throw out of here (a missing or non-function ack is tolerated, an
// unknown event is answered, every exception is caught), so no client can crash the hub.
// Order: a socket's events are handled one at a time in arrival order (the store is async, so two
// events of one socket would otherwise interleave: keystrokes, a chat batch then session:end), except
// the `unordered` ones, which wait on another party (a daemon, a runner) and must not hold the rest up.
import type { z } from 'zod';
import { ackError, describeZodError, MAX_PAYLOAD_DEPTH, payloadTooDeep, type Ack } from '@tether/shared';
import type { HubSocket } from './peer.ts';


type Handlers<M extends Record<string, z.ZodType>, A extends { [E in keyof M]: object }> = {
  [E in keyof M]: (payload: z.output<M[E]>) => Ack<A[E]> | Promise<Ack<A[E]>>;
};

export function handleSocketEvents<M extends Record<string, z.ZodType>, A extends { [E in keyof M]: object }>(options: {
  socket: HubSocket;
  schemas: M;
  handlers: Handlers<M, A>;
  /** Where an unexpected handler error is reported (never with the payload: it may hold secrets). */
  onError: (event: string, error: unknown) => void;
  /** Events handled as they come, outside the socket's order (see above). */
  unordered?: ReadonlySet<string>;
}): void {
  const { socket, schemas, handlers } = options;
  const known = (event: unknown): event is keyof M & string => typeof event === 'string' && Object.hasOwn(schemas, event);

  const reply = (ack: unknown, result: Ack<object>) => {
    if (typeof ack !== 'function') return;
    try {
      ack(result);
    } catch {
      // The client vanished mid-answer; nothing to tell it.
    }
  };

  const run = async (event: keyof M & string, args: unknown[]) => {
    const ack = typeof args[args.length - 1] === 'function' ? args[args.length - 1] : undefined;
    const payload = ack && args.length === 1 ? undefined : args[0];
    let result: Ack<object>;
    try {
      const parsed = payloadTooDeep(payload) ? null : schemas[event]!.safeParse(payload);
      if (parsed === null) {
        result = ackError('bad_request', `${event}: nested deeper than ${MAX_PAYLOAD_DEPTH} levels`);
      } else if (!parsed.success) {
        result = ackError('bad_request', `${event}: ${describeZodError(parsed.error)}`);
      } else {
        result = await handlers[event](parsed.data as z.output<M[typeof event]>);
      }
    } catch (error) {
      options.onError(event, error);
      result = ackError('internal', 'internal error');
    }
    reply(ack, result);
  };

  // `run` never rejects, so the chain never breaks.
  let tail: Promise<void> = Promise.resolve();
  // socket.io's typed `on` cannot see our schema map; the map itself is what keeps this sound.
  const untyped = socket as unknown as { on(event: string, listener: (...args: unknown[]) => void): void };
  for (const event of Object.keys(schemas) as Array<keyof M & string>) {
    untyped.on(event, (...args: unknown[]) => {
      if (options.unordered?.has(event)) {
        void run(event, args);
        return;
      }
      tail = tail.then(() => run(event, args));
    });
  }
  socket.onAny((event: unknown, ...args: unknown[]) => {
    if (known(event)) return;
    const name = typeof event === 'string' ? event.slice(0, 100) : typeof event;
    reply(args[args.length - 1], ackError('bad_request', `unknown event "${name}"`));
  });
  // A client may send an event literally named "error"; without a listener EventEmitter would throw.
  untyped.on('error', () => {});
}
