// daemon.ts: `tether daemon`: this machine on the hub. It registers the machine (name, OS, user,
// home; the id is kept in TETHER_HOME/machine-id) over the hub link (hub-link/link.ts: the runners'
// client, back-off and outbox), and starts runner processes on request (spawn.ts). It never imports
// the runner: sessions are separate processes.
//
//   hub ─daemon:spawn─► startRunnerProcess ─► detached `tether claude` ─► registers with the hub itself
//   hub ─daemon:kill──► SIGKILL the runner's process group
//   runner exits (child exit, or pid gone for runners of an earlier daemon) ─► runner:exited ─► hub
//   hub ─daemon:shell-*─► shells.ts (only with --allow-shell) ─► shell:output/shell:exit ─► hub
//   hub ─daemon:rules-remove─► rules.ts: revoked rules out of a folder's rule file (no session there)
//
// Invariants: runners outlive the daemon (restart = re-register, keep watching the recorded pids);
// nothing is respawned; a hub that refuses the token is retried slowly, then the daemon gives up
// and says why (exit non-zero), instead of looping forever.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { homedir, hostname, platform, release, userInfo } from 'node:os';
import { AgentKindSchema, DEFAULT_AGENT, isUuid, type Ack, type AgentKind, type DaemonKillAck, type DaemonSpawn, type DaemonSpawnAck, type MachineInfo } from '@tether/shared';
import { agentFor, installedCapabilities, projectRuleFiles } from '../agents/index.ts';
import { loadMachineSecret, machineVouch } from '../config/machine-claim.ts';
import { tetherPaths } from '../config/paths.ts';
import { connectHubLink } from '../hub-link/link.ts';
import { memoryOutbox } from '../hub-link/outbox.ts';
import { startRunnerProcess } from './spawn.ts';
import { isAlive, listRunnerRecords, logTail, removeRunnerRecord, watchEarlierRunners } from './runners.ts';
import { createShellHost, type ShellHostEvent } from './shells.ts';
import { spawnInWorktree, worktreeCommands } from './worktrees.ts';
import { daemonOutside } from './outside-daemon.ts';
import { rulesRemoveCommand, type RulesRemoved } from './rules.ts';

/** socket.io back-off: first retry fast (a hub restart takes ~1 s), then at most every 30 s. */
const BACKOFF = { firstMs: 500, maxMs: 30_000 };
/** A refused handshake (revoked token, protocol) rarely heals: after this many the daemon gives up. */
const MAX_REFUSALS = 5;
/** How often runners started by an earlier daemon (not our children) are checked for exit, while
 *  there are any (the daemon's own runners exit as events and cost no poll). */
const EARLIER_RUNNER_POLL_MS = 1_000;

export function loadMachineId(env: NodeJS.ProcessEnv = process.env): string {
  const file = tetherPaths(env).machineId;
  if (existsSync(file)) {
    const id = readFileSync(file, 'utf8').trim();
    if (isUuid(id)) return id;
  }
  const id = randomUUID();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}

/** The agents this machine can run: those whose binary is found as a session would find it. The
 *  default agent is always listed (a missing one fails its spawn with the fix). */
function installedAgents(env: NodeJS.ProcessEnv): AgentKind[] {
  const found: AgentKind[] = [DEFAULT_AGENT];
  for (const kind of AgentKindSchema.options) {
    if (kind === DEFAULT_AGENT) continue;
    try {
      agentFor(kind).findBinary({ env });
      found.push(kind);
    } catch {
      // not installed here
    }
  }
  return found;
}

/** The agents, and what each can do from the phone (the new-session form's choices). */
function agentsOf(agents: AgentKind[], env: NodeJS.ProcessEnv): Pick<MachineInfo, 'agents' | 'capabilities'> {
  return { agents, capabilities: Object.fromEntries(agents.map((kind) => [kind, installedCapabilities({ agent: agentFor(kind), env })])) };
}

