// limits.ts: size caps enforced on both ends. A payload over a cap is refused with a clear error
// before it is parsed further; nothing over a cap reaches storage.

/** Largest HTTP body or socket event the hub accepts. 1 MiB fits a long pasted prompt and a
 *  large tool input, and keeps one client from making the hub buffer unbounded data. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

/** Longest prompt text. Claude itself accepts more, but a phone composer never needs it. */
export const MAX_PROMPT_CHARS = 200_000;

/** Largest batch of chat messages in one `message:append`. Keeps one ack under ~1 MiB. */
export const MAX_MESSAGES_PER_BATCH = 200;

/** Largest page of messages over REST. */
export const MAX_PAGE_LIMIT = 500;

/** Longest generic label (titles, machine names, reasons). */
export const MAX_LABEL_CHARS = 500;

/** Longest path string (cwd, transcript path). Linux PATH_MAX. */
export const MAX_PATH_CHARS = 4096;

/** Deepest nesting of arrays and objects in a payload (a tool input, a chat block). Real ones are a
 *  few levels deep; checked before a schema, so over-deep input is `bad_request`, never a stack
 *  overflow in a recursive walk (schema, JSON.stringify, the socket.io encoder) further on. */
export const MAX_PAYLOAD_DEPTH = 100;

/** Whether `value` nests deeper than `max` levels. Iterative: it must not overflow itself. */
export function payloadTooDeep(value: unknown, max = MAX_PAYLOAD_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    // Binary data (terminal output, 1 MiB a chunk) nests nothing: walking its bytes as values made
    // every chunk cost a quarter-million-element array and backed the runner's link up into resyncs.
    if (ArrayBuffer.isView(current) || current instanceof ArrayBuffer) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
