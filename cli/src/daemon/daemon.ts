// daemon.ts: `tether daemon`: this machine on the hub. It registers the machine (name, OS, user,
// home; the id is kept in TETHER_HOME/machine-id), stays connected with back-off, and starts runner
// processes on request (spawn.ts). It never imports the runner: sessions are separate processes.
//
//   hub ─daemon:spawn─► startRunnerProcess ─► detached `tether claude` ─► registers with the hub itself
//   hub ─daemon:kill──► SIGKILL the runner's process group
//   runner exits (child exit, or pid gone for runners of an earlier daemon) ─► runner:exited ─► hub
//   hub ─daemon:shell-*─► shells.ts (only with --allow-shell) ─► shell:output/shell:exit ─► hub
//
// Invariants: runners outlive the daemon (restart = re-register, keep watching the recorded pids);
// nothing is respawned; a hub that refuses the token is retried slowly, then the daemon gives up
// and says why (exit non-zero), instead of looping forever.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { homedir, hostname, platform, release, userInfo } from 'node:os';
import { io, type Socket } from 'socket.io-client';
import {
  ackError,
  DaemonKillSchema,
  DaemonShellCommandSchemas,
  DaemonSpawnSchema,
  describeZodError,
  isUuid,
  PROTOCOL_VERSION,
  type MachineInfo,
  type RunnerExited,
} from '@tether/shared';
import { tetherPaths } from '../config/paths.ts';
import { startRunnerProcess } from './spawn.ts';
import { isAlive, listRunnerRecords, logTail, removeRunnerRecord } from './runners.ts';
import { createShellHost, type ShellHostEvent } from './shells.ts';

/** socket.io back-off: first retry fast (a hub restart takes ~1 s), then at most every 30 s. */
const RECONNECT_DELAY_MS = 500;
const RECONNECT_DELAY_MAX_MS = 30_000;
/** A refused handshake (revoked token, protocol) rarely heals: retried this slowly … */
const REFUSED_RETRY_MS = 15_000;
/** … this many times, then the daemon gives up visibly. */
const MAX_REFUSALS = 5;
/** How often runners started by an earlier daemon (not our children) are checked for exit. */
const RUNNER_POLL_MS = 1_000;

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

export function machineInfo(options: { id: string; env?: NodeJS.ProcessEnv; name?: string; shell?: boolean }): MachineInfo {
  const env = options.env ?? process.env;
  let user = env.USER ?? '';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers): keep $USER
  }
  return { id: options.id, name: (options.name ?? hostname()).slice(0, 200) || 'machine', os: `${platform()} ${release()}`, user, home: env.HOME || homedir(), shell: options.shell ?? false };
}

export type DaemonEvent =
  | { kind: 'registered'; machine: MachineInfo; hubUrl: string }
  | { kind: 'down'; reason: string }
  | { kind: 'spawned'; sessionId: string; pid: number; cwd: string; launchKind: string }
  | { kind: 'refused-spawn'; sessionId: string; error: string }
  | { kind: 'runner-exited'; sessionId: string; exitCode: number | null; signal: string | null }
  | { kind: 'gave-up'; reason: string }
  | ShellHostEvent;

export type Daemon = { machineId: string; stop(): void; done: Promise<{ gaveUp: string | null }> };

