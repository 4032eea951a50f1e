// protocol.ts: the wire version, the socket handshake, and the one ack shape every event answers.
import { z } from 'zod';
import { PROTOCOL_VERSION } from './wire.ts';

export { PROTOCOL_VERSION } from './wire.ts';

export const ClientKindSchema = z.enum(['runner', 'daemon', 'cli', 'web']);
export type ClientKind = z.infer<typeof ClientKindSchema>;

/** socket.io `auth` object. Runners/daemons/cli send the access token; browsers the web session. */
export const HandshakeSchema = z.object({
  protocol: z.number().int(),
  client: ClientKindSchema,
  token: z.string().min(1).max(4096),
  /** A name for the device, shown in the audit trail ("Pixel 8", "tether answer"). */
  device: z.string().max(200).optional(),
});
export type Handshake = z.infer<typeof HandshakeSchema>;

export function protocolMismatch(clientMajor: number): string | null {
  if (clientMajor === PROTOCOL_VERSION.major) return null;
  return `protocol version mismatch: client speaks v${clientMajor}, hub speaks v${PROTOCOL_VERSION.major}; update the older side`;
}

export const ErrorCodeSchema = z.enum([
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'too_large',
  'rate_limited',
  'gone',
  'internal',
  'unavailable',
  'bad_gateway',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export type AckError = { ok: false; code: ErrorCode; error: string };
/** An error ack as another process sent it (a runner's answer forwarded by the hub). */
export const AckErrorSchema = z.object({ ok: z.literal(false), code: ErrorCodeSchema, error: z.string().max(2000) });
export type Ack<T extends object = object> = ({ ok: true } & T) | AckError;
export type AckFn<T extends object = object> = (ack: Ack<T>) => void;

/** An ack as another process sent it (a daemon's answer to a hub command): `ok` with the fields of
 *  `payload` (others dropped), or an error ack of `error`'s shape. The receiver parses it before it
 *  reads a field: a daemon of another version or a bug answers a clear error, never a throw. */
export function ackSchemaOf<P extends z.ZodRawShape, E extends z.ZodRawShape>(payload: z.ZodObject<P>, error: z.ZodObject<E>) {
  return z.discriminatedUnion('ok', [payload.extend({ ok: z.literal(true) }), error]);
}

export function ackError(code: ErrorCode, error: string): AckError {
  return { ok: false, code, error };
}

/** `answer`, with any failure it did not expect as an `internal` error ack ("<what> failed: …", the
 *  message capped) instead of a rejection: an answer to the hub is an ack, never an exception into
 *  the socket layer. */
export function ackingFailures<Q, T extends object>(what: string, answer: (query: Q) => Promise<Ack<T>> | Ack<T>): (query: Q) => Promise<Ack<T>> {
  return async (query) => {
    try {
      return await answer(query);
    } catch (error) {
      return ackError('internal', `${what} failed: ${error instanceof Error ? error.message.slice(0, 300) : 'unknown error'}`);
    }
  };
}

/** One readable line from a zod error: "field.path: message; other: message". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
