// private-env.ts: what tether's own processes know and the programs they start must not.
// A runner holds the hub token and the session's identity; the agent it runs (and anything the
// agent runs: a shell command, an MCP server, a script in the repo) and a web shell get none of it.
// A `tether` run inside the agent then uses the user's own login (`tether auth login`), not the
// runner's. Hooks reach the runner through their own per-session file, not these.
const PRIVATE_KEYS = ['TETHER_HUB_URL', 'TETHER_TOKEN', 'TETHER_SESSION_ID', 'TETHER_MACHINE_ID', 'TETHER_LAUNCH_KIND', 'TETHER_DESK', 'TETHER_RUNNER_LOG'] as const;

export function isPrivateEnvKey(key: string): boolean {
  return (PRIVATE_KEYS as readonly string[]).includes(key);
}

/** `env` without tether's private keys (a copy; values left as they are). */
export function withoutPrivateEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (!isPrivateEnvKey(key)) out[key] = value;
  return out;
}
