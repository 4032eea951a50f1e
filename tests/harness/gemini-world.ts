// gemini-world.ts (harness): the e2e world for Gemini CLI, as world.ts builds claude's: the fake Gemini
// API (script) + hub (port 0) + a Gemini sandbox pointed at the fake + `tether gemini -m <model>` with a
// desk TTY + a phone watching its session. Each part is stopped by the test's cleanup scope.
import { startFakeGemini, type FakeGemini, type ScriptTurn } from '../fixtures/fake-gemini/index.ts';
import type { Defer } from './cleanups.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY, type GeminiSandbox } from './gemini.ts';
import { startHub, type HubHandle } from './hub.ts';
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
    return runner;
  };
  const runner = start({ ...(options.args ? { args: options.args } : {}), ...(options.home ? { home: options.home } : {}) });
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  defer(() => phone.stop());
  if (options.ready !== false) await runner.waitForScreen(GEMINI_READY);
  return { fake, hub, sandbox, runner, phone, startRunner: start };
}
