// env.ts: the environment claude runs with: the caller's, minus what breaks a nested claude.
// `CLAUDECODE` (set inside a claude session) can stop a nested claude from writing its transcript,
// so it goes. Everything else stays, including CLAUDE_CODE_OAUTH_TOKEN and ANTHROPIC_* (auth):
// stripping every CLAUDE_CODE_* variable is a known way to break login.
import { agentEnvironment } from '../environment.ts';

/** Variables that make claude think it runs inside another claude. */
const DROPPED = ['CLAUDECODE'] as const;

export function buildClaudeEnv(options: { env?: NodeJS.ProcessEnv; extra?: Record<string, string> } = {}): Record<string, string> {
  return { ...agentEnvironment({ env: options.env ?? process.env, dropped: DROPPED }), ...options.extra };
}

/** Where claude keeps sessions/, projects/ and .claude.json for this environment. */
export function claudeConfigDir(env: Record<string, string | undefined>): string {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  const home = env.HOME ?? '';
  return `${home}/.claude`;
}
