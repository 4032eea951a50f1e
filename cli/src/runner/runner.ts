// runner.ts: the runner's root: one agent session, from the options a command parsed to the
// session's result, in the launch kind it asked for. The kinds are rooms beside this file:
// interactive/ (the agent in a PTY, the desk attached), headless/ (the agent's own transport, no
// terminal) and attached/ (a background session the agent runs on its own, attached to in a PTY:
// attached/ holds it, the PTY kind runs its view); what every session has is session/, every
// request to a person requests/. Only this
// file knows more than one kind; a kind never imports another (tests/architecture.test.ts).
import { DEFAULT_AGENT } from '@tether/shared';
import { agentFor } from '../agents/index.ts';
import { runHeadlessSession } from './headless/session.ts';
import { runPtySession } from './interactive/session.ts';
import { prepareAttach } from './attached/adopt.ts';
import { RunnerStartError, type RunnerOptions, type RunnerResult } from './session/core.ts';

export { RunnerStartError, type RunnerOptions, type RunnerResult } from './session/core.ts';
export { endBackground, endConfirmation } from './attached/end.ts';

export async function runSession(options: RunnerOptions): Promise<RunnerResult> {
  const agent = agentFor(options.agent ?? DEFAULT_AGENT);
  if (options.launchKind === 'headless') {
    if (!agent.headless) throw new RunnerStartError(`${agent.name} has no headless mode in tether yet; start it with a terminal (PTY)`);
    return runHeadlessSession(options, agent.headless);
  }
  if (options.launchKind === 'attached') return runAttachedSession(options, agent);
  return runPtySession(options, agent);
}

/** Holds the background session (or refuses before anything started), runs its view in a PTY, and
 *  lets it go however the session ended. */
async function runAttachedSession(options: RunnerOptions, agent: ReturnType<typeof agentFor>): Promise<RunnerResult> {
  const sessionId = options.env.TETHER_SESSION_ID ?? crypto.randomUUID();
  const attached = await prepareAttach({ ...options, sessionId }, agent);
  try {
    return await runPtySession({ ...options, env: { ...options.env, TETHER_SESSION_ID: sessionId }, attached }, agent);
  } finally {
    attached.release();
  }
}
