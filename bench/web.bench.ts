// web.bench.ts: what a phone pays to open the app.
//   web_first_load_kb_gzip: the JS the first route needs (index.html's module script and its
//     modulepreload links), each file gzipped as a server would send it, summed, in KB.
//   web_render_10k_ms: a session with 10k messages stored in a real hub, opened in Chromium by URL
//     (signed in already): navigation start → the first frame with chat messages on screen. Median
//     of RUNS navigations.
//
//   bun run build (web) ─► web/dist ─► hub (in process, SQLite) ◄─ Chromium (playwright-core)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Socket } from 'socket.io-client';
import { connectSocket, emitAck, startHub, type HubHandle } from '../tests/harness/hub.ts';
import { launchBrowser, loginWithQrLink, seedLongChat } from '../tests/harness/browser.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'web');
export const DIST = join(WEB, 'dist');
/** The 10k of the benchmark's name. */
const MESSAGES = 10_000;
/** Navigations measured; the median smooths out a cold first run and a GC pause. */
const RUNS = 5;
/** gzip level 9: what a static server or CDN typically precompresses with. */
const GZIP_LEVEL = 9;

/** The same-origin JS files index.html makes the browser load before the first route renders. */
export function firstLoadScripts(html: string): string[] {
  const paths = new Set<string>();
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    const src = /\bsrc="([^"]+)"/.exec(tag)?.[1];
    if (src && /\btype="module"/.test(tag)) paths.add(src);
  }
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (href && /\brel="modulepreload"/.test(tag)) paths.add(href);
  }
  return [...paths].filter((p) => p.startsWith('/') && !p.startsWith('//'));
}

function firstLoadKbGzip(): number {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const scripts = firstLoadScripts(html);
  if (scripts.length === 0) throw new Error('no module scripts in web/dist/index.html');
  let bytes = 0;
  for (const path of scripts) bytes += gzipSync(readFileSync(join(DIST, path)), { level: GZIP_LEVEL }).length;
  return bytes / 1024;
}

/** Builds web/dist as the hub serves it (vite, a few seconds). */
export function buildWeb(): void {
  execFileSync('bun', ['run', 'build'], { cwd: WEB, stdio: 'ignore' });
}

/** A live session (registered by `runner`) with `count` stored chat messages; returns its id. */
export async function seedSession(options: { hub: HubHandle; runner: Socket; title: string; count: number }): Promise<string> {
  const { hub, runner, title, count } = options;
  const sessionId = crypto.randomUUID();
  const registered = await emitAck(runner, 'session:register', { id: sessionId, cwd: '/home/dev/src/big', launchKind: 'headless', title, status: 'idle' });
  if (!registered.ok) throw new Error('session:register failed');
  await seedLongChat({ store: hub.store, namespace: hub.namespace, sessionId, count });
  return sessionId;
}

async function render10kMs(): Promise<number> {
  const hub = await startHub({ webDist: DIST });
  const browser = await launchBrowser();
  try {
    const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
    const sessionId = await seedSession({ hub, runner, title: 'Ten thousand', count: MESSAGES });

    const page = await browser.newPage({ viewport: 'phone' });
    await loginWithQrLink(page, { hubUrl: hub.url, token: hub.token });
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.goto(`${hub.url}/sessions/${sessionId}`, { waitUntil: 'commit' });
      // Checked every frame: the value is performance.now() (ms since navigation start) in the first
      // frame where chat messages are in the DOM; that frame paints them.
      const handle = await page.waitForFunction(
        () => (document.querySelector('.chat-row .msg') ? performance.now() : false),
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      samples.push((await handle.jsonValue()) as number);
    }
    runner.close();
    samples.sort((a, b) => a - b);
    return samples[Math.floor(samples.length / 2)]!;
  } finally {
    await browser.stop();
    await hub.stop();
  }
}

export async function run(): Promise<Array<{ name: string; value: number; unit: string }>> {
  buildWeb();
  const kb = firstLoadKbGzip();
  const ms = await render10kMs();
  return [
    { name: 'web_first_load_kb_gzip', value: Math.round(kb * 10) / 10, unit: 'KB' },
    { name: 'web_render_10k_ms', value: Math.round(ms), unit: 'ms' },
  ];
}
