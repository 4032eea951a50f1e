// npm-env.mjs: the environment npm hands a script (`npm start`, `npm test`, `npm run tether`) and
// what tether's scripts pass on from it. npm exports its resolved config to a script as npm_config_*
// variables, and every npm or tether started below reads them as its own:
//   installEnv()  a nested `npm install --prefix .tools/<x> <pinned package>` (bootstrap.mjs): without
//                 the settings that make such an install fail or land somewhere else;
//   personEnv()   `tether` itself (tether.mjs), so its agents and their shells: the environment the
//                 person ran npm in, without what `npm run` added to it.
// Plain Node, no dependencies: it runs before Bun exists.

/** npm settings (env form, lowercase) that break `npm install --prefix <dir> <one package>`, and why.
 *  npm reads its env config case-insensitively, so NPM_CONFIG_X from the person's shell counts too.
 *  Everything else (registry, proxy, cache, cafile, offline, auth) passes: the install needs it. */
const BREAKS_PREFIX_INSTALL = {
  // npm 11 refuses a CLI or env allow-scripts list in any project-scoped install (EALLOWSCRIPTS); a
  // person who ran `npm config set allow-scripts=… --location=user`, as npm itself suggests, has it
  // exported to every script. The install's own policy is its prefix's package.json (bootstrap.mjs).
  allow_scripts: true,
  // Global: the package lands in <prefix>/lib/node_modules and its binary in <prefix>/bin, not in
  // <prefix>/node_modules/.bin where we look for it.
  global: true,
  location: true,
  // The outer npm's own prefix (its global one, /usr or ~/.npm-global): our --prefix on the command
  // line wins over it today, but the place of a pinned install is only ever the one we name.
  prefix: true,
  // `npm test -w x` / `--workspaces`: a prefix has no workspaces ("No workspaces found").
  workspace: true,
  workspaces: true,
  include_workspace_root: true,
  // Installs nothing (a dry run; a lockfile only), and the binary is then missing.
  dry_run: true,
  package_lock_only: true,
};

const NPM_CONFIG = /^npm_config_(.+)$/i;

/** `env` for a nested `npm install --prefix`: without the npm settings that break it. */
export function installEnv(env) {
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    const setting = NPM_CONFIG.exec(key)?.[1]?.toLowerCase();
    if (setting && Object.hasOwn(BREAKS_PREFIX_INSTALL, setting)) continue;
    out[key] = value;
  }
  return out;
}

/** What `npm run` adds besides its config: the script's identity and npm's own paths. Lowercase
 *  npm_* are all npm's (it exports lowercase only; a person's own NPM_CONFIG_X stays as they set
 *  it). `NODE` and `INIT_CWD` are npm's too; `COLOR` is its colour setting. */
const ADDED_BY_NPM_RUN = /^(npm_[a-z0-9_]+|INIT_CWD|NODE|COLOR)$/;

/** The environment the person ran `npm run <script>` in. npm puts every ancestor's
 *  node_modules/.bin and its node-gyp-bin in front of PATH: left there, an agent started by tether
 *  would run this checkout's claude, tsc and vitest instead of the person's, and its npm would read
 *  the outer npm's config (an allow-scripts list breaks the agent's own `npm install` the same way).
 *  Outside `npm run` (no npm_lifecycle_event) `env` is returned as it is. */
export function personEnv(env) {
  if (!env.npm_lifecycle_event) return { ...env };
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    if (ADDED_BY_NPM_RUN.test(key)) continue;
    out[key] = value;
  }
  if (typeof env.PATH === 'string') out.PATH = withoutNpmRunPath(env.PATH);
  return out;
}

/** PATH without the entries `npm run` put in front: node_modules/.bin folders up to and including
 *  npm's node-gyp-bin (@npmcli/run-script's set-path.js). A PATH of another shape is left alone. */
export function withoutNpmRunPath(path) {
  const parts = path.split(':');
  const gyp = parts.findIndex((p) => p.endsWith('/node-gyp-bin'));
  if (gyp < 1 || !parts.slice(0, gyp).every((p) => p.endsWith('/node_modules/.bin'))) return path;
  return parts.slice(gyp + 1).join(':');
}
