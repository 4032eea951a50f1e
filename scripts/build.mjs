// build.mjs: `npm run build:package` / `npm run build:binaries` (also `bun run …`) from a fresh
// clone: gets Bun and the dependencies like npm start does, then runs scripts/build/<what>.ts.
// Extra arguments pass through (e.g. `npm run build:binaries -- --target linux-x64`).
import { ensureBun, ensureDeps, run } from './bootstrap.mjs';

const [what, ...rest] = process.argv.slice(2);
if (what !== 'package' && what !== 'binaries') {
  console.error('usage: node scripts/build.mjs package|binaries [args]');
  process.exit(2);
}
const bun = ensureBun();
ensureDeps(bun);
process.exit(run(bun, [`scripts/build/${what}.ts`, ...rest]));