export function machineInfo(options: { id: string; env?: NodeJS.ProcessEnv; name?: string; shell?: boolean }): MachineInfo {
  const env = options.env ?? process.env;
  let user = env.USER ?? '';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers): keep $USER
  }
  return { id: options.id, name: (options.name ?? hostname()).slice(0, 200) || 'machine', os: `${platform()} ${release()}`, user, home: env.HOME || homedir(), shell: options.shell ?? false, ...agentsOf(installedAgents(env), env) };
}

export type DaemonEvent =
  | { kind: 'registered'; machine: MachineInfo; hubUrl: string }
  | { kind: 'down'; reason: string }
  | { kind: 'spawned'; sessionId: string; pid: number; cwd: string; launchKind: string }
  | { kind: 'refused-spawn'; sessionId: string; error: string }
  | { kind: 'runner-exited'; sessionId: string; exitCode: number | null; signal: string | null }
  | { kind: 'gave-up'; reason: string }
  /** Finding conversations tether did not run was switched on or off (the hub's switch). */
  | { kind: 'outside'; enabled: boolean }
  /** Revoked rules taken out of a folder's rule file, counted (never the entries themselves). */
  | ({ kind: 'rules-removed' } & RulesRemoved)
  /** The hub refused the registration (retried) or a report (dropped). */
  | { kind: 'problem'; message: string }
  | ShellHostEvent;

export type Daemon = { machineId: string; stop(): void; done: Promise<{ gaveUp: string | null }> };

