// client-hello.ts: reads what the hub's relay front must know before TLS starts: the PROXY v1
// line nginx puts first (the client's real address), and the ALPN list of the TLS ClientHello
// (`acme-tls/1` means the CA is validating, RFC 8737). Bun picks the certificate in SNICallback
// before it sees ALPN (REACH.md), so the choice is made here, on the bytes, before any TLS.
//
//   "PROXY TCP4 203.0.113.7 10.0.0.1 51234 443\r\n" <TLS record: handshake ClientHello …>

/** PROXY v1's line is at most 107 bytes (haproxy's spec). */
const PROXY_MAX = 107;
/** A ClientHello past this is not a browser's or a CA's: refused. */
export const HELLO_MAX = 16 * 1024;

export type Preface = { client: string; alpn: string[]; rest: Buffer };
export type PrefaceRead = { kind: 'more' } | { kind: 'bad'; reason: string } | ({ kind: 'done' } & Preface);

/** "PROXY TCP4 a b p q" → a; "PROXY UNKNOWN" → null (nginx's health checks). */
function proxyClient(line: string): string | null | undefined {
  const parts = line.split(' ');
  if (parts[0] !== 'PROXY') return undefined;
  if (parts[1] === 'UNKNOWN') return null;
  if ((parts[1] !== 'TCP4' && parts[1] !== 'TCP6') || parts.length !== 6) return undefined;
  const address = parts[2]!;
  return /^[0-9a-fA-F.:]{2,45}$/.test(address) ? address : undefined;
}

/** The ALPN protocols of a complete ClientHello record, [] when it names none. Throws on a
 *  malformed one. */
export function helloAlpn(record: Buffer): string[] {
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
  if (at === record.length) return [];
  need(2);
  const end = at + 2 + record.readUInt16BE(at);
  at += 2;
  if (end > record.length) throw new Error('truncated extensions');
  while (at + 4 <= end) {
    const type = record.readUInt16BE(at);
    const length = record.readUInt16BE(at + 2);
    at += 4;
    if (at + length > end) throw new Error('truncated extension');
    if (type === 16) {
      const names: string[] = [];
      let p = at + 2;
      while (p < at + length) {
        const n = record[p]!;
        names.push(record.subarray(p + 1, p + 1 + n).toString('latin1'));
        p += 1 + n;
      }
      return names;
    }
    at += length;
  }
  return [];
}

/** Reads the PROXY line and the first TLS record out of what arrived so far. */
export function readPreface(buffered: Buffer): PrefaceRead {
  const eol = buffered.indexOf('\r\n');
  if (eol < 0) return buffered.length > PROXY_MAX ? { kind: 'bad', reason: 'no PROXY header' } : { kind: 'more' };
  const client = proxyClient(buffered.subarray(0, eol).toString('latin1'));
  if (client === undefined) return { kind: 'bad', reason: 'no PROXY header' };
  const tls = buffered.subarray(eol + 2);
  if (tls.length < 5) return { kind: 'more' };
  if (tls[0] !== 0x16 || tls[5 - 4] !== 0x03) return { kind: 'bad', reason: 'not TLS' };
  const total = 5 + tls.readUInt16BE(3);
  if (total > HELLO_MAX) return { kind: 'bad', reason: 'ClientHello too large' };
  if (tls.length < total) return { kind: 'more' };
  if (tls[5] !== 0x01) return { kind: 'bad', reason: 'not a ClientHello' };
  try {
    return { kind: 'done', client: client ?? 'unknown', alpn: helloAlpn(tls.subarray(0, total)), rest: tls };
  } catch (error) {
    return { kind: 'bad', reason: error instanceof Error ? error.message : String(error) };
  }
}
