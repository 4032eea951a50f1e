// world.ts (harness/journey): one world per journey row, shared by every step of that row: the row's
// stage (fake API + sandbox), a hub, a daemon on the sandbox's machine (reviews start through it),
// `tether <agent>` at a desk in the daemon's TETHER_HOME (so its session belongs to that machine), a
// phone watching the session and a plain phone socket. The project folder is a git repository with
// one committed file, `notes.txt`, which the approval step changes: the review's diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { git } from '../../../cli/src/testing/git-repo.ts';
import type { Defer } from '../cleanups.ts';
import { startDaemon, type DaemonHandle } from '../daemon.ts';
import { startHub, type HubHandle } from '../hub.ts';
import { startRunner, watchSession, type RunnerHandle, type SessionWatch } from '../runner.ts';
import { connectPhone } from '../world.ts';
import type { AgentStage, JourneyRow } from './row.ts';

/** What notes.txt says when committed. */
export const NOTES_COMMITTED = 'desk\n';

export type JourneyWorld = AgentStage & {
  row: JourneyRow;
  hub: HubHandle;
  daemon: DaemonHandle;
  runner: RunnerHandle;
  /** Watches the row's session. */
  phone: SessionWatch;
  /** Starts reviews, lists them. */
  socket: Socket;
};

export async function startJourneyWorld(defer: Defer, row: JourneyRow): Promise<JourneyWorld> {
  const stage = await row.stage(defer);
  const { cwd } = stage.sandbox;
  git(cwd, 'init', '-q');
  writeFileSync(join(cwd, 'notes.txt'), NOTES_COMMITTED);
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', 'first');
  const hub = await startHub();
  defer(() => hub.stop());
  const daemon = await startDaemon({ hub, sandbox: stage.sandbox, env: stage.binEnv });
  defer(() => daemon.stop());
  const runner = startRunner({ hub, sandbox: stage.sandbox, agent: row.agent, home: daemon.home, ...row.runner });
  defer(() => runner.stop());
  const phone = await watchSession({ hub, sessionId: runner.sessionId, timeoutMs: 45_000 });
  defer(() => phone.stop());
  const socket = await connectPhone(defer, hub);
  return { ...stage, row, hub, daemon, runner, phone, socket };
}

/** What a failed step prints: the desk's screen, the requests the phone heard, the runner's log. */
export function describeWorld(w: JourneyWorld | undefined): string {
  if (!w) return '[journey] no world: it failed to start';
  const log = join(w.runner.home, 'logs', 'runner.log');
  const requests = w.phone.requested.map((r) => ({ kind: r.kind, toolName: r.toolName, input: JSON.stringify(r.toolInput).slice(0, 200), resolved: w.phone.resolved.some((x) => x.requestId === r.id) }));
  return [
    `[journey ${w.row.agent}] screen:\n${w.runner.screenText()}`,
    `[journey ${w.row.agent}] requests: ${JSON.stringify(requests, null, 1)}`,
    `[journey ${w.row.agent}] runner log:\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '(none)'}`,
  ].join('\n');
}
