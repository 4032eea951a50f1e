// adopt-live.ts: `tether adopt <background id>`: a background session the agent runs on its own
// (claude --bg) becomes a tether session, its view in a PTY here mirrored to the hub (the runner's
// attached launch kind). Ctrl+Z at this terminal, the phone's End and `tether stop` detach: the
// session runs on in the agent's pool. `--stop` ends it there instead, after a confirmation that
// says so (`--yes` is that confirmation for a script).
import type { AgentKind } from '@tether/shared';
import { CommandError, readLine } from './command.ts';
import { runAgent } from './run-agent.ts';

/** Runs the adopted session to its end; its exit code. */
export async function adoptBackground(o: { id: string; agent: AgentKind; json: boolean }): Promise<number> {
  return runAgent({
    agent: o.agent,
    args: [],
    backgroundId: o.id,
    ...(o.json ? { onResult: (r: { sessionId: string; exitCode: number; failure: string | null }) => process.stdout.write(`${JSON.stringify({ sessionId: r.sessionId, backgroundId: o.id, exitCode: r.exitCode, failure: r.failure, detached: r.failure === null })}\n`) } : {}),
  });
}

/** `--stop`: ends the background session in the agent's pool, once a person said yes. */
export async function stopBackground(o: { id: string; agent: AgentKind; yes: boolean; json: boolean }): Promise<number> {
  const { endBackground, endConfirmation, RunnerStartError } = await import('../runner/runner.ts');
  const question = endConfirmation({ agent: o.agent, id: o.id });
  if (!o.yes) {
    if (!process.stdin.isTTY) throw new CommandError(`${question}\nnot stopped: confirm with --yes (nothing is stopped unasked)`, 2);
    const answer = (await readLine(`${question} [y/N] `)).trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') {
      process.stdout.write('not stopped\n');
      return 1;
    }
  }
  try {
    await endBackground({ agent: o.agent, env: process.env, id: o.id });
  } catch (error) {
    if (error instanceof RunnerStartError) throw new CommandError(error.message);
    throw error;
  }
  process.stdout.write(o.json ? `${JSON.stringify({ stopped: o.id })}\n` : `stopped ${o.id}\n`);
  return 0;
}
