// client-hello.ts: reads what the hub's relay front must know before each TLS layer starts (pure,
// on bytes; front.ts feeds it what arrived so far):
//   1. the PROXY v1 line nginx puts first (the client's real address); the relay's hop TLS follows;
//   2. inside that, the phone's TLS ClientHello: its ALPN list (`acme-tls/1` means the CA is
//      validating, RFC 8737) and its SNI (the name nginx routed it by). Bun picks the certificate in
//      SNICallback before it sees ALPN (REACH.md), so the choice is made here, before any TLS.
//
//   "PROXY TCP4 203.0.113.7 10.0.0.1 51234 443\r\n" <hop TLS: <TLS record: handshake ClientHello …>>
// Invariant: a read is 'more' only while the bytes so far could still become valid; every bound
// (107-byte line, 16 KiB ClientHello) is checked before waiting for more.

/** PROXY v1's line is at most 107 bytes (haproxy's spec). */
const PROXY_MAX = 107;
/** A ClientHello past this is not a browser's or a CA's: refused. */
export const HELLO_MAX = 16 * 1024;

export type ProxyRead = { kind: 'more' } | { kind: 'bad'; reason: string } | { kind: 'done'; client: string; rest: Buffer };
export type Hello = { alpn: string[]; serverName: string | null };
export type HelloRead = { kind: 'more' } | { kind: 'bad'; reason: string } | ({ kind: 'done'; rest: Buffer } & Hello);

/** "PROXY TCP4 a b p q" → a; "PROXY UNKNOWN" → null (nginx's health checks). */
function proxyClient(line: string): string | null | undefined {
  const parts = line.split(' ');
  if (parts[0] !== 'PROXY') return undefined;
  if (parts[1] === 'UNKNOWN') return null;
  if ((parts[1] !== 'TCP4' && parts[1] !== 'TCP6') || parts.length !== 6) return undefined;
  const address = parts[2]!;
  return /^[0-9a-fA-F.:]{2,45}$/.test(address) ? address : undefined;
}

/** The PROXY line, then the start of a TLS record (the relay's hop handshake). */
export function readProxyLine(buffered: Buffer): ProxyRead {
  const eol = buffered.indexOf('\r\n');
  if (eol < 0) return buffered.length > PROXY_MAX ? { kind: 'bad', reason: 'no PROXY header' } : { kind: 'more' };
  if (eol > PROXY_MAX) return { kind: 'bad', reason: 'no PROXY header' };
  const client = proxyClient(buffered.subarray(0, eol).toString('latin1'));
  if (client === undefined) return { kind: 'bad', reason: 'no PROXY header' };
  const rest = buffered.subarray(eol + 2);
  if (rest.length === 0) return { kind: 'more' };
  if (rest[0] !== 0x16) return { kind: 'bad', reason: 'not TLS after the PROXY line' };
  return { kind: 'done', client: client ?? 'unknown', rest };
}

/** The ALPN protocols and the SNI host name of a complete ClientHello record. Throws on a malformed one. */
export function helloFields(record: Buffer): Hello {
  let at = 5 + 4 + 2 + 32; // record header, handshake header, version, random
  const need = (n: number) => {
    if (at + n > record.length) throw new Error('truncated ClientHello');
  };
  need(1);
  at += 1 + record[at]!; // session id
  need(2);
  at += 2 + record.readUInt16BE(at); // cipher suites
  need(1);
  at += 1 + record[at]!; // compression methods
  const hello: Hello = { alpn: [], serverName: null };
  if (at === record.length) return hello;
  need(2);
  const end = at + 2 + record.readUInt16BE(at);
  at += 2;
  if (end > record.length) throw new Error('truncated extensions');
  while (at + 4 <= end) {
    const type = record.readUInt16BE(at);
    const length = record.readUInt16BE(at + 2);
    at += 4;
    if (at + length > end) throw new Error('truncated extension');
    const body = record.subarray(at, at + length);
    if (type === 16) hello.alpn = alpnNames(body);
    if (type === 0) hello.serverName = hostName(body);
    at += length;
  }
  return hello;
}

/** ALPN (RFC 7301): a u16 list length, then u8-length names. */
function alpnNames(body: Buffer): string[] {
  const names: string[] = [];
  let p = 2;
  while (p < body.length) {
    const n = body[p]!;
    if (p + 1 + n > body.length) throw new Error('truncated ALPN');
    names.push(body.subarray(p + 1, p + 1 + n).toString('latin1'));
    p += 1 + n;
  }
  return names;
}

/** server_name (RFC 6066): a u16 list length, then entries of type u8 (0: host_name) and a u16-length name. */
function hostName(body: Buffer): string | null {
  let p = 2;
  while (p + 3 <= body.length) {
    const type = body[p]!;
    const n = body.readUInt16BE(p + 1);
    if (p + 3 + n > body.length) throw new Error('truncated server name');
    if (type === 0) return body.subarray(p + 3, p + 3 + n).toString('latin1');
    p += 3 + n;
  }
  return null;
}

/** The first TLS record, which must be a whole ClientHello. */
export function readClientHello(buffered: Buffer): HelloRead {
  if (buffered.length < 5) return buffered.length > 0 && buffered[0] !== 0x16 ? { kind: 'bad', reason: 'not TLS' } : { kind: 'more' };
  if (buffered[0] !== 0x16 || buffered[1] !== 0x03) return { kind: 'bad', reason: 'not TLS' };
  const total = 5 + buffered.readUInt16BE(3);
  if (total > HELLO_MAX) return { kind: 'bad', reason: 'ClientHello too large' };
  if (buffered.length < total) return { kind: 'more' };
  if (buffered[5] !== 0x01) return { kind: 'bad', reason: 'not a ClientHello' };
  try {
    return { kind: 'done', ...helloFields(buffered.subarray(0, total)), rest: buffered };
  } catch (error) {
    return { kind: 'bad', reason: error instanceof Error ? error.message : String(error) };
  }
}

/** An SNI compared as nginx routes it: case-insensitive, one trailing dot dropped. */
export function sameName(serverName: string | null, name: string): boolean {
  if (serverName === null) return false;
  const lower = serverName.toLowerCase();
  return (lower.endsWith('.') ? lower.slice(0, -1) : lower) === name.toLowerCase();
}
