// end.ts: ending a background session in the agent's own pool (claude stop <id>): never part of a
// detach, only what a person confirmed (`tether adopt <id> --stop`). The id must be one the agent
// runs now, so a typo stops nothing.
import { agentFor } from '../../agents/index.ts';
import type { AgentKind } from '@tether/shared';
import { RunnerStartError } from '../session/core.ts';
import { findBackground } from './adopt.ts';

/** What a person is asked to confirm before `endBackground` runs. */
export function endConfirmation(o: { agent: AgentKind; id: string }): string {
  const name = agentFor(o.agent).name;
  return `This stops ${name} background session ${o.id} in ${name}'s own pool (${name} stop ${o.id}): a turn it is running ends; its conversation stays on disk. Stop it?`;
}

/** Stops background session `id` (after a person confirmed endConfirmation). */
export async function endBackground(o: { agent: AgentKind; env: NodeJS.ProcessEnv; id: string }): Promise<void> {
  const agent = agentFor(o.agent);
  const background = agent.background;
  if (!background) throw new RunnerStartError(`${agent.name} has no background sessions`);
  let binary: string;
  try {
    binary = agent.findBinary({ env: o.env });
  } catch (error) {
    throw new RunnerStartError(error instanceof Error ? error.message : String(error));
  }
  await findBackground({ agent, background, binary, env: o.env, id: o.id });
  await background.stop({ binary, env: o.env, id: o.id });
}
