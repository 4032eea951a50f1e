// http-gate.ts: the relay front's view of the HTTP/1.1 it carries to the hub, for the one check the
// hub cannot make itself: Bun.serve rebuilds a request's URL from Host and drops an absolute-form
// target's authority before any handler runs (`GET http://evil.example/ HTTP/1.1` + `Host: hub`
// reaches the hub as http://hub/), while RFC 9112 3.2.2 makes that authority the request's. So the
// front reads each request line on its way in and asks the hub's allowlist (`checkTarget`) about it.
//
//   client ─► request head ─ target ok? ─► body (Content-Length | chunked) ─► next head …
//                          └ no ─► refused (421 or 400), connection closed
//   hub    ─► response head ─► body (none | Content-Length | chunked | until close) ─► …
//              101 to an Upgrade ─► opaque both ways (WebSocket frames, not HTTP)
// The hub's side is followed only to learn whether an Upgrade was taken: client bytes after an
// Upgrade request are held until its answer, so a refused upgrade cannot smuggle a request past.
// Invariant: a byte is forwarded only when the gate knows which message it belongs to; anything it
// cannot frame (both Content-Length and Transfer-Encoding, a folded header, a bad chunk size, a head
// over 64 KiB) closes the connection: fail closed, as the hub's own parser would refuse it anyway.

const HEAD_MAX = 64 * 1024;
/** Client bytes held while an Upgrade's answer is awaited (a browser sends none). */
const HELD_MAX = 64 * 1024;

/** Why a connection ends; `answer` is the hub's own (its 421) when it has one. */
export type Refusal = { status: number; reason: string; answer?: Response };
/** What may go on now; with `refuse`, the connection ends after it (the front drops the hub's side). */
export type GateStep = { forward: Buffer; refuse?: Refusal };

type Body = { kind: 'none' } | { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'until-close' };

/** What one feed of a direction's framing gives: the bytes now known to belong to a message (a
 *  whole head once checked, body bytes as they come), the bytes not looked at because the next
 *  message must wait (`rest`), or why the connection ends. */
type Fed = { out: Buffer[]; rest: Buffer; refuse?: Refusal };

/** One direction's framing: heads, then bodies by length or chunks. A partial head or chunk line
 *  is kept until it is whole, so nothing of it passes before it is judged. */
function framer(onHead: (head: string) => Body | Refusal | 'opaque') {
  let mode: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'opaque' = 'head';
  let line = Buffer.alloc(0);
  let left = 0;
  const feed = (chunk: Buffer, stopAtNextMessage: () => boolean): Fed => {
    const out: Buffer[] = [];
    let at = 0;
    const stop = (): Fed => ({ out, rest: chunk.subarray(at) });
    while (at < chunk.length) {
      if (mode === 'opaque' || mode === 'until-close') {
        out.push(chunk.subarray(at));
        return { out, rest: Buffer.alloc(0) };
      }
      if (mode === 'length' || mode === 'chunk-data') {
        const take = Math.min(left, chunk.length - at);
        out.push(chunk.subarray(at, at + take));
        left -= take;
        at += take;
        if (left > 0) continue;
        mode = mode === 'length' ? 'head' : 'chunk-end';
        if (mode === 'head' && stopAtNextMessage()) return stop();
        continue;
      }
      // Line-oriented modes: keep bytes until CRLF (a head until CRLFCRLF).
      const end = mode === 'head' ? '\r\n\r\n' : '\r\n';
      const joined = Buffer.concat([line, chunk.subarray(at)]);
      // A request may be preceded by empty lines (RFC 9112 2.2): passed on, never judged.
      if (mode === 'head' && joined.length >= 2 && joined[0] === 0x0d && joined[1] === 0x0a) {
        out.push(joined.subarray(0, 2));
        at += 2 - line.length;
        line = Buffer.alloc(0);
        continue;
      }
      const found = joined.indexOf(end);
      if (found < 0) {
        if (joined.length > HEAD_MAX) return { out, rest: Buffer.alloc(0), refuse: { status: 431, reason: 'head too large' } };
        line = joined;
        return { out, rest: Buffer.alloc(0) };
      }
      const whole = joined.subarray(0, found + end.length);
      const text = joined.subarray(0, found).toString('latin1');
      at += whole.length - line.length;
      line = Buffer.alloc(0);
      if (mode === 'head') {
        const next = onHead(text);
        if (typeof next !== 'string' && 'status' in next) return { out, rest: Buffer.alloc(0), refuse: next };
        out.push(whole);
        if (next === 'opaque') mode = 'opaque';
        else if (next.kind === 'length' && next.left > 0) [mode, left] = ['length', next.left];
        else mode = next.kind === 'chunked' ? 'chunk-size' : next.kind === 'until-close' ? 'until-close' : 'head';
        if (mode === 'head' && stopAtNextMessage()) return stop();
        continue;
      }
      out.push(whole);
      if (mode === 'chunk-size') {
        const size = /^([0-9a-fA-F]{1,8})(?:[ \t]*;.*)?$/.exec(text);
        if (!size) return { out: out.slice(0, -1), rest: Buffer.alloc(0), refuse: { status: 400, reason: 'bad chunk size' } };
        left = parseInt(size[1]!, 16);
        mode = left === 0 ? 'trailers' : 'chunk-data';
      } else if (mode === 'chunk-end') {
        if (text !== '') return { out: out.slice(0, -1), rest: Buffer.alloc(0), refuse: { status: 400, reason: 'bad chunk end' } };
        mode = 'chunk-size';
      } else if (text === '') {
        mode = 'head'; // the empty line after the trailers ends the message
        if (stopAtNextMessage()) return stop();
      }
    }
    return { out, rest: Buffer.alloc(0) };
  };
  return { feed, opaque: () => (mode = 'opaque'), atHead: () => mode === 'head' && line.length === 0 };
}