export function startDaemon(options: {
  hub: { url: string; token: string };
  env?: NodeJS.ProcessEnv;
  name?: string;
  /** `--allow-shell`: the web may open login shells on this machine (if the hub allows them too). */
  allowShell?: boolean;
  onEvent: (event: DaemonEvent) => void;
}): Daemon {
  const env = options.env ?? process.env;
  const home = tetherPaths(env).home;
  const machineId = loadMachineId(env);
  const info = machineInfo({ id: machineId, env, shell: options.allowShell ?? false, ...(options.name ? { name: options.name } : {}) });
  const socket: Socket = io(`${options.hub.url.replace(/\/+$/, '')}/cli`, {
    auth: { protocol: PROTOCOL_VERSION.major, client: 'daemon', token: options.hub.token },
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: RECONNECT_DELAY_MS,
    reconnectionDelayMax: RECONNECT_DELAY_MAX_MS,
    randomizationFactor: 0.3,
    autoConnect: false,
  });
  let stopped = false;
  let refusals = 0;
  let refusedTimer: ReturnType<typeof setTimeout> | null = null;
  let finish: (result: { gaveUp: string | null }) => void = () => {};
  const done = new Promise<{ gaveUp: string | null }>((resolve) => (finish = resolve));
  /** Pids of runners that are our own children: their exit comes from the child, not the poll. */
  const children = new Set<number>();
  /** runner:exited reports not yet acked by the hub (sent again after a reconnect). */
  const unsent = new Map<string, RunnerExited>();

  const flushExits = () => {
    if (!socket.connected) return;
    for (const [key, exit] of unsent) {
      socket.timeout(10_000).emit('runner:exited', exit, (err: unknown, ack?: { ok: boolean; code?: string }) => {
        if (!err && ack && (ack.ok || ack.code === 'not_found')) unsent.delete(key);
      });
    }
  };
  const reportExit = (record: { sessionId: string; pid: number; logFile: string }, exit: { exitCode: number | null; signal: string | null }) => {
    const { sessionId } = record;
    // A resumed session may already have a newer runner (and record): only remove our own.
    if (listRunnerRecords(home).find((r) => r.sessionId === sessionId)?.pid === record.pid) removeRunnerRecord(home, sessionId);
    options.onEvent({ kind: 'runner-exited', sessionId, ...exit });
    unsent.set(`${sessionId}:${record.pid}`, { sessionId, pid: record.pid, exitCode: exit.exitCode, signal: exit.signal, reason: logTail(record.logFile)?.slice(-480) ?? null });
    flushExits();
  };

  socket.on('connect', () => {
    refusals = 0;
    socket.timeout(10_000).emit('machine:register', info, (err: unknown, ack?: { ok: boolean; error?: string }) => {
      if (err || !ack?.ok) {
        options.onEvent({ kind: 'down', reason: `hub did not accept the machine: ${err ? 'no answer' : ack?.error}` });
        socket.disconnect().connect();
        return;
      }
      options.onEvent({ kind: 'registered', machine: info, hubUrl: options.hub.url });
      flushExits();
    });
  });
  socket.on('disconnect', (reason) => {
    shells.detachAll();
    if (!stopped) options.onEvent({ kind: 'down', reason });
  });
  socket.on('connect_error', (error: Error) => {
    if (stopped) return;
    options.onEvent({ kind: 'down', reason: error.message });
    if (socket.active) return; // a network error: socket.io backs off and retries by itself
    refusals += 1;
    if (refusals >= MAX_REFUSALS) {
      const reason = `the hub at ${options.hub.url} refused this daemon ${refusals} times (${error.message}); check the token (tether auth login) and start it again`;
      options.onEvent({ kind: 'gave-up', reason });
      stop();
      finish({ gaveUp: reason });
      return;
    }
    refusedTimer = setTimeout(() => {
      if (!stopped) socket.connect();
    }, REFUSED_RETRY_MS);
  });

  socket.on('daemon:spawn', (raw: unknown, ack?: (answer: unknown) => void) => {
    const reply = typeof ack === 'function' ? ack : () => {};
    const parsed = DaemonSpawnSchema.safeParse(raw);
    if (!parsed.success) return reply(ackError('bad_request', describeZodError(parsed.error)));
    const request = parsed.data;
    const result = startRunnerProcess({ request, home, machineId, hub: options.hub, env });
    if (!result.ok) {
      options.onEvent({ kind: 'refused-spawn', sessionId: request.sessionId, error: result.error });
      return reply(result);
    }
    const { started } = result;
    children.add(started.record.pid);
    options.onEvent({ kind: 'spawned', sessionId: request.sessionId, pid: started.ack.pid, cwd: started.ack.cwd, launchKind: request.launchKind });
    void started.exited.then((exit) => {
      children.delete(started.record.pid);
      reportExit(started.record, exit);
    });
    reply({ ok: true, ...started.ack });
  });

  socket.on('daemon:kill', (raw: unknown, ack?: (answer: unknown) => void) => {
    const reply = typeof ack === 'function' ? ack : () => {};
    const parsed = DaemonKillSchema.safeParse(raw);
    if (!parsed.success) return reply(ackError('bad_request', describeZodError(parsed.error)));
    const record = listRunnerRecords(home).find((r) => r.sessionId === parsed.data.sessionId);
    if (!record || !isAlive(record.pid)) return reply({ ok: true, killed: false });
    try {
      // The runner leads its own process group (detached): a headless claude child goes with it; a
      // PTY claude gets SIGHUP when the runner's end of the PTY closes.
      process.kill(-record.pid, 'SIGKILL');
    } catch {
      try {
        process.kill(record.pid, 'SIGKILL');
      } catch {
        return reply({ ok: true, killed: false });
      }
    }
    reply({ ok: true, killed: true });
  });

  // Web shells: output is sent only while connected (a reattaching viewer gets the held log).
  const idleFromEnv = Number(env.TETHER_SHELL_IDLE_MS);
  const shells = createShellHost({
    allow: options.allowShell ?? false,
    env,
    ...(Number.isFinite(idleFromEnv) && idleFromEnv > 0 ? { idleMs: idleFromEnv } : {}),
    sendOutput: (output) => {
      if (socket.connected) socket.emit('shell:output', output);
    },
    sendExit: (exit) => {
      if (socket.connected) socket.emit('shell:exit', exit);
    },
    onEvent: options.onEvent,
  });
  const onShell = <E extends keyof typeof DaemonShellCommandSchemas>(event: E, act: (payload: ReturnType<(typeof DaemonShellCommandSchemas)[E]['parse']>) => unknown) => {
    socket.on(event as string, (raw: unknown, ack?: (answer: unknown) => void) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      const parsed = DaemonShellCommandSchemas[event].safeParse(raw);
      if (!parsed.success) return reply(ackError('bad_request', describeZodError(parsed.error)));
      reply(act(parsed.data as ReturnType<(typeof DaemonShellCommandSchemas)[E]['parse']>));
    });
  };
  onShell('daemon:shell-open', (p) => shells.open(p));
  onShell('daemon:shell-input', (p) => shells.input(p.shellId, p.data));
  onShell('daemon:shell-resize', (p) => shells.resize(p.shellId, p));
  onShell('daemon:shell-close', (p) => shells.close(p.shellId));
  onShell('daemon:shell-detach', (p) => shells.detach(p.shellId));

  // Runners started by an earlier daemon are not our children: watch their pids.
  const poll = setInterval(() => {
    for (const record of listRunnerRecords(home)) {
      if (children.has(record.pid) || isAlive(record.pid)) continue;
      reportExit(record, { exitCode: null, signal: null });
    }
  }, RUNNER_POLL_MS);

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(poll);
    shells.stopAll();
    if (refusedTimer) clearTimeout(refusedTimer);
    socket.removeAllListeners();
    socket.disconnect();
    finish({ gaveUp: null });
  };
  socket.connect();
  return { machineId, stop, done };
}
