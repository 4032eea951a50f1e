// client-hello.test.ts: the PROXY line and the ClientHello's ALPN and SNI, from bytes a real TLS
// client wrote (node:tls into a capturing socket), cut at every length to prove partial reads wait
// for more and never decide early.
import { createServer, type AddressInfo } from 'node:net';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { readClientHello, readProxyLine, sameName } from './client-hello.ts';

/** The first bytes a TLS client sends with these ALPN protocols and this SNI. */
async function clientHello(alpn: string[], servername = 'alpha.relay.test'): Promise<Buffer> {
  return new Promise((resolve) => {
    const server = createServer((socket) => {
      socket.once('data', (data: Buffer) => {
        socket.destroy();
        server.close();
        resolve(data);
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const tls = connect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, ...(servername ? { servername } : {}), ALPNProtocols: alpn });
      tls.on('error', () => {});
    });
  });
}

describe('readProxyLine', () => {
  it('reads the client address once a TLS record follows, waiting for more at every cut', async () => {
    const hello = await clientHello(['http/1.1']);
    const bytes = Buffer.concat([Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.1 51234 443\r\n'), hello]);
    const lineEnd = bytes.indexOf('\r\n') + 2;
    for (let cut = 0; cut <= lineEnd; cut++) expect(readProxyLine(bytes.subarray(0, cut)).kind, `cut ${cut}`).toBe('more');
    const read = readProxyLine(bytes);
    expect(read).toMatchObject({ kind: 'done', client: '203.0.113.7' });
    if (read.kind === 'done') expect(read.rest.equals(hello)).toBe(true);
    expect(readProxyLine(Buffer.from('PROXY TCP6 2001:db8::1 2001:db8::2 1 443\r\n\x16'))).toMatchObject({ kind: 'done', client: '2001:db8::1' });
  });

  it('refuses what is not a PROXY line followed by TLS', async () => {
    expect(readProxyLine(await clientHello(['http/1.1']))).toMatchObject({ kind: 'bad', reason: 'no PROXY header' });
    expect(readProxyLine(Buffer.from('PROXY TCP4 not-an-address 1.2.3.4 1 2\r\n\x16\x03\x01\x00\x05'))).toMatchObject({ kind: 'bad' });
    expect(readProxyLine(Buffer.from('PROXY TCP4 1.2.3.4 1.2.3.4 1 2\r\nGET / HTTP/1.1\r\n'))).toMatchObject({ kind: 'bad', reason: 'not TLS after the PROXY line' });
    expect(readProxyLine(Buffer.alloc(200, 0x41))).toMatchObject({ kind: 'bad', reason: 'no PROXY header' });
    expect(readProxyLine(Buffer.from(`PROXY TCP4 ${'1'.repeat(120)}\r\n\x16`))).toMatchObject({ kind: 'bad', reason: 'no PROXY header' });
  });
});

describe('readClientHello', () => {
  it('reads the ALPN list and the SNI, waiting for more at every cut', async () => {
    const hello = await clientHello(['acme-tls/1']);
    for (let cut = 0; cut < hello.length; cut++) expect(readClientHello(hello.subarray(0, cut)).kind, `cut ${cut}`).toBe('more');
    const read = readClientHello(hello);
    expect(read).toMatchObject({ kind: 'done', alpn: ['acme-tls/1'], serverName: 'alpha.relay.test' });
    if (read.kind === 'done') expect(read.rest.equals(hello)).toBe(true);
  });

  it('reads several protocols, none, and a hello without SNI', async () => {
    expect(readClientHello(await clientHello(['h2', 'http/1.1'], 'beta.relay.test'))).toMatchObject({ kind: 'done', alpn: ['h2', 'http/1.1'], serverName: 'beta.relay.test' });
    expect(readClientHello(await clientHello([]))).toMatchObject({ kind: 'done', alpn: [] });
    expect(readClientHello(await clientHello(['http/1.1'], ''))).toMatchObject({ kind: 'done', serverName: null });
  });

  it('refuses what is not a ClientHello', () => {
    expect(readClientHello(Buffer.from('GET / HTTP/1.1\r\n'))).toMatchObject({ kind: 'bad', reason: 'not TLS' });
    expect(readClientHello(Buffer.from('G'))).toMatchObject({ kind: 'bad', reason: 'not TLS' });
    expect(readClientHello(Buffer.from('\x16\x03\x01\xff\xff'))).toMatchObject({ kind: 'bad', reason: 'ClientHello too large' });
    expect(readClientHello(Buffer.from('\x16\x03\x01\x00\x01\x02'))).toMatchObject({ kind: 'bad', reason: 'not a ClientHello' });
    expect(readClientHello(Buffer.from('\x16\x03\x01\x00\x04\x01\x00\x00\x00'))).toMatchObject({ kind: 'bad', reason: 'truncated ClientHello' });
  });

  it('compares an SNI as nginx routes it', () => {
    expect(sameName('Alpha.Relay.Test.', 'alpha.relay.test')).toBe(true);
    expect(sameName('alpha.relay.test..', 'alpha.relay.test')).toBe(false);
    expect(sameName('beta.relay.test', 'alpha.relay.test')).toBe(false);
    expect(sameName(null, 'alpha.relay.test')).toBe(false);
  });
});
