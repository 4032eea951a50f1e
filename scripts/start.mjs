// start.mjs: `npm start`. Installs what is missing, builds the web app, and runs the hub on an
// embedded SQLite database under TETHER_HOME (default ~/.tether). Extra args go to `tether hub`,
// e.g. `npm start -- --port 8080`.
import { ROOT, ensureBun, ensureDeps, ensureWebBuild, run } from './bootstrap.mjs';

const bun = ensureBun();
ensureDeps(bun);
ensureWebBuild(bun);
const code = run(bun, ['cli/src/main.ts', 'hub', ...process.argv.slice(2)], { cwd: ROOT });
process.exit(code);
