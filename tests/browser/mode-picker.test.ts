// mode-picker.test.ts: claude's permission mode in the session header, switched from the phone. A /cli
// socket plays the runner: it receives session:set-mode and reports the mode the way the real runner
// does (from claude's footer or hook payloads), and the header follows. The new-session form offers
// claude's modes, auto included. A PTY Gemini's chip (its mode is tether's gate's policy) offers
// Gemini's own modes, screenshotted at both sizes in both themes with axe.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { agentFor } from '../../cli/src/agents/index.ts';

describe('permission mode', () => {
  const world = useBrowserWorld();

  /** A session's page with its mode panel open from the header's chip (`chip`: the mode it shows). */
  async function openModes(o: { viewport: ViewportName; tokenName: string; session: Record<string, unknown> & { title: string }; chip: string }) {
    const token = await world.hub.createToken(o.tokenName);
    const { runner, sessionId } = await world.runnerWithSession(token, { status: 'idle', ...o.session });
    const page = await world.signedInPage(o.viewport, token);
    await page.getByRole('link', { name: new RegExp(o.session.title) }).click();
    const chip = page.getByRole('button', { name: `Permission mode: ${o.chip}. Change mode` });
    await chip.waitFor({ timeout: UI_TIMEOUT_MS });
    await chip.click();
    const panel = page.getByRole('dialog', { name: 'Switch permission mode' });
    await panel.waitFor({ timeout: UI_TIMEOUT_MS });
    return { runner, sessionId, page, panel, modes: panel.getByRole('group', { name: 'Modes' }) };
  }

  /** Plan chosen in the panel: asked of the runner; once it reports plan, the chip says so. */
  async function choosePlan(o: Awaited<ReturnType<typeof openModes>>): Promise<void> {
    const asked = nextEvent<{ sessionId: string; mode: string }>(o.runner, 'session:set-mode');
    await o.modes.getByRole('button', { name: /^Plan/ }).click();
    expect(await asked).toEqual({ sessionId: o.sessionId, mode: 'plan' });
    await o.panel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    expect((await emitAck(o.runner, 'session:update', { sessionId: o.sessionId, patch: { permissionMode: 'plan' } })).ok).toBe(true);
    await o.page.getByRole('button', { name: 'Permission mode: Plan. Change mode' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await o.page.close();
  }

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: the header shows claude's mode and switches it; bypass is offered only to a bypass session`, async () => {
      const opened = await openModes({ viewport, tokenName: `mode-${viewport}`, session: { title: 'Mode switch', permissionMode: 'auto' }, chip: 'Auto' });
      await expect(opened.modes.getByRole('button', { name: /^Auto/ }).getAttribute('aria-pressed')).resolves.toBe('true');
      await expect(opened.modes.getByRole('button', { name: /^Bypass/ }).count()).resolves.toBe(0);
      await saveScreenshot(opened.page, { name: 'mode-picker', viewport });
      await choosePlan(opened);
    });
  }

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: a PTY Gemini's mode (its gate's policy) in the header: Gemini's modes with what its gate does in each, both themes pass axe, plan is asked of the runner`, async () => {
      const session = { agent: 'gemini', launchKind: 'pty', title: 'Gemini gate', permissionMode: 'default', capabilities: agentFor('gemini').capabilities };
      const opened = await openModes({ viewport, tokenName: `gemini-mode-${viewport}`, session, chip: 'Ask' });
      // Bypass only for a session started in yolo; this one was not.
      expect(await opened.modes.getByRole('button').allTextContents()).toEqual([
        'AskEdits and commands wait for an answer',
        'Accept editsFile edits go ahead; commands still ask',
        'PlanThe agent reads and plans; nothing is changed in this mode',
      ]);
      await expect(opened.modes.getByRole('button', { name: /^Ask/ }).getAttribute('aria-pressed')).resolves.toBe('true');
      expect(await screenshotsAndSeriousInBothThemes(opened.page, { name: 'gemini-mode-picker', viewport })).toEqual([]);
      await choosePlan(opened);
    });
  }

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: the new-session form offers claude’s modes, auto included`, async () => {
      const token = await world.hub.createToken(`mode-new-${viewport}`);
      const daemon = await world.connect({ token, client: 'daemon' });
      expect((await emitAck(daemon, 'machine:register', { id: randomUUID(), name: 'mode-box', os: 'linux', user: 'dev', home: '/home/dev', capabilities: { claude: agentFor('claude').capabilities } })).ok).toBe(true);
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: 'New session' }).click();
      const form = page.getByRole('form', { name: 'New session' });
      await form.waitFor({ timeout: UI_TIMEOUT_MS });
      const select = form.getByRole('combobox', { name: 'Permissions' });
      await select.waitFor({ timeout: UI_TIMEOUT_MS });
      const options = await select.locator('option').allTextContents();
      expect(options).toEqual(['Ask for approvals', 'Accept edits', 'Plan first', 'Auto', "Don't ask"]);
      await select.selectOption('auto');
      await expect(page.getByText("Claude's safety check runs what it judges safe and asks about the rest").count()).resolves.toBe(1);
      await saveScreenshot(page, { name: 'new-session-modes', viewport });
      await page.close();
    });
  }

  it('a session whose runner stated no capabilities (older than them) offers no mode or model picker: its model is shown as reported', async () => {
    const token = await world.hub.createToken('mode-no-capabilities');
    await world.runnerWithSession(token, { cwd: '/home/dev/src/old', launchKind: 'pty', title: 'Old runner', status: 'idle', model: 'claude-sonnet-4-5', capabilities: null });
    const page = await world.signedInPage('phone', token);
    await page.getByRole('link', { name: /Old runner/ }).click();
    const facts = page.getByRole('group', { name: 'Session facts' });
    await facts.getByText('claude-sonnet-4-5').waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(facts.getByRole('button', { name: /Permission mode/ }).count()).resolves.toBe(0);
    await expect(facts.getByRole('button', { name: /^Model:/ }).count()).resolves.toBe(0);
    await page.close();
  });

  it('a machine whose daemon stated no capabilities starts a session with the agent\'s own defaults: no mode or model shortcut', async () => {
    const token = await world.hub.createToken('mode-new-no-capabilities');
    const daemon = await world.connect({ token, client: 'daemon' });
    expect((await emitAck(daemon, 'machine:register', { id: randomUUID(), name: 'old-box', os: 'linux', user: 'dev', home: '/home/dev' })).ok).toBe(true);
    const page = await world.signedInPage('phone', token);
    await page.getByRole('link', { name: 'New session' }).click();
    const form = page.getByRole('form', { name: 'New session' });
    await form.getByLabel('Model').waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(form.getByRole('combobox', { name: 'Permissions' }).count()).resolves.toBe(0);
    await expect(form.getByRole('group', { name: 'Model shortcuts' }).count()).resolves.toBe(0);
    await page.close();
  });
});
