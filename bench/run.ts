// run.ts: `bun run bench`. Runs every bench/*.bench.ts module (each exports `run()` returning
// measurements) one after another, so they never compete for the 2 cores, and prints one JSON
// object per line: {"name","value","unit",...}. `bun run bench hub` runs only files matching "hub".
// Each module gets the filter (scale.bench.ts runs its full ladder only when asked by name); the
// modules in ON_REQUEST run only when the filter names them (`bun run bench soak`: 30 minutes).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Measurement = { name: string; value: number; unit: string } & Record<string, unknown>;

const filter = process.argv[2];
const ON_REQUEST = new Set(['soak.bench.ts']);
const dir = import.meta.dir;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => (filter ? f.includes(filter) : !ON_REQUEST.has(f)))
  .sort();

let failed = 0;
for (const file of files) {
  const mod = (await import(join(dir, file))) as { run: (options: { filter?: string }) => Promise<Measurement[]> };
  try {
    for (const m of await mod.run(filter ? { filter } : {})) console.log(JSON.stringify({ ...m, bench: file }));
  } catch (error) {
    failed++;
    console.log(JSON.stringify({ name: file, error: error instanceof Error ? error.message : String(error) }));
  }
}
process.exit(failed ? 1 : 0);
