// session-lifecycle.test.ts: End and Resume from the phone.
//   1. every viewport × theme, stand-ins for the daemon and the runner (sockets, fast): End opens a
//      modal confirmation (focus on Cancel, Esc cancels and gives focus back), "End session" ends it
//      (the runner is asked, the chat's end notice replaces the composer, the header shows Resume);
//      the notice names what a resume carries (model, added folders); with its machine offline the
//      header's machine chip says so and Resume is disabled and says why; back online Resume brings the same
//      page back to life. Screenshots of the dialog and the notice in each combination.
//   2. phone, the real `tether daemon` + real claude (fake API), a PTY session: End from the dialog,
//      claude exits, Resume from the notice, and the chat continues in the same session.
//   3. desktop, the same with a headless session.
//
//   End ─session:stop─► hub ─► runner ─session:end─► hub ─ack─► page     Resume ─session:resume─► hub ─daemon:spawn─► daemon
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { text } from '../fixtures/fake-anthropic/index.ts';
import { startFakeAnthropic } from '../fixtures/fake-anthropic/index.ts';
import { saveScreenshot, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { spawnVia, startDaemon } from '../harness/daemon.ts';
import { emitAck } from '../harness/hub.ts';
import { agentFor } from '../../cli/src/agents/index.ts';

/** A real spawn or resume is acked once claude is ready; the hub gives up at 45 s. */
const SPAWN_UI_TIMEOUT_MS = 50_000;
/** A real end: claude exits on the first Ctrl-C pair (≈ 1 s); the hub forces at 8 s + 5 s. */
const END_UI_TIMEOUT_MS = 20_000;
/** From the answer on screen to the turn's end in the store (claude writes the answer first). */
const TURN_END_TIMEOUT_MS = 15_000;

type DaemonSpawn = { sessionId: string; cwd: string; launchKind: string; resumeAgentSessionId: string | null };

const endDialog = (page: Page) => page.getByRole('alertdialog', { name: 'End this session?' });
const endNotice = (page: Page) => page.getByRole('region', { name: 'Session ended' });

describe('session lifecycle from the phone', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`${viewport}, ${colorScheme}: End asks first, ends, and Resume is disabled with the reason while the machine is offline`, async () => {
        const token = await world.hub.createToken(`life-${viewport}-${colorScheme}`);
        const machineId = randomUUID();
        const registerMachine = async () => {
          const daemon = await world.connect({ token, client: 'daemon' });
          expect((await emitAck(daemon, 'machine:register', { id: machineId, name: 'studio-mac', os: 'darwin', user: 'dev', home: '/Users/dev', capabilities: { claude: agentFor('claude').capabilities } })).ok).toBe(true);
          return daemon;
        };
        const firstDaemon = await registerMachine();
        const { runner, sessionId } = await world.runnerWithSession(token, {
          machineId,
          cwd: '/Users/dev/src/webshop',
          launchKind: 'pty',
          title: 'Fix the checkout',
          status: 'idle',
          agentSessionId: randomUUID(),
          model: 'claude-sonnet-4-5',
          addedDirs: ['/Users/dev/src/design-system'],
        });
        // The stand-in runner ends the way a real one does: asked to stop, it reports its end.
        const stopsAsked: string[] = [];
        runner.on('session:stop', ({ sessionId: id }: { sessionId: string }) => {
          stopsAsked.push(id);
          setTimeout(() => void emitAck(runner, 'session:end', { sessionId: id, status: 'ended', exitCode: 0, reason: null }), 300);
        });
        expect((await emitAck(runner, 'message:append', { sessionId, messages: [{ id: randomUUID(), role: 'user', createdAt: Date.now(), content: [{ type: 'text', text: 'Make the checkout button work on mobile' }] }] })).ok).toBe(true);

        const page = await world.browser.newPage({ viewport, colorScheme });
        const { loginWithQrLink } = await import('../harness/browser.ts');
        await loginWithQrLink(page, { hubUrl: world.hub.url, token });
        await page.goto(`${world.hub.url}/sessions/${sessionId}`);
        await page.getByText('Make the checkout button work on mobile').waitFor({ timeout: UI_TIMEOUT_MS });

        // End asks first; Cancel has the focus; Esc cancels and gives focus back to End.
        const endButton = page.getByRole('button', { name: 'End session', exact: true });
        await endButton.click();
        const dialog = endDialog(page);
        await dialog.waitFor({ timeout: UI_TIMEOUT_MS });
        await expect(dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
        await dialog.getByText(/Claude exits as it does at the desk \(Ctrl-C twice\)\. The chat and the last screen stay here\./).waitFor();
        await saveScreenshot(page, { name: `lifecycle-end-dialog-${colorScheme}`, viewport });
        // Where the focus is the moment the dialog leaves the page (not a frame later: a key typed
        // in between would land on <body>).
        await page.evaluate(() => {
          const at = window as unknown as { focusAtRemoval?: Promise<string> };
          at.focusAtRemoval = new Promise<string>((resolve) => {
            const observer = new MutationObserver(() => {
              if (document.querySelector('dialog[open]')) return;
              observer.disconnect();
              const focused = document.activeElement;
              resolve(focused ? `${focused.tagName.toLowerCase()} ${focused.getAttribute('aria-label') ?? ''}` : 'none');
            });
            observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['open'] });
          });
        });
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
        await expect(page.evaluate(() => (window as unknown as { focusAtRemoval: Promise<string> }).focusAtRemoval)).resolves.toBe('button End session');
        await expect(endButton.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
        expect(stopsAsked).toEqual([]);

        await endButton.click();
        await dialog.getByRole('button', { name: 'End session' }).click();
        await endNotice(page).getByText('This session has ended.').waitFor({ timeout: UI_TIMEOUT_MS });
        await dialog.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
        expect(stopsAsked).toEqual([sessionId]);
        await page.getByText('Make the checkout button work on mobile').waitFor();
        expect(await page.getByRole('textbox', { name: /message/i }).count()).toBe(0);
        // What a resume carries besides the conversation: the model, the folders added to the session.
        await endNotice(page).getByText('Same conversation, on studio-mac. With claude-sonnet-4-5, the added folder /Users/dev/src/design-system.').waitFor();
        const machineChip = page.locator('.session-header').getByRole('img', { name: /^studio-mac: daemon/ });
        await expect(machineChip.getAttribute('aria-label')).resolves.toBe('studio-mac: daemon online');
        await saveScreenshot(page, { name: `lifecycle-ended-${colorScheme}`, viewport });

        // The machine's daemon goes away: Resume is disabled and says why, in the notice and the header.
        firstDaemon.close();
        const reason = 'studio-mac is offline: start tether daemon on studio-mac to resume this session.';
        await endNotice(page).getByText(reason).waitFor({ timeout: UI_TIMEOUT_MS });
        // The header says the machine's daemon is offline, and what to start where.
        await expect(machineChip.getAttribute('aria-label')).resolves.toBe('studio-mac: daemon offline, start tether daemon on studio-mac');
        await expect(machineChip.textContent()).resolves.toBe('studio-mac offline');
        const noticeResume = endNotice(page).getByRole('button', { name: 'Resume', exact: true });
        await expect(noticeResume.isDisabled()).resolves.toBe(true);
        await expect(noticeResume.getAttribute('aria-describedby')).resolves.toBeTruthy();
        const headerResume = page.locator('.session-header').getByRole('button', { name: 'Resume' });
        await expect(headerResume.isDisabled()).resolves.toBe(true);
        await expect(headerResume.getAttribute('title')).resolves.toBe(reason);
        await saveScreenshot(page, { name: `lifecycle-resume-offline-${colorScheme}`, viewport });

        // Back online (a stand-in daemon that starts a stand-in runner): Resume brings this page back.
        const daemon = await registerMachine();
        const spawns: DaemonSpawn[] = [];
        daemon.on('daemon:spawn', (payload: DaemonSpawn, ack: (response: unknown) => void) => {
          spawns.push(payload);
          ack({ ok: true, pid: 4343, cwd: payload.cwd, logFile: '/tmp/runner.log' });
          setTimeout(async () => {
            const next = await world.connect({ token });
            await emitAck(next, 'session:register', { id: payload.sessionId, machineId, cwd: payload.cwd, launchKind: payload.launchKind, status: 'starting', agentSessionId: payload.resumeAgentSessionId });
            setTimeout(() => void emitAck(next, 'session:update', { sessionId: payload.sessionId, patch: { status: 'idle' } }), 300);
          }, 200);
        });
        await expect.poll(() => noticeResume.isDisabled(), { timeout: UI_TIMEOUT_MS }).toBe(false);
        await noticeResume.click();
        await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: UI_TIMEOUT_MS });
        await page.getByRole('button', { name: 'End session', exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
        expect(spawns).toEqual([expect.objectContaining({ sessionId, launchKind: 'pty' })]);
        await page.getByText('Make the checkout button work on mobile').waitFor();
        await page.close();
      });
    }
  }

  const sessionRow = async (sessionId: string) =>
    (await world.hub.store.listSessions({ namespace: world.hub.namespace })).find((s) => s.id === sessionId);

  const realClaude = async (script: string[]) => {
    const fake = await startFakeAnthropic({ script: script.map((t) => text(t)) });
    defer(() => fake.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const daemon = await startDaemon({ hub: world.hub, sandbox, name: 'ci-box' });
    defer(() => daemon.stop());
    const phone = await world.connect({ nsp: '/web', token: world.hub.token });
    return { sandbox, daemon, phone };
  };

  /** Types into the chat's composer and waits for claude's answer in the chat. */
  const chat = async (page: Page, question: string, answer: string) => {
    const box = page.getByRole('textbox', { name: /message/i });
    await box.waitFor({ timeout: SPAWN_UI_TIMEOUT_MS });
    await box.fill(question);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('log', { name: 'Chat' }).getByText(answer, { exact: true }).waitFor({ timeout: 30_000 });
  };

  const endAndResume = async (options: { page: Page; phone: Socket; sessionId: string; viewport: ViewportName; name: string }) => {
    const { page } = options;
    await page.getByRole('button', { name: 'End session', exact: true }).click();
    await endDialog(page).getByRole('button', { name: 'End session' }).click();
    await endNotice(page).getByText('This session has ended.').waitFor({ timeout: END_UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: `${options.name}-ended`, viewport: options.viewport });
    await endNotice(page).getByRole('button', { name: 'Resume', exact: true }).click();
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: SPAWN_UI_TIMEOUT_MS });
  };

  it('phone: a real PTY claude is ended from the dialog and resumed from the notice; the chat continues', async () => {
    const { sandbox, daemon, phone } = await realClaude(['first answer from pty', 'answer after resume']);
    const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'pty' });
    expect(spawned.error).toBeUndefined();
    const sessionId = spawned.session!.id;
    const page = await world.signedInPage('phone', world.hub.token);
    await page.goto(`${world.hub.url}/sessions/${sessionId}`);
    await chat(page, 'first question', 'first answer from pty');
    await page.getByRole('button', { name: 'End session', exact: true }).click();
    await endDialog(page).getByRole('button', { name: 'End session' }).click();
    await endNotice(page).getByText('This session has ended.').waitFor({ timeout: END_UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'lifecycle-real-pty-ended', viewport: 'phone' });
    // The terminal keeps claude's last screen: its own exit, with the resume hint.
    await page.getByRole('link', { name: 'Terminal' }).click();
    await page.locator('.xterm-rows').getByText(/claude --resume [0-9a-f-]{36}/).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'lifecycle-real-pty-final-screen', viewport: 'phone' });
    await page.getByRole('link', { name: 'Chat' }).click();
    await endNotice(page).getByRole('button', { name: 'Resume', exact: true }).click();
    await chat(page, 'second question', 'answer after resume');
    for (const t of ['first question', 'first answer from pty', 'second question']) await page.getByRole('log', { name: 'Chat' }).getByText(t, { exact: true }).waitFor();
    // The answer is in the transcript before claude ends its turn (Stop hook / result line).
    await expect.poll(() => sessionRow(sessionId), { timeout: TURN_END_TIMEOUT_MS }).toMatchObject({ launchKind: 'pty', status: 'idle' });
    expect(sandbox.transcripts()).toHaveLength(1);
    await saveScreenshot(page, { name: 'lifecycle-real-pty-resumed', viewport: 'phone' });
    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await page.close();
  });

  it('desktop: a real headless claude is ended from the dialog and resumed from the notice; the chat continues', async () => {
    const { sandbox, daemon, phone } = await realClaude(['first answer headless', 'headless answer after resume']);
    const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd });
    expect(spawned.error).toBeUndefined();
    const sessionId = spawned.session!.id;
    const page = await world.signedInPage('desktop', world.hub.token);
    await page.goto(`${world.hub.url}/sessions/${sessionId}`);
    await chat(page, 'first headless question', 'first answer headless');
    await endAndResume({ page, phone, sessionId, viewport: 'desktop', name: 'lifecycle-real-headless' });
    await chat(page, 'second headless question', 'headless answer after resume');
    for (const t of ['first headless question', 'first answer headless', 'second headless question']) await page.getByRole('log', { name: 'Chat' }).getByText(t, { exact: true }).waitFor();
    // The answer is in the transcript before claude ends its turn (Stop hook / result line).
    await expect.poll(() => sessionRow(sessionId), { timeout: TURN_END_TIMEOUT_MS }).toMatchObject({ launchKind: 'headless', status: 'idle' });
    expect(sandbox.transcripts()).toHaveLength(1);
    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await page.close();
  });
});
