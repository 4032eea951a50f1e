// limits.ts: size caps enforced on both ends, and the time bounds of starting and ending a session
// that the hub, the runner and its clients (web, `tether spawn`/`stop`/`resume`) must agree on. A
// payload over a cap is refused with a clear error before it is parsed further; nothing over a cap
// reaches storage. The time bounds nest: the runner gives up before the hub, the hub answers before
// a client gives up, so whoever knows why a session did not start or stop is the one who says it.

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
/** A sub-agent's nickname or role on an approval (approvals.ts AskedBy). */
export const MAX_ASKER_NAME_CHARS = 60;

/** Longest path string (cwd, transcript path). Linux PATH_MAX. */
export const MAX_PATH_CHARS = 4096;

/** Deepest nesting of arrays and objects in a payload (a tool input, a chat block). Real ones are a
 *  few levels deep; checked before a schema, so over-deep input is `bad_request`, never a stack
 *  overflow in a recursive walk (schema, JSON.stringify, the socket.io encoder) further on. */
export const MAX_PAYLOAD_DEPTH = 100;

/** How long the hub waits for a spawned (or resumed) session to be ready. claude and Codex are
 *  ready in ~1 s; a cold start on a loaded machine (first run, slow disk) gets 45 s. */
export const SESSION_READY_TIMEOUT_MS = 45_000;

/** How long the hub waits for a session asked to end to report its end before it has the daemon
 *  SIGKILL the runner. The agent exits within ~100 ms of its own exit keys or SIGTERM, the runner's
 *  ender tries its clean path for AGENT_END_GRACE_MS, then the runner drains for ≤ 3 s. */
export const SESSION_STOP_GRACE_MS = 8_000;

/** How long the runner's ender walks the agent's own exit path (Ctrl-C pairs, closed input) before
 *  its SIGTERM: below SESSION_STOP_GRACE_MS so the runner's own last resort comes before the hub's. */
export const AGENT_END_GRACE_MS = 5_000;

/** After the daemon's SIGKILL, how long the hub waits for the end: the daemon notices the exit
 *  within its poll interval (1 s). */
export const SESSION_KILL_WAIT_MS = 5_000;

/** How long a client (web, `tether spawn`/`resume`) waits for the hub's answer to a spawn or resume:
 *  the hub's ready bound plus the daemon's spawn ack and a margin, so the hub's answer (ready, or
 *  why not) always comes first. */
export const SPAWN_ACK_TIMEOUT_MS = SESSION_READY_TIMEOUT_MS + 15_000;

/** How long a client (web End, `tether stop`) waits for the hub's answer to a stop: above the hub's
 *  grace, its daemon:kill ack (15 s at most) and its kill wait, so the hub's answer comes first. */
export const STOP_ACK_TIMEOUT_MS = 30_000;

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
