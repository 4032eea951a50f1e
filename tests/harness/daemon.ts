// daemon.ts (harness): the real `tether daemon` as a child process in a private TETHER_HOME, with
// the claude sandbox's offline env, pointed at a test hub; and a phone-like /web client that
// spawns, stops and resumes sessions through the hub.
//
//   test ─► startDaemon ─► bun cli/src/main.ts daemon ─► hub /cli (machine:register)
//   test ─► phone.spawn ─► hub /web session:spawn ─► daemon ─► detached runner ─► claude (fake API)
//
// Invariant: stop() stops the daemon AND every runner it started (they are detached on purpose, so
// the test kills them by the pids the daemon recorded), and removes the home it made.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import type { Session } from '@tether/shared';
import { claudeBin, type ClaudeSandbox } from './claude.ts';
import type { Defer } from './cleanups.ts';
import { emitAck } from './hub.ts';
import { watchSession, type SessionWatch } from './runner.ts';
import { createWaits } from './waiting.ts';
import { startTetherInPty, TETHER_MAIN, type TetherPty } from './desk.ts';

/** The daemon registers in well under a second; a loaded box gets 20. */
const REGISTER_TIMEOUT_MS = 20_000;

/** How long a spawn or resume ack is awaited: above the hub's 45 s ready bound, so the hub's answer
 *  always comes first. */
export const SPAWN_ACK_MS = 60_000;

export type SpawnAck = { ok: boolean; session?: Session; code?: string; reason?: string; error?: string };

/** `session:spawn` from a phone-like socket, acked once the session is ready (or refused). */
export async function spawnVia(phone: Socket, payload: Record<string, unknown>): Promise<SpawnAck> {
  return emitAck<SpawnAck>(phone, 'session:spawn', payload, SPAWN_ACK_MS) as Promise<SpawnAck>;
}

/** A session spawned from `phone` (a refusal throws, naming `what`) and a watch of it, stopped by the scope. */
export async function spawnWatched(defer: Defer, options: { hub: { url: string; token: string }; phone: Socket; payload: Record<string, unknown>; what: string }): Promise<{ session: Session; sessionId: string; watch: SessionWatch }> {
  const ack = await spawnVia(options.phone, options.payload);
  if (!ack.ok || !ack.session) throw new Error(`the ${options.what} spawn was refused: ${JSON.stringify(ack)}`);
  const watch = await watchSession({ hub: options.hub, sessionId: ack.session.id });
  defer(() => watch.stop());
  return { session: ack.session, sessionId: ack.session.id, watch };
}

export type DaemonHandle = {
  home: string;
  machineId(): string;
  /** What a runner on this machine sends to name it: the id and the machine's secret
   *  (TETHER_HOME/machine-secret); without the proof the hub registers a desk session. */
  machineClaim(): { machineId: string; machineProof: string };
  output(): string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM (graceful) the daemon only; runners keep running. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  /** Runner pids the daemon recorded (TETHER_HOME/daemon/runners). */
  runnerPids(): number[];
  stop(): Promise<void>;
};

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startDaemon(options: {
  hub: { url: string; token: string };
  sandbox: Pick<ClaudeSandbox, 'env' | 'cwd'>;
  /** Reuse a TETHER_HOME (daemon restart); otherwise a fresh temp one removed by stop(). */
  home?: string;
  env?: Record<string, string>;
  name?: string;
  /** More `tether daemon` flags (e.g. --allow-shell). */
  args?: string[];
}): Promise<DaemonHandle> {
  const ownHome = !options.home;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'tether-daemon-'));
  const env: Record<string, string> = {
    ...options.sandbox.env,
    TETHER_HOME: home,
    TETHER_HUB_URL: options.hub.url,
    TETHER_TOKEN: options.hub.token,
    TETHER_CLAUDE_BIN: claudeBin(),
    ...options.env,
  };
  const child: ChildProcess = spawn(process.execPath, [TETHER_MAIN, 'daemon', '--name', options.name ?? 'test-machine', ...(options.args ?? [])], {
    cwd: options.sandbox.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waits = createWaits();
  const onChunk = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    waits.changed();
  };
  child.stdout!.on('data', onChunk);
  child.stderr!.on('data', onChunk);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    waits.changed();
    resolve(code);
  }));
  const waitForOutput = (pattern: RegExp, timeoutMs = REGISTER_TIMEOUT_MS) =>
    waits.waitFor({
      probe: () => pattern.exec(out)?.[0],
      failed: () => (child.exitCode !== null || child.signalCode !== null ? `daemon exited while waiting for ${pattern}:\n${out}` : null),
      timeoutMs,
      timedOut: () => `timed out waiting for ${pattern} in the daemon output:\n${out}`,
    });
  await waitForOutput(/registered machine/);
  const runnerPids = () => {
    const dir = join(home, 'daemon', 'runners');
    if (!existsSync(dir)) return [];
    return readdirSync(dir).flatMap((name) => {
      try {
        return [(JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pid: number }).pid];
      } catch {
        return [];
      }
    });
  };
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    home,
    machineId: () => readFileSync(join(home, 'machine-id'), 'utf8').trim(),
    machineClaim: () => ({ machineId: readFileSync(join(home, 'machine-id'), 'utf8').trim(), machineProof: readFileSync(join(home, 'machine-secret'), 'utf8').trim() }),
    output: () => out,
    waitForOutput,
    kill,
    runnerPids,
    async stop() {
      const pids = runnerPids();
      await kill('SIGTERM');
      await stopRunners(pids);
      if (ownHome) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** SIGTERM each runner (it ends claude and its session), SIGKILL its group after a grace. */
export async function stopRunners(pids: number[]): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
  const deadline = Date.now() + 5_000;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const pid of pids.filter(isAlive)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

// ---- `tether <verb>` in a PTY with a desk screen model (tether attach) -------------------------

/** Screen waits at an attached desk go through the hub twice (input up, output down). */
const DESK_WAIT_MS = 20_000;

export type DeskHandle = TetherPty;

/** Runs `tether <args>` at a fake desk: a real PTY whose bytes feed an @xterm/headless screen. */
export function startDesk(options: { args: string[]; env: Record<string, string>; cwd: string; cols?: number; rows?: number }): DeskHandle {
  const desk = startTetherInPty(options);
  return { ...desk, waitForScreen: (pattern, wait = {}) => desk.waitForScreen(pattern, { timeoutMs: wait.timeoutMs ?? DESK_WAIT_MS }) };
}
