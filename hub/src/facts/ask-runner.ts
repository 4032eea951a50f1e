// ask-runner.ts: one question to a session's runner (a workspace read, a git action) and its answer,
// read with the shared schema. A runner that is not connected, does not answer in time, or answers
// what this hub cannot read is a clear error, never an empty answer.
import { AckErrorSchema, ackError, type Ack, type Namespace, type RunnerQueryName, type RunnerQuerySchemas } from '@tether/shared';
import type { z } from 'zod';
import type { RunnerCommands } from './runners.ts';

/** What reads a runner's answer: any shared schema. */
type AnswerSchema<T> = { safeParse(value: unknown): { success: true; data: T } | { success: false } };

export async function askRunner<E extends RunnerQueryName, T extends object>(o: {
  runners: RunnerCommands;
  ns: Namespace;
  sessionId: string;
  event: E;
  payload: z.input<(typeof RunnerQuerySchemas)[E]>;
  timeoutMs: number;
  schema: AnswerSchema<T>;
  /** What a tether older than the hub does not know (it never answers): named in the timeout's error. */
  asked: string;
  /** Of several sockets' answers, the one to take first (a save: the socket that wrote, not the
   *  one that then found the file changed by it). */
  prefer?: (answer: T) => boolean;
}): Promise<Ack<T>> {
  let answers: unknown[];
  try {
    answers = await o.runners.ask(o.ns, o.sessionId, o.event, o.payload, o.timeoutMs);
  } catch {
    return ackError('internal', `the session's runner did not answer within ${Math.round(o.timeoutMs / 1000)} s (a tether older than the hub does not know ${o.asked})`);
  }
  if (answers.length === 0) return ackError('conflict', "the session's runner is not connected to the hub right now (its machine may be asleep or offline)");
  // One runner per session; a second socket of it (a reconnect not yet noticed) answers the same.
  const read = answers.map((raw) => readAnswer(raw, o.schema));
  return read.find((a) => a.ok && (o.prefer?.(a) ?? true)) ?? read.find((a) => a.ok) ?? read[0]!;
}

function readAnswer<T extends object>(raw: unknown, schema: AnswerSchema<T>): Ack<T> {
  if (raw && typeof raw === 'object' && (raw as { ok?: unknown }).ok === true) {
    const { ok: _ok, ...rest } = raw as Record<string, unknown>;
    const parsed = schema.safeParse(rest);
    if (parsed.success) return { ok: true, ...parsed.data };
  }
  const refused = AckErrorSchema.safeParse(raw);
  if (refused.success) return refused.data;
  return ackError('internal', "the session's runner sent an answer this hub cannot read (an older or newer tether?)");
}
