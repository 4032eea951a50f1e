// hub-child.ts: one hub in its own process, so the bench reads its CPU and memory from /proc and the
// load generator's work is not counted. Spawned by fleet.ts as `bun [flags] hub-child.ts`.
//
//   env SCALE_HUB_HOME (temp TETHER_HOME), SCALE_NAMESPACES (how many tenants)
//   stdout: one JSON line { url, tokens: [token of namespace "scale-0", "scale-1", …] }
//   SIGTERM / SIGINT: stops the hub (a --cpu-prof profile is written on that exit)
import { createAccessToken, createHub } from '@tether/hub';

const home = process.env.SCALE_HUB_HOME;
if (!home) throw new Error('SCALE_HUB_HOME is required');
const namespaces = Number(process.env.SCALE_NAMESPACES ?? '1');

const hub = await createHub({ config: { port: 0, home } });
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
