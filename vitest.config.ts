import { defineConfig } from 'vitest/config';

// One run for every package. It runs inside Bun (`bun --bun vitest run --pool=threads`) because the
// hub and runner need Bun APIs (Bun.serve, bun:sqlite, bun-pty).
export default defineConfig({
  test: {
    include: ['{shared,hub,cli,web,tests}/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'web/dist/**'],
    pool: 'threads',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // 2 cores: e2e files each run a real claude; more workers only thrash.
    maxWorkers: 2,
    // A failure's first line is what CI keeps (scripts/test.mjs): "expected [ Array(1) ] to deeply
    // equal []" hid which axe finding a rehearsal caught; values are printed up to 2,000 characters.
    chaiConfig: { truncateThreshold: 2_000 },
  },
});
