// spawn.ts: one runner PROCESS for one session, started on the hub's request.
//
//   daemon:spawn ─► a resume id is a UUID (else not_resumable) ─► check the directory (missing →
//   dir_missing, or create it) ─► live claude owns the resumed id? (session_live) ─► <bun>
//   <cli/src/main.ts> claude [--model …] [--add-dir=<dir>…] [--permission-mode …] [--resume=<id>]
//   (each added folder must exist: dir_missing names the one that does not)
//   (attached: <cli/src/main.ts> adopt <background id> --agent <agent>)
//   env: TETHER_SESSION_ID, TETHER_MACHINE_ID, TETHER_LAUNCH_KIND, TETHER_DESK=none
//
// The runner is detached (its own session and process group, stdio to TETHER_HOME/logs/session-<id>.log),
// so it outlives a daemon restart and reconnects to the hub by itself. Nothing here retries: a runner
// that fails is reported once (runner:exited) and the user sees why.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { AgentSessionIdSchema, BackgroundIdSchema, spawnError, type Ack, type DaemonSpawn, type DaemonSpawnAck } from '@tether/shared';
import { agentFor, installedCapabilities } from '../agents/index.ts';
import { tetherCommand } from '../config/self-command.ts';
import { saveRunnerRecord, type RunnerRecord } from './runners.ts';


export function expandDir(dir: string, home = homedir()): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/')) return join(home, dir.slice(2));
  return dir;
}

/** The folders a resumed session's agent had must all be here: a start without one would give the
 *  agent less than the session had without anyone seeing it, so it is refused, naming the folder
 *  (docs/decisions/daemon.md, what a resume carries). */
function checkAddedDirs(dirs: readonly string[]): Ack<never> | null {
  for (const dir of dirs) {
    if (!isAbsolute(dir)) return spawnError('bad_request', 'not_a_directory', `an added folder must be an absolute path (got "${dir}")`);
    if (!existsSync(dir)) return spawnError('not_found', 'dir_missing', `the session's added folder ${dir} does not exist on this machine any more; create it again, or resume at the desk without it`);
    if (!statSync(dir).isDirectory()) return spawnError('bad_request', 'not_a_directory', `the session's added folder ${dir} is not a directory`);
  }
  return null;
}

export type StartedRunner = { ack: DaemonSpawnAck; record: RunnerRecord; exited: Promise<{ exitCode: number | null; signal: string | null }> };

export function startRunnerProcess(options: {
  request: DaemonSpawn;
  home: string;
  machineId: string;
  hub: { url: string; token: string };
  env: NodeJS.ProcessEnv;
}): { ok: true; started: StartedRunner } | Ack<never> {
  const { request } = options;
  // The one value from afar that lands among the agent's arguments: checked before anything happens
  // on this machine (the hub checked it too; an older hub may not have).
  if (request.resumeAgentSessionId !== null) {
    const id = AgentSessionIdSchema.safeParse(request.resumeAgentSessionId);
    if (!id.success) return spawnError('bad_request', 'not_resumable', `not a session to resume: ${id.error.issues[0]?.message ?? 'bad id'}`);
  }
  // An attached spawn's background id lands on the command line too (`tether adopt <id>`).
  if (request.launchKind === 'attached' && !BackgroundIdSchema.safeParse(request.backgroundId).success) {
    return spawnError('bad_request', 'not_resumable', 'an attached session names the background session it attaches to (8 hex digits)');
  }
  const cwd = expandDir(request.cwd, options.env.HOME || homedir());
  if (!isAbsolute(cwd)) return spawnError('bad_request', 'not_a_directory', `the directory must be an absolute path (got "${request.cwd}")`);
  if (!existsSync(cwd)) {
    if (!request.createDir) return spawnError('not_found', 'dir_missing', `directory ${cwd} does not exist on this machine (ask to create it, or pick another)`);
    try {
      mkdirSync(cwd, { recursive: true });
    } catch (error) {
      return spawnError('forbidden', 'dir_missing', `could not create ${cwd}: ${(error as Error).message}`);
    }
  } else if (!statSync(cwd).isDirectory()) {
    return spawnError('bad_request', 'not_a_directory', `${cwd} is not a directory`);
  }
  const added = checkAddedDirs(request.addedDirs);
  if (added) return added;
  const agent = agentFor(request.agent);
  try {
    agent.findBinary({ env: options.env });
  } catch (error) {
    return spawnError('bad_request', 'agent_missing', (error as Error).message);
  }
  const fork = request.fork ? installedCapabilities({ agent, env: options.env }).fork : undefined;
  if (request.fork && fork?.supported !== true) {
    return spawnError('bad_request', 'not_resumable', `${agent.name} cannot fork a conversation: ${fork?.reason ?? 'no fork in its room'}`);
  }
  // A fork writes a new conversation: the resumed one may still be live.
  if (request.resumeAgentSessionId && !request.fork) {
    const owner = agent.liveOwner?.({ env: options.env, sessionId: request.resumeAgentSessionId }) ?? null;
    if (owner !== null) {
      return spawnError('conflict', 'session_live', `${agent.name} session ${request.resumeAgentSessionId} is already running here (pid ${owner}); attach to it instead`);
    }
  }

  // The runner runs from the same code as the daemon (a checkout's main.ts, or the single binary).
  const [program, ...entry] = tetherCommand();
  // attached: `tether adopt <id>` attaches to the agent's background session; it takes no flags of the agent's.
  const args =
    request.launchKind === 'attached'
      ? [...entry, 'adopt', request.backgroundId!, '--agent', agent.kind]
      : [...entry, agent.kind, ...agent.spawnArgs({ model: request.model, permissionMode: request.permissionMode, resumeId: request.resumeAgentSessionId, readOnly: request.readOnly, addedDirs: request.addedDirs, fork: request.fork })];
  const logDir = join(options.home, 'logs');
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const logFile = join(logDir, `session-${request.sessionId}.log`);
  const fd = openSync(logFile, 'a', 0o600);
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    TETHER_HOME: options.home,
    TETHER_HUB_URL: options.hub.url,
    TETHER_TOKEN: options.hub.token,
    TETHER_SESSION_ID: request.sessionId,
    TETHER_MACHINE_ID: options.machineId,
    TETHER_LAUNCH_KIND: request.launchKind,
    TETHER_DESK: 'none',
    TETHER_RUNNER_LOG: logFile,
  };
  let child;
  try {
    child = spawn(program!, args, { cwd, env, detached: true, stdio: ['ignore', fd, fd] });
  } catch (error) {
    closeSync(fd);
    return spawnError('internal', 'runner_failed', `could not start the runner: ${(error as Error).message}`);
  } finally {
    // The child has its own copy of the descriptor.
  }
  closeSync(fd);
  if (child.pid === undefined) return spawnError('internal', 'runner_failed', 'could not start the runner (no pid)');
  child.unref();
  const record: RunnerRecord = { sessionId: request.sessionId, pid: child.pid, logFile, startedAt: Date.now() };
  saveRunnerRecord(options.home, record);
  const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ exitCode: code, signal }));
    child.once('error', () => resolveExit({ exitCode: null, signal: null }));
  });
  return { ok: true, started: { ack: { pid: child.pid, cwd, logFile }, record, exited } };
}
