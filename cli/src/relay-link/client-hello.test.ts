// client-hello.test.ts: the PROXY line and the ClientHello's ALPN, from bytes a real TLS client wrote
// (node:tls into a capturing socket), cut at every length to prove partial reads wait for more.
import { createServer, type AddressInfo } from 'node:net';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { readPreface } from './client-hello.ts';

/** The first bytes a TLS client sends with these ALPN protocols. */
async function clientHello(alpn: string[]): Promise<Buffer> {
  return new Promise((resolve) => {
    const server = createServer((socket) => {
      socket.once('data', (data: Buffer) => {
        socket.destroy();
        server.close();
        resolve(data);
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const tls = connect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, servername: 'alpha.relay.test', ALPNProtocols: alpn });
      tls.on('error', () => {});
    });
  });
}

describe('readPreface', () => {
  it('reads the client address and the ALPN list, waiting for more at every cut', async () => {
    const hello = await clientHello(['acme-tls/1']);
    const bytes = Buffer.concat([Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.1 51234 443\r\n'), hello]);
    for (let cut = 0; cut < bytes.length; cut++) expect(readPreface(bytes.subarray(0, cut)).kind).toBe('more');
    const read = readPreface(bytes);
    expect(read).toMatchObject({ kind: 'done', client: '203.0.113.7', alpn: ['acme-tls/1'] });
    if (read.kind === 'done') expect(read.rest.equals(hello)).toBe(true);
  });

  it('reads several protocols, and none', async () => {
    const proxy = Buffer.from('PROXY TCP6 2001:db8::1 2001:db8::2 1 443\r\n');
    expect(readPreface(Buffer.concat([proxy, await clientHello(['h2', 'http/1.1'])]))).toMatchObject({ kind: 'done', client: '2001:db8::1', alpn: ['h2', 'http/1.1'] });
    expect(readPreface(Buffer.concat([proxy, await clientHello([])]))).toMatchObject({ kind: 'done', alpn: [] });
  });

  it('refuses what is not a PROXY line followed by a ClientHello', async () => {
    const hello = await clientHello(['http/1.1']);
    expect(readPreface(hello)).toMatchObject({ kind: 'bad', reason: 'no PROXY header' });
    expect(readPreface(Buffer.from('PROXY TCP4 not-an-address 1.2.3.4 1 2\r\n\x16\x03\x01\x00\x05'))).toMatchObject({ kind: 'bad' });
    expect(readPreface(Buffer.from('PROXY TCP4 1.2.3.4 1.2.3.4 1 2\r\nGET / HTTP/1.1\r\n'))).toMatchObject({ kind: 'bad', reason: 'not TLS' });
    expect(readPreface(Buffer.from(`PROXY TCP4 1.2.3.4 1.2.3.4 1 2\r\n\x16\x03\x01\xff\xff`))).toMatchObject({ kind: 'bad', reason: 'ClientHello too large' });
    expect(readPreface(Buffer.alloc(200, 0x41))).toMatchObject({ kind: 'bad', reason: 'no PROXY header' });
  });
});
