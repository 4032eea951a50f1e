// codex-world.ts (harness): the e2e world for Codex, as world.ts builds claude's: the fake Responses
// API (script) + hub (port 0) + a Codex sandbox pointed at the fake + `tether codex` with a desk TTY +
// a phone watching its session; and the daemon world (startCodexDaemonWorld), where the phone starts
// Codex sessions. Each part is stopped by the test's cleanup scope.
import type { Socket } from 'socket.io-client';
import type { Session } from '@tether/shared';
import { startFakeOpenAI, type FakeOpenAI, type ScriptTurn } from '../fixtures/fake-openai/index.ts';
import type { Defer } from './cleanups.ts';
import { CODEX_READY, codexStarted, createCodexSandbox, type CodexSandbox } from './codex.ts';
import { spawnWatched, startDaemon, type DaemonHandle } from './daemon.ts';
import { startHub, type HubHandle } from './hub.ts';
import { startRunner, watchSession, type RunnerHandle, type SessionWatch } from './runner.ts';
import { connectPhone } from './world.ts';

export type CodexWorld = {
  fake: FakeOpenAI;
  hub: HubHandle;
  sandbox: CodexSandbox;
  runner: RunnerHandle;
  phone: SessionWatch;
  /** Another `tether codex` in the same sandbox (resume), stopped by the scope. */
  startRunner(options?: Omit<Parameters<typeof startRunner>[0], 'sandbox' | 'hub' | 'agent'> & { hub?: null }): RunnerHandle;
};

export async function startCodexWorld(defer: Defer, options: { script?: ScriptTurn[]; args?: string[]; ready?: false; /** Reuse a TETHER_HOME (resume). */ home?: string; contextWindow?: number; hub?: Parameters<typeof startHub>[0]; managedNetwork?: boolean } = {}): Promise<CodexWorld> {
  const fake = await startFakeOpenAI(options.script ? { script: options.script } : {});
  defer(() => fake.stop());
  const hub = await startHub(options.hub);
  defer(() => hub.stop());
  const sandbox = createCodexSandbox({ fakeApiUrl: fake.url, ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}), ...(options.managedNetwork ? { managedNetwork: true } : {}) });
  defer(() => sandbox.stop());
  const start: CodexWorld['startRunner'] = (runnerOptions = {}) => {
    const runner = startRunner({ hub, sandbox, agent: 'codex', cols: 110, rows: 35, ...runnerOptions, env: { TETHER_CODEX_BIN: sandbox.bin, ...runnerOptions.env } });
    defer(() => runner.stop());
    return runner;
  };
  const runner = start({ ...(options.args ? { args: options.args } : {}), ...(options.home ? { home: options.home } : {}) });
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  defer(() => phone.stop());
  if (options.ready !== false) {
    await runner.waitForScreen(CODEX_READY);
    // Tests type at this desk next: Codex must have started its session (codexStarted).
    await runner.waitForScreen(codexStarted(sandbox.cwd));
  }
  return { fake, hub, sandbox, runner, phone, startRunner: start };
}

export type CodexDaemonWorld = {
  fake: FakeOpenAI;
  hub: HubHandle;
  sandbox: CodexSandbox;
  daemon: DaemonHandle;
  /** A plain /web socket: spawns, stops, answers. */
  phone: Socket;
  /** A Codex session started from the phone on the daemon's machine, and a watch of it. */
  spawn(launchKind: 'pty' | 'headless'): Promise<{ session: Session; sessionId: string; watch: SessionWatch }>;
};

/** The daemon world for Codex: the fake Responses API (script) + hub + Codex sandbox + `tether
 *  daemon` finding the pinned Codex + a phone socket. */
export async function startCodexDaemonWorld(defer: Defer, options: { script?: ScriptTurn[]; managedNetwork?: boolean } = {}): Promise<CodexDaemonWorld> {
  const fake = await startFakeOpenAI(options.script ? { script: options.script } : {});
  defer(() => fake.stop());
  const hub = await startHub();
  defer(() => hub.stop());
  const sandbox = createCodexSandbox({ fakeApiUrl: fake.url, ...(options.managedNetwork ? { managedNetwork: true } : {}) });
  defer(() => sandbox.stop());
  const daemon = await startDaemon({ hub, sandbox, env: { TETHER_CODEX_BIN: sandbox.bin } });
  defer(() => daemon.stop());
  const phone = await connectPhone(defer, hub);
  const spawn: CodexDaemonWorld['spawn'] = (launchKind) => spawnWatched(defer, { hub, phone, payload: { machineId: daemon.machineId(), cwd: sandbox.cwd, agent: 'codex', launchKind }, what: 'Codex' });
  return { fake, hub, sandbox, daemon, phone, spawn };
}