export function startDaemon(options: {
  hub: { url: string; token: string };
  env?: NodeJS.ProcessEnv;
  name?: string;
  /** `--allow-shell`: the web may open login shells on this machine (if the hub allows them too). */
  allowShell?: boolean;
  /** `--outside`: find the conversations tether did not run (outside.ts); the hub may switch it off. */
  outside?: boolean;
  onEvent: (event: DaemonEvent) => void;
}): Daemon {
  const env = options.env ?? process.env;
  const home = tetherPaths(env).home;
  const machineId = loadMachineId(env);
  // The machine's secret vouches for the runners on it, the desk's included (config/machine-claim.ts).
  const info = { ...machineInfo({ id: machineId, env, shell: options.allowShell ?? false, ...(options.name ? { name: options.name } : {}) }), vouch: machineVouch(loadMachineSecret(env)), outside: options.outside ?? false };
  let stopped = false;
  let finish: (result: { gaveUp: string | null }) => void = () => {};
  const done = new Promise<{ gaveUp: string | null }>((resolve) => (finish = resolve));
  /** Runners an earlier daemon left running (read before this one starts any). */
  const earlierRunners = listRunnerRecords(home);

  const reportExit = (record: { sessionId: string; pid: number; logFile: string }, exit: { exitCode: number | null; signal: string | null }) => {
    const { sessionId } = record;
    // A resumed session may already have a newer runner (and record): only remove our own.
    if (listRunnerRecords(home).find((r) => r.sessionId === sessionId)?.pid === record.pid) removeRunnerRecord(home, sessionId);
    options.onEvent({ kind: 'runner-exited', sessionId, ...exit });
    link.push('runner:exited', { sessionId, pid: record.pid, exitCode: exit.exitCode, signal: exit.signal, reason: logTail(record.logFile)?.slice(-480) ?? null });
  };

  const startRunner = (request: DaemonSpawn): Ack<DaemonSpawnAck> => {
    const result = startRunnerProcess({ request, home, machineId, hub: options.hub, env });
    if (!result.ok) {
      options.onEvent({ kind: 'refused-spawn', sessionId: request.sessionId, error: result.error });
      return result;
    }
    const { started } = result;
    options.onEvent({ kind: 'spawned', sessionId: request.sessionId, pid: started.ack.pid, cwd: started.ack.cwd, launchKind: request.launchKind });
    void started.exited.then((exit) => reportExit(started.record, exit));
    return { ok: true, ...started.ack };
  };

  const outside = daemonOutside({ env, tetherHome: home, agents: info.agents ?? [], send: (batch) => link.send('outside:index', batch), onEvent: options.onEvent });
  const spawn = async (request: DaemonSpawn): Promise<Ack<DaemonSpawnAck>> => outside.refusal(request) ?? spawnInWorktree({ request, home: env.HOME || homedir(), start: startRunner });
  const worktrees = worktreeCommands(env);

  const kill = (sessionId: string): Ack<DaemonKillAck> => {
    const record = listRunnerRecords(home).find((r) => r.sessionId === sessionId);
    if (!record || !isAlive(record.pid)) return { ok: true, killed: false };
    try {
      // The runner leads its own process group (detached): a headless claude child goes with it; a
      // PTY claude gets SIGHUP when the runner's end of the PTY closes.
      process.kill(-record.pid, 'SIGKILL');
    } catch {
      try {
        process.kill(record.pid, 'SIGKILL');
      } catch {
        return { ok: true, killed: false };
      }
    }
    return { ok: true, killed: true };
  };

  // Web shells: output is sent only while connected (a reattaching viewer gets the held log).
  const idleFromEnv = Number(env.TETHER_SHELL_IDLE_MS);
  const shells = createShellHost({
    allow: options.allowShell ?? false,
    env,
    ...(Number.isFinite(idleFromEnv) && idleFromEnv > 0 ? { idleMs: idleFromEnv } : {}),
    sendOutput: (output) => link.send('shell:output', output),
    sendExit: (exit) => link.send('shell:exit', exit),
    onEvent: options.onEvent,
  });

  const link = connectHubLink({
    client: 'daemon',
    hubUrl: options.hub.url,
    token: options.hub.token,
    outbox: memoryOutbox(),
    backoff: BACKOFF,
    giveUpAfterRefusals: MAX_REFUSALS,
    registration: () => info,
    commands: {
      'daemon:spawn': spawn,
      'daemon:kill': (p) => kill(p.sessionId),
      'daemon:outside': (p) => outside.switchTo(p.enabled),
      'daemon:rules-remove': rulesRemoveCommand({ files: projectRuleFiles, onRemoved: (counts) => options.onEvent({ kind: 'rules-removed', ...counts }) }),
      'daemon:shell-open': (p) => shells.open(p),
      'daemon:shell-input': (p) => shells.input(p.shellId, p.data),
      'daemon:shell-resize': (p) => shells.resize(p.shellId, p),
      'daemon:shell-close': (p) => shells.close(p.shellId),
      'daemon:shell-detach': (p) => shells.detach(p.shellId),
      'daemon:worktree-probe': (p) => worktrees.probe(p),
      'daemon:worktree-inspect': (p) => worktrees.inspect(p),
      'daemon:worktree-remove': (p) => worktrees.remove(p),
    },
    onState: (state) => {
      switch (state.kind) {
        case 'connecting':
          return;
        case 'connected':
          outside.resend();
          return options.onEvent({ kind: 'registered', machine: info, hubUrl: options.hub.url });
        case 'down':
          shells.detachAll();
          return options.onEvent({ kind: 'down', reason: state.reason });
        case 'gave-up': {
          const reason = `the hub at ${options.hub.url} refused this daemon ${state.refusals} times (${state.reason}); check the token (tether auth login) and start it again`;
          options.onEvent({ kind: 'gave-up', reason });
          // Before stop(), which would settle `done` as a plain stop (exit 0).
          finish({ gaveUp: reason });
          stop();
          return;
        }
        default: {
          const never: never = state;
          return never;
        }
      }
    },
    onProblem: (message) => options.onEvent({ kind: 'problem', message }),
  });

  // Runners started by an earlier daemon: one that ended while no daemon ran is reported at once.
  const earlier = watchEarlierRunners({ records: earlierRunners, everyMs: EARLIER_RUNNER_POLL_MS, onExit: (record) => reportExit(record, { exitCode: null, signal: null }) });
  earlier.check();

  const stop = () => {
    if (stopped) return;
    stopped = true;
    earlier.stop();
    outside.stop();
    shells.stopAll();
    link.stop();
    finish({ gaveUp: null });
  };
  return { machineId, stop, done };
}
