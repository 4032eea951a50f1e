// opencode-world.ts (harness): the daemon world for opencode: the fake chat completions API (script) +
// hub + an opencode sandbox pointed at the fake + `tether daemon` finding the pinned opencode + a
// phone socket that starts opencode sessions. Each part is stopped by the test's cleanup scope.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { onTestFailed } from 'vitest';
import type { Session } from '@tether/shared';
import { startFakeChatCompletions, type FakeChatCompletions, type ScriptTurn } from '../fixtures/fake-chat-completions/index.ts';
import type { Defer } from './cleanups.ts';
import { spawnWatched, startDaemon, type DaemonHandle } from './daemon.ts';
import { startHub, type HubHandle } from './hub.ts';
import { createOpencodeSandbox, FAKE_OPENCODE_MODEL, opencodeBin, type OpencodeSandbox } from './opencode.ts';
import { connectPhone } from './world.ts';
import type { SessionWatch } from './runner.ts';

export type OpencodeDaemonWorld = {
  fake: FakeChatCompletions;
  hub: HubHandle;
  sandbox: OpencodeSandbox;
  daemon: DaemonHandle;
  phone: Socket;
  /** An opencode session started from the phone (headless unless told; model: the fake's first unless
   *  told, none for null: the one its config names). */
  spawn(o?: { model?: string | null; launchKind?: 'headless' | 'pty' }): Promise<{ session: Session; sessionId: string; watch: SessionWatch }>;
};

export async function startOpencodeDaemonWorld(defer: Defer, options: { script?: ScriptTurn[] } = {}): Promise<OpencodeDaemonWorld> {
  const fake = await startFakeChatCompletions(options.script ? { script: options.script } : {});
  defer(() => fake.stop());
  const hub = await startHub();
  defer(() => hub.stop());
  const sandbox = createOpencodeSandbox({ fakeApiUrl: fake.url });
  defer(() => sandbox.stop());
  const daemon = await startDaemon({ hub, sandbox, env: { TETHER_OPENCODE_BIN: opencodeBin() } });
  defer(() => daemon.stop());
  // A failure says what the session logs said: read as the cleanups start (before the daemon's home
  // goes), printed if the test failed.
  const logs = () => {
    const dir = join(daemon.home, 'logs');
    if (!existsSync(dir)) return '(no logs)';
    return readdirSync(dir).map((name) => `[opencode-world] ${name}:\n${readFileSync(join(dir, name), 'utf8').slice(-4000)}`).join('\n');
  };
  let atCleanup: string | null = null;
  defer(() => {
    atCleanup = logs();
  });
  onTestFailed(() => console.log(atCleanup ?? logs()));
  const phone = await connectPhone(defer, hub);
  const spawn: OpencodeDaemonWorld['spawn'] = (o = {}) =>
    spawnWatched(defer, { hub, phone, payload: { machineId: daemon.machineId(), cwd: sandbox.cwd, agent: 'opencode', launchKind: o.launchKind ?? 'headless', ...(o.model === null ? {} : { model: o.model ?? FAKE_OPENCODE_MODEL }) }, what: 'opencode' });
  return { fake, hub, sandbox, daemon, phone, spawn };
}