/** Header values by lowercase name (every occurrence), or a refusal for a malformed field. */
function fields(lines: string[]): Map<string, string[]> | Refusal {
  const map = new Map<string, string[]>();
  for (const raw of lines) {
    if (/^[ \t]/.test(raw)) return { status: 400, reason: 'folded header' };
    const colon = raw.indexOf(':');
    const name = raw.slice(0, colon);
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return { status: 400, reason: 'bad header' };
    const key = name.toLowerCase();
    map.set(key, [...(map.get(key) ?? []), raw.slice(colon + 1).trim()]);
  }
  return map;
}

/** Content-Length / Transfer-Encoding of a message (RFC 9112 6): a body, or a refusal. */
function bodyOf(headers: Map<string, string[]>): Body | Refusal {
  const te = headers.get('transfer-encoding');
  const cl = headers.get('content-length');
  if (te && cl) return { status: 400, reason: 'both Content-Length and Transfer-Encoding' };
  if (te) return te.join(',').split(',').map((c) => c.trim().toLowerCase()).filter(Boolean).at(-1) === 'chunked' ? { kind: 'chunked' } : { status: 400, reason: 'Transfer-Encoding without chunked last' };
  if (cl) {
    const values = new Set(cl.join(',').split(',').map((v) => v.trim()));
    const only = [...values][0]!;
    if (values.size !== 1 || !/^\d{1,15}$/.test(only)) return { status: 400, reason: 'bad Content-Length' };
    return { kind: 'length', left: Number(only) };
  }
  return { kind: 'none' };
}

export function createHttpGate(options: { checkTarget: (target: string) => Response | null }) {
  /** The client's requests the hub has not finished answering, in order. */
  const pending: Array<{ head: boolean; upgrade: boolean }> = [];
  let held = Buffer.alloc(0);
  let holding = false;
  let upgraded = false;

  const request = framer((head) => {
    const [first = '', ...rest] = head.split('\r\n');
    const parts = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.[01]$/.exec(first);
    if (!parts) return { status: 400, reason: 'bad request line' };
    const answer = options.checkTarget(parts[2]!);
    if (answer) return { status: answer.status, reason: 'misdirected', answer };
    const headers = fields(rest);
    if ('status' in headers) return headers;
    const body = bodyOf(headers);
    if ('status' in body) return body;
    if (body.kind === 'until-close') return { status: 400, reason: 'request without a length' };
    const upgrade = headers.has('upgrade');
    pending.push({ head: parts[1] === 'HEAD', upgrade });
    // Until the hub answers an Upgrade, nothing after it is known to be HTTP.
    if (upgrade) holding = true;
    return body;
  });

  const response = framer((head) => {
    const [first = '', ...rest] = head.split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(first)?.[1] ?? NaN);
    const headers = fields(rest);
    if (Number.isNaN(status) || 'status' in headers) return { status: 502, reason: 'bad response from the hub' };
    const answered = pending[0];
    if (status === 101) {
      if (!answered?.upgrade) return { status: 502, reason: 'a 101 nobody asked for' };
      upgraded = true;
      holding = false;
      request.opaque();
      return 'opaque';
    }
    if (status < 200) return { kind: 'none' }; // 100 Continue, 103: the final answer follows
    pending.shift();
    if (answered?.upgrade) holding = false;
    if (answered?.head || status === 204 || status === 304) return { kind: 'none' };
    const body = bodyOf(headers);
    return 'status' in body ? { status: 502, reason: 'bad response from the hub' } : body.kind === 'none' ? { kind: 'until-close' } : body;
  });

  /** Client bytes through the request framing, stopping (and keeping the rest) while an upgrade is pending. */
  const admit = (bytes: Buffer): GateStep => {
    if (upgraded) return { forward: bytes };
    const fed = request.feed(bytes, () => holding);
    const forward = Buffer.concat(fed.out);
    if (fed.refuse) return { forward, refuse: fed.refuse };
    held = Buffer.concat([held, fed.rest]);
    if (held.length > HELD_MAX) return { forward, refuse: { status: 400, reason: 'too much sent before an upgrade was answered' } };
    return { forward };
  };

  return {
    /** Client bytes in; what may go to the hub now, or why the connection ends. */
    fromClient(chunk: Buffer): GateStep {
      if (held.length > 0 || (holding && request.atHead())) {
        held = Buffer.concat([held, chunk]);
        return held.length > HELD_MAX ? { forward: Buffer.alloc(0), refuse: { status: 400, reason: 'too much sent before an upgrade was answered' } } : { forward: Buffer.alloc(0) };
      }
      return admit(chunk);
    },
    /** Hub bytes on their way to the client (sent unchanged); returns client bytes released by a
     *  refused upgrade, or why the connection ends. */
    fromHub(chunk: Buffer): GateStep {
      if (upgraded) return { forward: Buffer.alloc(0) };
      const fed = response.feed(chunk, () => false);
      if (fed.refuse) return { forward: Buffer.alloc(0), refuse: fed.refuse };
      if (holding || held.length === 0) return { forward: Buffer.alloc(0) };
      const release = held;
      held = Buffer.alloc(0);
      return admit(release);
    },
    /** No request unanswered: a refusal may be written back without cutting into an answer. */
    idle: () => pending.length === 0,
  };
}
