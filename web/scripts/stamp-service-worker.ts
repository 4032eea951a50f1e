// stamp-service-worker.ts: a Vite plugin that writes the build's version into dist/sw.js once the
// bundle is on disk. The version is the start of index.html's SHA-256: index.html names the entry's
// content-hashed files, and every lazy chunk's name is inside the chunk that imports it, so any change
// to any file of the build changes it.
//
//   vite build ─► dist/index.html ─sha256─► version ─replace __TETHER_BUILD__─► dist/sw.js
//
// Why: a browser looks for a new app only by comparing /sw.js byte for byte; a worker that stayed the
// same across builds would keep serving the old shell from its cache forever. The worker checks the
// same digest of the index.html it caches (sw.ts), so it never keeps a shell of another build.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

const PLACEHOLDER = '__TETHER_BUILD__';
/** Hex digits of the digest kept: plenty to tell builds apart. */
export const BUILD_ID_HEX = 12;

export function stampServiceWorker(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tether:stamp-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    writeBundle() {
      const html = readFileSync(join(outDir, 'index.html'), 'utf8');
      const version = createHash('sha256').update(html).digest('hex').slice(0, BUILD_ID_HEX);
      const path = join(outDir, 'sw.js');
      const worker = readFileSync(path, 'utf8');
      if (!worker.includes(PLACEHOLDER)) throw new Error(`sw.js has no ${PLACEHOLDER} to stamp: the worker would never see a new build`);
      writeFileSync(path, worker.replaceAll(PLACEHOLDER, JSON.stringify(version)));
    },
  };
}
