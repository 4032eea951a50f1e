// hub-child.ts: one hub in its own process, so the bench reads its CPU and memory from /proc and the
// load generator's work is not counted. Spawned by fleet.ts as `bun [flags] hub-child.ts`.
//
//   env SCALE_HUB_HOME (temp TETHER_HOME), SCALE_NAMESPACES (how many tenants), SCALE_HUB_MAIN,
//   SCALE_TERMINAL_LOG_BYTES, SCALE_DATABASE_URL (a hub of a cluster; optional)
//   stdout: one JSON line { url, tokens: [token of namespace "scale-0", "scale-1", …] }
//   SIGTERM / SIGINT: stops the hub (a --cpu-prof profile is written on that exit)
//   SCALE_HUB_MEMLOG=1: every 10 s, RSS, JS heap and the commonest object types on stderr
export {};
// SCALE_HUB_MAIN: another checkout's hub/src/main.ts (A/B runs of a change on the same box).
const { createAccessToken, createHub } = (await import(process.env.SCALE_HUB_MAIN ?? '@tether/hub')) as typeof import('@tether/hub');

const home = process.env.SCALE_HUB_HOME;
if (!home) throw new Error('SCALE_HUB_HOME is required');
const namespaces = Number(process.env.SCALE_NAMESPACES ?? '1');

const logBytes = process.env.SCALE_TERMINAL_LOG_BYTES;
const databaseUrl = process.env.SCALE_DATABASE_URL;
const hub = await createHub({
  config: { port: 0, home, ...(logBytes ? { terminalLogBytes: Number(logBytes) } : {}), ...(databaseUrl ? { databaseUrl } : {}) },
});
const tokens: string[] = [];
for (let i = 0; i < namespaces; i++) {
  // Awaited: the store may answer asynchronously (PostgreSQL).
  tokens.push((await createAccessToken({ store: hub.store, namespace: `scale-${i}`, label: `scale ${i}` })).token);
}
console.log(JSON.stringify({ url: hub.url, tokens }));

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await hub.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
if (process.env.SCALE_HUB_MEMLOG) {
  const { heapStats } = await import('bun:jsc');
  setInterval(() => {
    const m = process.memoryUsage();
    const h = heapStats();
    const top = Object.entries(h.objectTypeCounts).sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.error(JSON.stringify({ rss: Math.round(m.rss / 1e6), heapUsed: Math.round(m.heapUsed / 1e6), external: Math.round(m.external / 1e6), ab: Math.round(m.arrayBuffers / 1e6), objects: h.objectCount, top }));
  }, 10_000).unref();
}
