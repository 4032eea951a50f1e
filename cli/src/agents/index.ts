// index.ts: the agents tether can run, by kind. The one file outside an agent's room that names them.
import type { AgentCapabilities, AgentKind } from '@tether/shared';
import type { Agent, ProjectRuleFile } from './agent.ts';
import { claudeAgent } from './claude/agent.ts';
import { codexAgent } from './codex/agent.ts';
import { geminiAgent } from './gemini/agent.ts';
import { opencodeAgent } from './opencode/agent.ts';

const AGENTS: Record<AgentKind, Agent> = {
  claude: claudeAgent,
  codex: codexAgent,
  gemini: geminiAgent,
  opencode: opencodeAgent,
};

export function agentFor(kind: AgentKind): Agent {
  return AGENTS[kind];
}

/** What the installed agent can do from the phone: its room's record for that binary's version when
 *  it differs by version, else the one record; the record when the binary cannot be found. */
export function installedCapabilities(o: { agent: Agent; env: Record<string, string | undefined>; tetherHome?: string }): AgentCapabilities {
  if (!o.agent.capabilitiesOf) return o.agent.capabilities;
  let binary: string;
  try {
    binary = o.agent.findBinary({ env: o.env });
  } catch {
    return o.agent.capabilities;
  }
  return o.agent.capabilitiesOf({ binary, env: o.env, ...(o.tetherHome ? { tetherHome: o.tetherHome } : {}) });
}

export type { Agent, LaunchPlan } from './agent.ts';
export { LaunchArgsError } from './agent.ts';

/** The project rule files of every agent that has one, each once: a rule is keyed by machine,
 *  folder and call, not by agent, so removing it takes it out of each (the daemon, with no session
 *  of the folder to say which agent ran there). */
export function projectRuleFiles(): ProjectRuleFile[] {
  return [...new Set(Object.values(AGENTS).flatMap((agent) => (agent.projectRules ? [agent.projectRules] : [])))];
}
