// environment.ts: what every agent's environment starts from: the caller's own (its defined values),
// less the variables the agent's room names (those that would make it think it runs inside another
// of itself), and a TERM when the caller had none (a daemon started without a terminal). What else
// an agent needs is its room's (claude/env.ts, gemini/agent.ts).

export function agentEnvironment(options: { env: NodeJS.ProcessEnv; dropped?: readonly string[] }): Record<string, string> {
  const dropped = new Set(options.dropped ?? []);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined && !dropped.has(key)) out[key] = value;
  if (!out.TERM) out.TERM = 'xterm-256color';
  return out;
}
