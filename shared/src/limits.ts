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
