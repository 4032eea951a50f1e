// tether.mjs: `npm run tether -- <verb> [args]`, the `tether` command of a checkout, where nothing
// puts one on PATH (no global link, no prompt). It runs in the folder npm was started in (INIT_CWD:
// `npm --prefix <checkout> run tether -- claude` starts claude in the folder you are in), with the
// environment you started npm with (npm-env.mjs personEnv: not npm's PATH and config), on the Bun
// bootstrap found or installed (.tools/, so none is needed on PATH). The verb runs in this script's
// place (forward.mjs).
import { join } from 'node:path';
import { ROOT, ensureBun, ensureDeps } from './bootstrap.mjs';
import { forward } from './forward.mjs';
import { personEnv } from './npm-env.mjs';

const cwd = process.env.INIT_CWD || process.cwd();
const env = personEnv(process.env);
const bun = ensureBun();
ensureDeps(bun);
// A .env and a bunfig.toml (its preload scripts) in the folder you run tether in are yours, not
// tether's: Bun would read both from there.
const runtime = ['--no-env-file', `--config=${join(ROOT, 'bunfig.toml')}`];
process.exit(await forward({ cmd: bun, args: [...runtime, join(ROOT, 'cli', 'src', 'main.ts'), ...process.argv.slice(2)], cwd, env }));
