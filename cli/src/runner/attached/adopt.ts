// adopt.ts: the attached launch kind's start: a background session the agent runs on its own (claude
// --bg) becomes a tether session. Checked before anything is started, so a refusal leaves nothing
// behind: the agent has background sessions (else the reason), the id is one it runs now (asked of
// the agent, `claude agents --json`), and no other adopter holds it (claim.ts). What the PTY kind
// then runs is an AttachedLaunch: the agent's attach view in our PTY, its transcript as the chat,
// its capabilities without hook approvals, and a detach for End.
import type { Agent } from '../../agents/agent.ts';
import type { AgentBackground, BackgroundSession } from '../../agents/background.ts';
import { RunnerStartError, type RunnerOptions } from '../session/core.ts';
import type { AttachedLaunch } from '../session/attached-launch.ts';
import { claimBackground } from './claim.ts';
import { createDetacher } from './detach.ts';

/** The agent's background session `id`, as it lists it now; a clear refusal when it has none such. */
export async function findBackground(o: { agent: Agent; background: AgentBackground; binary: string; env: NodeJS.ProcessEnv; id: string }): Promise<BackgroundSession> {
  const support = await o.background.support({ binary: o.binary, env: o.env });
  if (!support.ok) throw new RunnerStartError(support.reason);
  let sessions: BackgroundSession[];
  try {
    sessions = await o.background.list({ binary: o.binary, env: o.env });
  } catch (error) {
    throw new RunnerStartError(`could not list ${o.agent.name}'s background sessions: ${error instanceof Error ? error.message : String(error)}`);
  }
  const found = sessions.find((s) => s.id === o.id);
  if (!found) throw new RunnerStartError(`${o.agent.name} runs no background session ${o.id} now (it may have ended); ${o.agent.name} lists ${sessions.length === 0 ? 'none' : sessions.map((s) => s.id).join(', ')}`);
  return found;
}

/** Holds background session `options.backgroundId` for this runner and says how to attach to it. */
export async function prepareAttach(options: RunnerOptions & { sessionId: string }, agent: Agent): Promise<AttachedLaunch> {
  const background = agent.background;
  if (!background) throw new RunnerStartError(`${agent.name} has no background sessions tether can attach to`);
  const id = options.backgroundId;
  if (!id) throw new RunnerStartError('an attached session names the background session it attaches to');
  let binary: string;
  try {
    binary = agent.findBinary({ env: options.env });
  } catch (error) {
    throw new RunnerStartError(error instanceof Error ? error.message : String(error));
  }
  const session = await findBackground({ agent, background, binary, env: options.env, id });
  const claim = claimBackground({ tetherHome: options.tetherHome, backgroundId: id, sessionId: options.sessionId });
  if (!claim.ok) {
    throw new RunnerStartError(`${agent.name} background session ${id} is already adopted by tether session ${claim.holder.sessionId} (runner pid ${claim.holder.pid}); detach it there first`);
  }
  return {
    backgroundId: id,
    agentSessionId: session.agentSessionId,
    binary,
    args: background.attachArgs(id),
    transcriptPath: background.transcriptPath({ env: options.env, session }),
    capabilities: background.capabilities(id),
    detach: ({ pty, log }) => createDetacher({ keys: background.detachKeys, pty, log }),
    stopInPool: () => background.stop({ binary, env: options.env, id }),
    release: claim.release,
  };
}
