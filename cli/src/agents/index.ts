// index.ts: the agents tether can run, by kind. The one file outside an agent's room that names them.
import type { AgentKind } from '@tether/shared';
import type { Agent } from './agent.ts';
import { claudeAgent } from './claude/agent.ts';

const AGENTS: Record<AgentKind, Agent | null> = {
  claude: claudeAgent,
  codex: null,
};

export function agentFor(kind: AgentKind): Agent {
  const agent = AGENTS[kind];
  if (!agent) throw new Error(`${kind} is not supported yet`);
  return agent;
}

export type { Agent, LaunchPlan } from './agent.ts';
export { LaunchArgsError } from './agent.ts';
