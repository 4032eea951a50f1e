// vite.config.ts: builds the phone-first web app into web/dist, which the hub serves at `/`.
// In dev (`bun run dev`), /api and /socket.io are proxied to the hub at TETHER_HUB_URL.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { stampServiceWorker } from './scripts/stamp-service-worker.ts';

const HUB_URL = process.env.TETHER_HUB_URL ?? 'http://127.0.0.1:8787';

export default defineConfig({
  // The worker names the build it belongs to, so a new build changes /sw.js's bytes, which is how a
  // browser learns of it (docs/decisions/web.md, "App shell").
  plugins: [react(), stampServiceWorker()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Modern phones only: no legacy transforms, smaller output.
    target: 'es2022',
    // Report gzip sizes: the first-load bundle is a tracked benchmark (web_first_load_kb_gzip).
    reportCompressedSize: true,
    rollupOptions: {
      // The service worker is its own entry, emitted as /sw.js: a worker's scope is the folder it
      // is served from, and it must cover the whole app.
      input: { main: 'index.html', sw: 'src/pwa/sw.ts' },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        // zod (with the shared schemas built on it) only serves lazy screens (question form, trust
        // form…). Left to the default heuristics it lands in a common chunk the first route
        // preloads, +25 KB gzip; its own group keeps it off the first load.
        advancedChunks: {
          // shared/src/wire.ts (constants, no zod) is imported by the first route and by the schemas
          // alike: a group of its own, or it is merged into 'protocol' and drags zod along.
          groups: [
            // limits.ts (numbers only) likewise: End and Resume's time bounds are on the chat's screen.
            { name: 'wire', test: /[\\/]shared[\\/]src[\\/](wire|limits)\.ts$/, priority: 2 },
            // A rule proposal's words (rule-words.ts imports nothing) go with the proposals' chunk, not zod.
            { name: 'rule-words', test: /[\\/]shared[\\/]src[\\/]rule-words\.ts$/, priority: 2 },
            { name: 'protocol', test: /[\\/]zod[\\/]|[\\/]shared[\\/]src[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': HUB_URL,
      '/socket.io': { target: HUB_URL, ws: true },
    },
  },
});
