// gemini-world.ts (harness): the e2e world for Gemini CLI, as world.ts builds claude's: the fake Gemini
// API (script) + hub (port 0) + a Gemini sandbox pointed at the fake + `tether gemini -m <model>` with a
// desk TTY + a phone watching its session; and the daemon world (startGeminiDaemonWorld), where the
// phone starts Gemini sessions. Each part is stopped by the test's cleanup scope.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { onTestFailed } from 'vitest';
import type { Session } from '@tether/shared';
import { startFakeGemini, type FakeGemini, type ScriptTurn } from '../fixtures/fake-gemini/index.ts';
import type { Defer } from './cleanups.ts';
import { spawnWatched, startDaemon, type DaemonHandle } from './daemon.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY, geminiBin, type GeminiSandbox } from './gemini.ts';
import { startHub, type HubHandle } from './hub.ts';
import { connectPhone } from './world.ts';
import { startRunner, watchSession, type RunnerHandle, type SessionWatch } from './runner.ts';

export type GeminiWorld = {
  fake: FakeGemini;
  hub: HubHandle;
  sandbox: GeminiSandbox;
  runner: RunnerHandle;
  phone: SessionWatch;
  /** Another `tether gemini` in the same sandbox (resume), stopped by the scope. */
  startRunner(options?: Omit<Parameters<typeof startRunner>[0], 'sandbox' | 'hub' | 'agent'> & { hub?: null }): RunnerHandle;
};

export async function startGeminiWorld(defer: Defer, options: { script?: ScriptTurn[]; args?: string[]; ready?: false; home?: string; settings?: Record<string, unknown> } = {}): Promise<GeminiWorld> {
  const fake = await startFakeGemini(options.script ? { script: options.script } : {});
  defer(() => fake.stop());
  const hub = await startHub();
  defer(() => hub.stop());
  const sandbox = createGeminiSandbox({ fakeApiUrl: fake.url, ...(options.settings ? { settings: options.settings } : {}) });
  defer(() => sandbox.stop());
  const start: GeminiWorld['startRunner'] = (runnerOptions = {}) => {
    const runner = startRunner({ hub, sandbox, agent: 'gemini', cols: 110, rows: 35, ...runnerOptions, args: ['-m', FAKE_GEMINI_MODEL, ...(runnerOptions.args ?? [])] });
    defer(() => runner.stop());
    latest = runner;
    return runner;
  };
  let latest: RunnerHandle | null = null;
  const runner = start({ ...(options.args ? { args: options.args } : {}), ...(options.home ? { home: options.home } : {}) });
  // `tether gemini` reads `gemini --version` before it registers the session (a fresh TETHER_HOME has
  // no cached one): measured at 15-18 s wall (1.9 s CPU) at a load of 26 on 2 cores, past the watch's
  // 20 s default, so it gets the 45 s the idle wait below gives the same read.
  const phone = await watchSession({ hub, sessionId: runner.sessionId, timeoutMs: 45_000 });
  defer(() => phone.stop());
  // A failure says what the desk showed, where each prompt got to, and what the runner logged: taken
  // as the cleanups start (before the runner stops), printed if the test failed.
  // A runner stopped before this read has no screen left (its terminal is disposed).
  const screenOf = (r: RunnerHandle) => {
    try {
      return r.screenText();
    } catch {
      return '(gone: the runner was stopped)';
    }
  };
  const describeWorld = () => {
    const shown = latest ?? runner;
    const log = join(shown.home, 'logs', 'runner.log');
    const prompts = [...phone.prompts().values()].map((p) => ({ text: p.text, status: p.status, reason: p.reason, updatedAt: p.updatedAt }));
    return `[gemini-world] screen (the runner started last):\n${screenOf(shown)}\n[gemini-world] prompts: ${JSON.stringify(prompts)}\n[gemini-world] runner log:\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '(none)'}\n[gemini-world] session files:\n${files()}`;
  };
  const files = () =>
    sandbox
      .transcripts()
      .map((f) => `${f}: ${readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => l.slice(0, 90)).join('\n    ')}`)
      .join('\n');
  let atCleanup: string | null = null;
  defer(() => {
    atCleanup = describeWorld();
  });
  onTestFailed(() => console.log(atCleanup ?? describeWorld()));
  if (options.ready !== false) {
    // Before it starts, a fresh TETHER_HOME reads `gemini --version` (seconds on a loaded machine).
    // Idle: its input is drawn and its SessionStart hook ran (the runner's start gate); the phone's
    // prompts need no more. A test typing at the desk also waits, as a person does, for the hook's
    // busy row to go (GEMINI_READY).
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session', timeoutMs: 45_000 });
    await runner.waitForScreen(GEMINI_READY);
  }
  return { fake, hub, sandbox, runner, phone, startRunner: start };
}

export type GeminiDaemonWorld = {
  fake: FakeGemini;
  hub: HubHandle;
  sandbox: GeminiSandbox;
  daemon: DaemonHandle;
  /** A plain /web socket: spawns, stops, answers. */
  phone: Socket;
  /** A Gemini session started from the phone on the daemon's machine (a PTY unless told; model:
   *  the fake's unless told), and a watch of it. */
  spawn(o?: { launchKind?: 'pty' | 'headless'; model?: string }): Promise<{ session: Session; sessionId: string; watch: SessionWatch }>;
};

/** The daemon world for Gemini: the fake Gemini API (script) + hub + Gemini sandbox + `tether daemon`
 *  finding the pinned Gemini CLI + a phone socket. */
export async function startGeminiDaemonWorld(defer: Defer, options: { script?: ScriptTurn[] } = {}): Promise<GeminiDaemonWorld> {
  const fake = await startFakeGemini(options.script ? { script: options.script } : {});
  defer(() => fake.stop());
  const hub = await startHub();
  defer(() => hub.stop());
  const sandbox = createGeminiSandbox({ fakeApiUrl: fake.url });
  defer(() => sandbox.stop());
  const daemon = await startDaemon({ hub, sandbox, env: { TETHER_GEMINI_BIN: geminiBin() } });
  defer(() => daemon.stop());
  const phone = await connectPhone(defer, hub);
  const spawn: GeminiDaemonWorld['spawn'] = (o = {}) => spawnWatched(defer, { hub, phone, payload: { machineId: daemon.machineId(), cwd: sandbox.cwd, agent: 'gemini', launchKind: o.launchKind ?? 'pty', model: o.model ?? FAKE_GEMINI_MODEL }, what: 'Gemini' });
  return { fake, hub, sandbox, daemon, phone, spawn };
}
