// installed.ts (harness): what every installed tether (the npm package, the single-file binary) must
// do away from this checkout, driven through its own command from a temp folder with no Bun on PATH:
//
//   --version (version, commit, kind) · tether hub --port 0 (/healthz, the web app and its assets,
//     its hints and GET /api/config in the installed words: `tether …`, never a checkout's npm run)
//   · tether doctor against that hub (hooks round trip through the installed command)
//   · tether claude (real claude, fake API) whose session reaches that hub and answers the phone
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { HubFeaturesSchema, type InstallKind } from '@tether/shared';
import { startFakeAnthropic, text } from '../fixtures/fake-anthropic/index.ts';
import { claudeBin, createClaudeSandbox } from './claude.ts';
import type { Defer } from './cleanups.ts';
import { startHubProcess } from './hub.ts';
import { chatText, startRunner, watchSession } from './runner.ts';
import { DESK_READY, MANUAL_MODE } from './world.ts';

/** Only system folders: an installed tether must not need the checkout's Bun (.tools/). */
export const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

/** A temp dir removed by the scope. */
export function installTempDir(defer: Defer, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a command to the end (async: the test's own servers keep serving). */
export async function runCommand(command: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(command, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

export async function exerciseInstalledTether(defer: Defer, options: { tether: string; kind: RegExp; install: InstallKind; commit: string; bunPath: RegExp }): Promise<void> {
  const cwd = installTempDir(defer, 'tether-installed-cwd-');
  const env = { PATH: SYSTEM_PATH };

  const version = await runCommand([options.tether, '--version'], { cwd, env });
  expect(version.stderr).toBe('');
  expect(version.stdout.trim()).toMatch(new RegExp(`^tether \\d+\\.\\d+\\.\\d+ \\(commit ${options.commit}, ${options.kind.source}\\)$`));

  const home = installTempDir(defer, 'tether-installed-hub-');
  const hub = await startHubProcess({ home, command: [options.tether], cwd, env });
  defer(() => hub.stop());
  const health = await fetch(`${hub.url}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true });
  const page = await fetch(`${hub.url}/`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<div id="root">');
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeDefined();
  const asset = await fetch(`${hub.url}${script}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toContain('javascript');
  expect((await asset.text()).length).toBeGreaterThan(1000);
  const token = hub.token!;
  expect(token).toMatch(/^tth_/);
  expect(hub.output()).toContain('sessions: tether claude (or codex, gemini) in the folder to work in');
  expect(hub.output()).toContain('more tokens: tether token create --namespace NAME');
  expect(hub.output()).not.toContain('npm run tether');
  const config = await fetch(`${hub.url}/api/config`, { headers: { authorization: `Bearer ${token}` } });
  expect(HubFeaturesSchema.parse(await config.json()).install).toBe(options.install);

  const doctor = await runCommand([options.tether, 'doctor'], {
    cwd,
    env: { ...env, TETHER_HOME: installTempDir(defer, 'tether-installed-doctor-'), TETHER_HUB_URL: hub.url, TETHER_TOKEN: token, TETHER_CLAUDE_BIN: claudeBin() },
  });
  expect(doctor.stdout).not.toContain('FAIL');
  expect(doctor.stdout).toMatch(/ok {3}hooks {2}SessionStart command hook \d+ ms/);
  expect(doctor.stdout).toMatch(options.bunPath);
  expect(doctor.code).toBe(0);

  const fake = await startFakeAnthropic({ script: [text('hello from the installed tether')] });
  defer(() => fake.stop());
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  defer(() => sandbox.stop());
  const runner = startRunner({ hub: { url: hub.url, token }, sandbox, args: MANUAL_MODE, command: [options.tether], env });
  defer(() => runner.stop());
  const phone = await watchSession({ hub: { url: hub.url, token }, sessionId: runner.sessionId });
  defer(() => phone.stop());
  await runner.waitForScreen(DESK_READY);
  const sent = await phone.send('are you installed?');
  expect(sent.ok).toBe(true);
  await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes('hello from the installed tether')), { what: 'the reply in the chat' });
  const user = phone.messages().find((m) => m.role === 'user' && m.promptId === sent.promptId);
  expect(user && chatText(user)).toBe('are you installed?');
  expect(phone.session()?.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);
}
