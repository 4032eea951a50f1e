// index.ts: the agents tether can run, by kind. The one file outside an agent's room that names them.
import type { AgentKind } from '@tether/shared';
import type { Agent } from './agent.ts';
import { claudeAgent } from './claude/agent.ts';
import { codexAgent } from './codex/agent.ts';
import { geminiAgent } from './gemini/agent.ts';

const AGENTS: Record<AgentKind, Agent> = {
  claude: claudeAgent,
  codex: codexAgent,
  gemini: geminiAgent,
};

export function agentFor(kind: AgentKind): Agent {
  return AGENTS[kind];
}

export type { Agent, LaunchPlan } from './agent.ts';
export { LaunchArgsError } from './agent.ts';
