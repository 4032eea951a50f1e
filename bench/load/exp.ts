// temporary experiment (not committed)
import { startHubChild, startLoad } from './fleet.ts';
import { rssMb, cpuMeter } from './proc.ts';
const n = Number(process.argv[2] ?? 500);
const chunkEveryMs = Number(process.argv[3] ?? 100);
const hub = await startHubChild({ namespaces: Math.ceil(n / 10) });
console.log('hub idle rss', rssMb(hub.pid).toFixed(1));
const load = await startLoad({ url: hub.url, tokens: hub.tokens, sessions: n, perNamespace: 10, workers: Math.min(4, Math.ceil(n / 250)), rampMs: Math.min(n * 10, 20000), rates: { chunkBytes: 100, chunkEveryMs, chatEveryMs: 10000, approvalEveryMs: 60000 } });
console.log('started', load.sessions, load.failed, load.firstError, 'rss', rssMb(hub.pid).toFixed(1));
const m = cpuMeter([hub.pid]);
for (let i = 0; i < 6; i++) { await Bun.sleep(5000); console.log(`t=${(i+1)*5}s rss ${rssMb(hub.pid).toFixed(1)} cores ${m.cores().toFixed(3)}`); }
await load.stop(); await hub.stop();
