// start.mjs: `npm start`. Installs what is missing, builds the web app, and runs the hub on an
// embedded SQLite database under TETHER_HOME (default ~/.tether). Extra args go to `tether hub`,
// e.g. `npm start -- --port 8080`. What it prints: one line per step that had to run (step.mjs),
// then the hub's own start lines (URL, phone, token once, pairing link); the hub runs in this
// script's place (forward.mjs), so stopping `npm start` stops the hub.
import { ROOT, ensureBun, ensureDeps, ensureWebBuild } from './bootstrap.mjs';
import { forward } from './forward.mjs';
import { join } from 'node:path';

const bun = ensureBun();
ensureDeps(bun);
ensureWebBuild(bun);
process.exit(await forward({ cmd: bun, args: [join(ROOT, 'cli', 'src', 'main.ts'), 'hub', ...process.argv.slice(2)], cwd: ROOT }));
