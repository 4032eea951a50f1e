// shell.test.ts: a web shell at a phone (390×844). A real hub that enables shells, a real
// `tether daemon --allow-shell` process and a real PTY login shell; the session header's Shell
// button opens it full screen, typing reaches it, and a reload of the tab reattaches to the same shell;
// a duplicated tab does not take the first one's shell; with the machine's daemon offline the header
// says so and Shell leads to the page that says what to start there.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { emitAck } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { createClaudeSandbox, type ClaudeSandbox } from '../harness/claude.ts';
import { startDaemon, type DaemonHandle } from '../harness/daemon.ts';

/** Waits for the new shell's prompt (`$` or `#` alone on a row), as a person would before typing:
 *  keys typed before /bin/sh starts are taken as type-ahead, its prompt then lands in front of the
 *  output ("$ shell-42"), and an exact row never shows (a rehearsal under load). */
async function promptShown(page: Page): Promise<void> {
  await page.locator('.xterm-rows > div').filter({ hasText: /^\s*[$#]\s*$/ }).first().waitFor({ timeout: UI_TIMEOUT_MS });
}

/** Waits for a bare prompt on a row below the one showing `text`. */
async function freshPromptAfter(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (needle) => {
      const rows = [...document.querySelectorAll('.xterm-rows > div')].map((row) => row.textContent ?? '');
      const at = rows.findIndex((row) => row.includes(needle));
      return at >= 0 && rows.slice(at + 1).some((row) => /^\s*[$#]\s*$/.test(row));
    },
    text,
    { timeout: UI_TIMEOUT_MS },
  );
}

describe('web shell', () => {
  const world = useBrowserWorld({ hub: { shell: true } });
  let sandbox: ClaudeSandbox;
  let daemon: DaemonHandle;

  beforeAll(async () => {
    // Only for its private HOME and cwd: no claude runs here.
    sandbox = createClaudeSandbox({ fakeApiUrl: 'http://127.0.0.1:9' });
    daemon = await startDaemon({ hub: world.hub, sandbox, args: ['--allow-shell'], env: { SHELL: '/bin/sh' }, name: 'build-box' });
  });
  afterAll(async () => {
    await daemon?.stop();
    sandbox?.stop();
  });

  it('phone: the Shell button opens a shell on the session’s machine; typing runs; a reload reattaches', async () => {
    const token = world.hub.token;
    const runner = await world.connect({ token });
    await world.registerSession(runner, { cwd: sandbox.cwd, launchKind: 'pty', title: 'Shell session', status: 'idle', ...daemon.machineClaim() });

    const page = await world.signedInPage('phone', token);
    await page.getByRole('link', { name: /Shell session/ }).click();
    const shellLink = page.getByRole('link', { name: 'Shell on this machine' });
    await shellLink.waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'shell-header', viewport: 'phone' });
    await shellLink.click();
    await page.getByRole('status').getByText('Shell on build-box').waitFor({ timeout: UI_TIMEOUT_MS });
    const screen = page.locator('.xterm-rows');
    await promptShown(page);
    await page.locator('.terminal-host').click();
    await page.keyboard.type('echo shell-$((6*7)); pwd\n');
    await screen.getByText('shell-42', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await screen.getByText(sandbox.cwd, { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    // A quick key: Ctrl-C at a half-typed line gives a fresh prompt.
    await page.keyboard.type('half-typed');
    await page.getByRole('toolbar', { name: 'Terminal keys' }).getByRole('button', { name: 'Ctrl-C' }).click();
    // The fresh prompt first, as a person sees it before typing on: sh drops a line that reaches it
    // before it has handled the interrupt (checked on a bare PTY: 12 of 20 lost with no pause).
    await freshPromptAfter(page, 'half-typed');
    await page.keyboard.type('echo after-ctrl-c\n');
    await screen.getByText('after-ctrl-c', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'shell', viewport: 'phone' });

    // Same tab, reloaded: the same shell (its variable and its screen are still there).
    await page.keyboard.type('MARK=kept\n');
    await page.reload();
    await page.getByRole('status').getByText('Shell on build-box · resumed').waitFor({ timeout: UI_TIMEOUT_MS });
    await screen.getByText('shell-42', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.locator('.terminal-host').click();
    await page.keyboard.type('echo "mark=$MARK"\n');
    await screen.getByText('mark=kept', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('.quick-keys').isVisible()).toBe(true);
    await page.close();
  });

  it("phone: with the session's machine offline, the header says so and Shell leads to what to start there", async () => {
    const token = world.hub.token;
    // A stand-in daemon that allowed shells, then went away.
    const machineId = randomUUID();
    const standIn = await world.connect({ token, client: 'daemon' });
    expect((await emitAck(standIn, 'machine:register', { id: machineId, name: 'old-box', os: 'linux', user: 'dev', home: '/home/dev', shell: true })).ok).toBe(true);
    const runner = await world.connect({ token });
    await world.registerSession(runner, { cwd: sandbox.cwd, launchKind: 'pty', title: 'Offline machine', status: 'idle', machineId });
    standIn.close();

    const page = await world.signedInPage('phone', token);
    await page.getByRole('link', { name: /Offline machine/ }).click();
    await page.locator('.session-header').getByRole('img', { name: 'old-box: daemon offline, start tether daemon on old-box' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByRole('link', { name: 'Shell on this machine' }).click();
    await page.getByText('old-box is offline', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByText('Start tether daemon --allow-shell on old-box to open a shell.').waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'shell-machine-offline', viewport: 'phone' });
    await page.close();
  });

  it('a duplicated tab (its sessionStorage copied) gets a shell of its own; the first tab keeps its shell', async () => {
    const token = world.hub.token;
    const runner = await world.connect({ token });
    await world.registerSession(runner, { cwd: sandbox.cwd, launchKind: 'pty', title: 'Two tabs', status: 'idle', ...daemon.machineClaim() });
    const first = await world.signedInPage('phone', token);
    await first.getByRole('link', { name: /Two tabs/ }).click();
    await first.getByRole('link', { name: 'Shell on this machine' }).click();
    await first.getByRole('status').getByText('Shell on build-box').waitFor({ timeout: UI_TIMEOUT_MS });
    await promptShown(first);
    await first.locator('.terminal-host').click();
    await first.keyboard.type('S=first; echo "tab-$S"\n');
    await first.locator('.xterm-rows').getByText('tab-first', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });

    // What "Duplicate tab" does: same browser, same URL, a copy of the tab's sessionStorage.
    const storage = await first.evaluate(() => Object.entries(sessionStorage));
    const copy = await first.context().newPage();
    await copy.addInitScript((entries: Array<[string, string]>) => {
      for (const [k, v] of entries) sessionStorage.setItem(k, v);
    }, storage);
    await copy.goto(first.url());
    await copy.getByRole('status').getByText('Shell on build-box', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await promptShown(copy);
    await copy.locator('.terminal-host').click();
    await copy.keyboard.type('echo "copy-sees-[$S]"\n');
    await copy.locator('.xterm-rows').getByText('copy-sees-[]', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });

    // The first tab still has its own shell, variable and all.
    await first.locator('.terminal-host').click();
    await first.keyboard.type('echo "first-keeps-[$S]"\n');
    await first.locator('.xterm-rows').getByText('first-keeps-[first]', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await copy.close();
    await first.close();
  });
});
