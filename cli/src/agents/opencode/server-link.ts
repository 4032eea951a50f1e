// server-link.ts: tether as a client of the HTTP server opencode's TUI runs for itself, told to listen
// on 127.0.0.1 at a port tether chose (`--port N --hostname 127.0.0.1`) behind basic auth: the
// password is a fresh secret in the TUI's environment (OPENCODE_SERVER_PASSWORD, which its server
// checks and its TUI sends from 1.18.33 on), never on a command line or in a log.
//
//   GET  /event                              SSE, one `data: {type, properties}` per event
//   POST /permission/<id>/reply {reply}      once | reject (with the person's reason as `message`)
export const PASSWORD_VARIABLE = 'OPENCODE_SERVER_PASSWORD';
export const USERNAME_VARIABLE = 'OPENCODE_SERVER_USERNAME';
/** The user name tether sets for its server (its default too). */
export const USERNAME = 'opencode';
/** How long one reply may take: the server answers at once. */
const REPLY_TIMEOUT_MS = 10_000;
/** A connection made while the TUI's server is still starting gets no answer at all (seen: none in
 *  minutes, while one made after it was up answered at once): given up after this, and made again. */
const HEADERS_TIMEOUT_MS = 5_000;

export type OpencodeServer = { url: string; port: number; password: string };

export function authorization(server: OpencodeServer): string {
  return `Basic ${Buffer.from(`${USERNAME}:${server.password}`).toString('base64')}`;
}

/** Splits an SSE stream's text into its events' `data` (JSON), keeping a partial event for later. */
export function createSseParser(onData: (data: unknown) => void): (text: string) => void {
  let buffer = '';
  return (text) => {
    buffer += text.replaceAll('\r\n', '\n');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (!data) continue;
      try {
        onData(JSON.parse(data));
      } catch {
        // A line that is not JSON is not an event of opencode's: skipped.
      }
    }
  };
}

/** Reads the server's event stream until it ends or `signal` aborts; throws when it cannot connect. */
export async function readEvents(o: { server: OpencodeServer; signal: AbortSignal; onEvent: (event: unknown) => void; onOpen?: () => void }): Promise<void> {
  const headers = new AbortController();
  const timer = setTimeout(() => headers.abort(), HEADERS_TIMEOUT_MS);
  const response = await fetch(`${o.server.url}/event`, { headers: { authorization: authorization(o.server), accept: 'text/event-stream' }, signal: AbortSignal.any([o.signal, headers.signal]), timeout: false } as RequestInit).finally(() => clearTimeout(timer));
  if (!response.ok || !response.body) throw new Error(`opencode's event stream answered HTTP ${response.status}`);
  o.onOpen?.();
  const parse = createSseParser(o.onEvent);
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parse(decoder.decode(value, { stream: true }));
  }
}

/** Answers one permission request; false when the server refused (answered already, at the desk). */
export async function replyPermission(o: { server: OpencodeServer; id: string; reply: 'once' | 'reject'; message?: string }): Promise<boolean> {
  const body = { reply: o.reply, ...(o.message ? { message: o.message } : {}) };
  const response = await fetch(`${o.server.url}/permission/${encodeURIComponent(o.id)}/reply`, {
    method: 'POST',
    headers: { authorization: authorization(o.server), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REPLY_TIMEOUT_MS),
  });
  await response.body?.cancel();
  return response.ok;
}
