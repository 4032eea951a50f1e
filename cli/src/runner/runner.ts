// runner.ts: the runner's root: one agent session, from the options a command parsed to the
// session's result, in the launch kind it asked for. The kinds are rooms beside this file:
// interactive/ (the agent in a PTY, the desk attached) and headless/ (the agent's own transport, no
// terminal); what every session has is session/, every request to a person requests/. Only this
// file knows more than one kind; a kind never imports another (tests/architecture.test.ts).
import { DEFAULT_AGENT } from '@tether/shared';
import { agentFor } from '../agents/index.ts';
import { runHeadlessSession } from './headless/session.ts';
import { runPtySession } from './interactive/session.ts';
import { RunnerStartError, type RunnerOptions, type RunnerResult } from './session/core.ts';

export { RunnerStartError, type RunnerOptions, type RunnerResult } from './session/core.ts';

export async function runSession(options: RunnerOptions): Promise<RunnerResult> {
  const agent = agentFor(options.agent ?? DEFAULT_AGENT);
  if (options.launchKind === 'headless') {
    if (!agent.headless) throw new RunnerStartError(`${agent.name} has no headless mode in tether yet; start it with a terminal (PTY)`);
    return runHeadlessSession(options, agent.headless);
  }
  return runPtySession(options, agent);
}
