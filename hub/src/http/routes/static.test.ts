// static.test.ts: the web app's files as a browser gets them: hashed assets cached for a year, the
// shell and sw.js revalidated each time, text compressed as the browser accepts (and the same bytes
// after decoding), small or binary files as they are.
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { testDir } from '../../testing/test-dir.ts';
import { createStaticRoutes } from './static.ts';

const SCRIPT = `export const words = ${JSON.stringify('a phone pays for every byte '.repeat(200))};\n`;

function builtApp(dist = testDir('tether-static-')) {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), `<!doctype html><script type="module" src="/assets/main-abc.js"></script>${' '.repeat(2000)}`);
  writeFileSync(join(dist, 'assets', 'main-abc.js'), SCRIPT);
  writeFileSync(join(dist, 'sw.js'), `self.addEventListener('fetch', () => {});`);
  writeFileSync(join(dist, 'icon.png'), new Uint8Array(4096));
  return createStaticRoutes({ webDist: dist });
}

describe('static routes', () => {
  it('sends hashed assets brotli- or gzip-encoded as offered, cached for a year, and the same bytes decoded', async () => {
    const app = builtApp();
    const br = await app.request('/assets/main-abc.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(brBytes).toString()).toBe(SCRIPT);

    const gz = await app.request('/assets/main-abc.js', { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT);

    const plain = await app.request('/assets/main-abc.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });

  it('revalidates the shell and sw.js each time, compressing the shell; a client route gets the shell', async () => {
    const app = builtApp();
    const route = await app.request('/sessions/abc', { headers: { 'accept-encoding': 'gzip' } });
    expect(route.headers.get('cache-control')).toBe('no-cache');
    expect(route.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(gunzipSync(Buffer.from(await route.arrayBuffer())).toString()).toContain('/assets/main-abc.js');

    const worker = await app.request('/sw.js', { headers: { 'accept-encoding': 'br' } });
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    // Under a kilobyte: sent as is.
    expect(worker.headers.get('content-encoding')).toBeNull();
    expect(await worker.text()).toContain('fetch');
  });

  it('never encodes a binary file, and a missing asset is a 404, not the shell', async () => {
    const app = builtApp();
    const icon = await app.request('/icon.png', { headers: { 'accept-encoding': 'br' } });
    expect(icon.headers.get('content-encoding')).toBeNull();
    expect((await icon.arrayBuffer()).byteLength).toBe(4096);
    expect((await app.request('/assets/gone-123.js')).status).toBe(404);
  });

  it('without index.html, a navigation says the app is not built; the files still there are served (an open page may ask for its lazy chunks)', async () => {
    const dist = testDir('tether-static-');
    const app = builtApp(dist);
    unlinkSync(join(dist, 'index.html'));
    const route = await app.request('/sessions/abc');
    expect(route.status).toBe(503);
    expect(await route.text()).toContain('web app not built');
    const chunk = await app.request('/assets/main-abc.js');
    expect(chunk.status).toBe(200);
    expect(await chunk.text()).toBe(SCRIPT);
    expect((await app.request('/assets/gone-123.js')).status).toBe(404);
  });
});
