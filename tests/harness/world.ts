// world.ts (harness): the worlds the e2e tests build, each part stopped by the test's cleanup scope
// (see cleanups.ts) in reverse order of start.
//
//   startStage:       fake Anthropic API (script) + hub (port 0) + claude sandbox pointed at the fake
//   startWorld:       a stage + `tether claude` with a desk TTY + a phone watching its session
//   startDaemonWorld: a stage + `tether daemon` + a phone-like /web socket
//
// A stage also starts more runners, phones and temp dirs under the same scope, so a test that needs
// a second runner (resume, continue) or a second watcher does not repeat the push-a-cleanup lines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { startFakeAnthropic, type FakeAnthropic, type ScriptTurn } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox, READY_PATTERN, type ClaudeSandbox } from './claude.ts';
import type { Defer } from './cleanups.ts';
import { startDaemon, type DaemonHandle } from './daemon.ts';
import { connectSocket, startHub, type HubHandle } from './hub.ts';
import { chatText, startRunner, watchSession, type RunnerHandle, type SessionWatch } from './runner.ts';

/** claude's idle, empty input box at the desk, in every supported claude version and mode. */
export const DESK_READY = READY_PATTERN;

/** Runners a test starts without arguments run in claude's manual mode: the same in every claude
 *  version (2.1.330 starts in `auto`, whose check a local fake API cannot give). Tests about modes,
 *  and tests that pass their own arguments, get claude's own default. */
export const MANUAL_MODE = ['--permission-mode', 'default'];

/** startRunner's options less the stage's own hub and sandbox; `hub: null` runs without a hub. */
export type StageRunnerOptions = Omit<Parameters<typeof startRunner>[0], 'sandbox' | 'hub'> & { hub?: null };

export type Stage = {
  fake: FakeAnthropic;
  hub: HubHandle;
  sandbox: ClaudeSandbox;
  /** `tether claude` in the sandbox, on the stage's hub; stopped by the scope. */
  startRunner(options?: StageRunnerOptions): RunnerHandle;
  /** A phone watching `sessionId` (waits until the hub knows it); stopped by the scope. */
  startWatch(sessionId: string): Promise<SessionWatch>;
  /** A fresh temp dir, removed by the scope. */
  tempDir(prefix: string): string;
};

/** The start of every continue and resume story: a desk runner in `home`, a phone watching it, and
 *  'first question' answered with 'first answer' (the stage's script says so); `claudeId` is the
 *  claude session that answered. */
export async function firstAnsweredTurn(stage: Pick<Stage, 'startRunner' | 'startWatch'>, home: string) {
  const first = stage.startRunner({ home });
  const phone = await stage.startWatch(first.sessionId);
  await first.waitForScreen(DESK_READY);
  await phone.send('first question');
  await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('first answer')), { what: 'first answer' });
  return { first, phone, claudeId: phone.session()!.agentSessionId! };
}

export async function startStage(defer: Defer, options: { script?: ScriptTurn[]; hub?: Parameters<typeof startHub>[0] } = {}): Promise<Stage> {
  const fake = await startFakeAnthropic(options.script ? { script: options.script } : {});
  defer(() => fake.stop());
  const hub = await startHub(options.hub);
  defer(() => hub.stop());
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  defer(() => sandbox.stop());
  return {
    fake,
    hub,
    sandbox,
    startRunner: (runnerOptions = {}) => {
      const runner = startRunner({ hub, sandbox, args: MANUAL_MODE, ...runnerOptions });
      defer(() => runner.stop());
      return runner;
    },
    startWatch: async (sessionId) => {
      const phone = await watchSession({ hub, sessionId });
      defer(() => phone.stop());
      return phone;
    },
    tempDir: (prefix) => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      defer(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
  };
}

export type World = Stage & { runner: RunnerHandle; phone: SessionWatch };

/** A stage, one runner and a phone watching its session; resolves once the desk shows `ready`
 *  (default DESK_READY; `false` returns before that, for a test that listens first). */
export async function startWorld(
  defer: Defer,
  options: { script?: ScriptTurn[]; hub?: Parameters<typeof startHub>[0]; runner?: StageRunnerOptions; ready?: RegExp | false } = {},
): Promise<World> {
  const stage = await startStage(defer, options);
  const runner = stage.startRunner(options.runner);
  const phone = await stage.startWatch(runner.sessionId);
  if (options.ready !== false) await runner.waitForScreen(options.ready ?? DESK_READY);
  return { ...stage, runner, phone };
}

/** The phone of the daemon tests: a plain /web socket that spawns, stops and answers. */
export async function connectPhone(defer: Defer, hub: { url: string; token: string }): Promise<Socket> {
  const phone = await connectSocket({ url: hub.url, nsp: '/web', token: hub.token, device: 'test phone' });
  defer(() => phone.close());
  return phone;
}

export type DaemonWorld = Stage & { daemon: DaemonHandle; phone: Socket };

/** A stage, a real `tether daemon` on its hub (with `daemonEnv` on top of the sandbox env) and a phone socket; `hub`: the hub's options (a PostgreSQL database). */
export async function startDaemonWorld(defer: Defer, options: { script?: ScriptTurn[]; daemonEnv?: Record<string, string>; hub?: Parameters<typeof startHub>[0] } = {}): Promise<DaemonWorld> {
  const stage = await startStage(defer, options);
  const daemon = await startDaemon({ hub: stage.hub, sandbox: stage.sandbox, ...(options.daemonEnv ? { env: options.daemonEnv } : {}) });
  defer(() => daemon.stop());
  const phone = await connectPhone(defer, stage.hub);
  return { ...stage, daemon, phone };
}
