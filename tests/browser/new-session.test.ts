// new-session.test.ts: starting a session from the `/new` form.
//   1. phone, a stand-in daemon (/cli socket, client "daemon"): the form lists the machine and its
//      recent directories, sends headless unless PTY is ticked, shows a missing directory as a clear
//      error with "Create the directory and start", shows progress, and opens the new session.
//   2. desktop, a hub with no machine: the form says how to get one and cannot submit.
//   3. desktop, the real `tether daemon` + real claude (fake API): a PTY session started from the
//      form opens its live terminal.
//
//   form ─session:spawn─► hub ─daemon:spawn─► daemon ─► runner ─session:register (idle)─► hub ─ack─► form
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emitAck } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startFakeAnthropic, text } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startDaemon } from '../harness/daemon.ts';
import { agentFor } from '../../cli/src/agents/index.ts';

/** A real spawn is acked once claude is ready; the hub gives up at 45 s. */
const SPAWN_UI_TIMEOUT_MS = 50_000;
/** claude's own footer, drawn by claude at its pace: in a full-suite rehearsal on 2 busy cores the
 *  spawn alone took 19 s, and the footer missed a 10 s bound meant for tether's own UI. */
const CLAUDE_UI_TIMEOUT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 120_000;

type DaemonSpawn = { sessionId: string; cwd: string; launchKind: string; createDir: boolean; permissionMode: string | null; model: string | null };

describe('new session form', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  it('phone: machine + recent directory, headless by default, missing directory → create and start as PTY, progress, opens the session', async () => {
    const namespace = 'new-phone';
    const token = await world.hub.createToken(namespace);
    const machineId = randomUUID();
    const daemon = await world.connect({ token, client: 'daemon' });
    expect((await emitAck(daemon, 'machine:register', { id: machineId, name: 'studio-mac', os: 'darwin', user: 'dev', home: '/Users/dev', capabilities: { claude: agentFor('claude').capabilities } })).ok).toBe(true);
    // An earlier session on that machine makes its directory a "recent" one.
    await world.runnerWithSession(token, { machineId, cwd: '/Users/dev/src/webshop', launchKind: 'headless', status: 'idle', title: 'old' });

    // The stand-in daemon: the first request finds no directory; the next one starts a "runner".
    const requests: DaemonSpawn[] = [];
    daemon.on('daemon:spawn', (payload: DaemonSpawn, ack: (response: unknown) => void) => {
      requests.push(payload);
      if (!payload.createDir) {
        ack({ ok: false, code: 'not_found', reason: 'dir_missing', error: `no such directory: ${payload.cwd}` });
        return;
      }
      ack({ ok: true, pid: 4242, cwd: payload.cwd, logFile: '/tmp/runner.log' });
      // The runner registers a moment later and is ready (idle) after that.
      setTimeout(async () => {
        const runner = await world.connect({ token });
        await emitAck(runner, 'session:register', { id: payload.sessionId, machineId, cwd: payload.cwd, launchKind: payload.launchKind, status: 'starting', title: 'fresh' });
        setTimeout(() => void emitAck(runner, 'session:update', { sessionId: payload.sessionId, patch: { status: 'idle' } }), 1_200);
      }, 300);
    });

    const page = await world.signedInPage('phone', token);
    await page.getByRole('link', { name: 'New session' }).click();
    const form = page.getByRole('form', { name: 'New session' });
    await form.waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(form.getByRole('radio', { name: /studio-mac/ }).isChecked()).resolves.toBe(true);
    const pty = form.getByRole('checkbox', { name: /PTY \(live terminal\)/ });
    await expect(pty.isChecked()).resolves.toBe(false);
    await form.getByRole('button', { name: 'Use /Users/dev/src/webshop' }).click();
    await expect(form.getByRole('textbox', { name: 'Directory' }).inputValue()).resolves.toBe('/Users/dev/src/webshop');
    await saveScreenshot(page, { name: 'new-session', viewport: 'phone' });

    await form.getByRole('textbox', { name: 'Directory' }).fill('~/src/brand-new');
    await form.getByRole('combobox', { name: 'Permissions' }).selectOption('acceptEdits');
    await form.getByRole('button', { name: 'sonnet', exact: true }).click();
    await form.getByRole('button', { name: 'Start session' }).click();
    const alert = form.getByRole('alert');
    await alert.getByText('no such directory: ~/src/brand-new').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(requests[0]).toMatchObject({ cwd: '~/src/brand-new', launchKind: 'headless', createDir: false, permissionMode: 'acceptEdits', model: 'sonnet' });
    await saveScreenshot(page, { name: 'new-session-error', viewport: 'phone' });

    await pty.check();
    await alert.getByRole('button', { name: 'Create the directory and start' }).click();
    await form.getByRole('status').getByText(/Claude is starting|Asking studio-mac/).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'new-session-starting', viewport: 'phone' });
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}\/terminal$/, { timeout: UI_TIMEOUT_MS });
    expect(requests[1]).toMatchObject({ cwd: '~/src/brand-new', launchKind: 'pty', createDir: true });
    expect(page.url()).toContain(requests[1]!.sessionId);
    await page.close();
  });

  it('desktop: with no machine, the form says how to get one and cannot start', async () => {
    const token = await world.hub.createToken('new-none');
    const page = await world.signedInPage('desktop', token);
    await page.goto(`${world.hub.url}/new`);
    const form = page.getByRole('form', { name: 'New session' });
    await form.getByText(/No machine has registered yet/).waitFor({ timeout: UI_TIMEOUT_MS });
    await form.getByRole('textbox', { name: 'Directory' }).fill('/srv/app');
    await expect(form.getByRole('button', { name: 'Start session' }).isDisabled()).resolves.toBe(true);
    await saveScreenshot(page, { name: 'new-session-no-machine', viewport: 'desktop' });
    await page.close();
  });

  it('desktop: the real daemon starts a PTY claude from the form and its terminal opens', async () => {
    const fake = await startFakeAnthropic({ script: [text('hello from the spawned session')] });
    defer(() => fake.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const daemon = await startDaemon({ hub: world.hub, sandbox, name: 'ci-box' });
    defer(() => daemon.stop());

    const page = await world.signedInPage('desktop', world.hub.token);
    await page.getByRole('link', { name: 'New session' }).click();
    const form = page.getByRole('form', { name: 'New session' });
    await form.getByRole('radio', { name: /ci-box/ }).check();
    await form.getByRole('textbox', { name: 'Directory' }).fill(sandbox.cwd);
    await form.getByRole('checkbox', { name: /PTY \(live terminal\)/ }).check();
    await saveScreenshot(page, { name: 'new-session', viewport: 'desktop' });
    const started = Date.now();
    await form.getByRole('button', { name: 'Start session' }).click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}\/terminal$/, { timeout: SPAWN_UI_TIMEOUT_MS });
    console.log(`[new-session] real PTY spawn from the form: ready in ${Date.now() - started} ms`);
    // claude's own TUI is on screen in the live terminal.
    // (its effort footer, `● high · /effort`, is drawn only once the TUI is ready, in every version)
    await page.locator('.xterm-rows').getByText(/· \/effort/).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'new-session-started-terminal', viewport: 'desktop' });
    const sessionId = /\/sessions\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    const phone = await world.connect({ nsp: '/web', token: world.hub.token });
    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await page.close();
  }, JOURNEY_TIMEOUT_MS);
});
