// session-facts.test.ts: the runner's facts about a session, as a phone and a desktop see them.
// A real hub; a /cli socket plays the runner (registers the session, patches controller/desk,
// reports the PTY size, asks for approvals and answers one at the desk).
//
//   runner ─session:register {permissionMode: bypassPermissions}─► hub ─► list row + header "Bypass"
//   runner ─session:update {controller, deskAttached}─► hub ─► header "At the desk" / "Remote"
//   runner ─session:update {usage}─► hub ─► header "12.3k tokens" (claude) / "… · context 22%" (Codex)
//   runner ─terminal:size {desk}─► hub ─terminal:size {owner}─► terminal bar, "Take control"
//   runner ─approval:request TrustFolder─► sheet "Trust this folder?" ─approval:answer─► runner
//   runner ─approval:desk-answer {answer: null}─► hub ─approval:resolved─► toast "Answered at the desk"
//   GET /api/sessions/:id audit ─► "Approval history" panel
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Answer } from '@tether/shared';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, useColorScheme, type ViewportName } from '../harness/browser.ts';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

type Answered = { sessionId: string; requestId: string; answer: Answer };

const TRUST_SCREEN = [
  ' Do you trust the files in this folder?',
  '',
  ' /home/dev/src/new-app',
  '',
  ' Claude Code may read, write, or execute files contained in this directory.',
  '',
  ' ❯ 1. Yes, proceed',
  '   2. No, exit',
].join('\n');

describe('session facts: bypass, who is in control, terminal size, trust, desk answers, audit', () => {
  const world = useBrowserWorld();

  async function startSession(options: { viewport: ViewportName; namespace: string; register: Record<string, unknown> }) {
    const token = await world.hub.createToken(options.namespace);
    const { runner, sessionId } = await world.runnerWithSession(token, { launchKind: 'pty', status: 'idle', ...options.register });
    const page = await world.signedInPage(options.viewport, token);
    return { runner, sessionId, page };
  }

  async function openSession(page: Page, title: string) {
    await page.getByRole('link', { name: new RegExp(title) }).click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: a bypass session warns in the list and the header; the header says who is in control`, async () => {
      const { runner, sessionId, page } = await startSession({
        viewport,
        namespace: `facts-${viewport}`,
        register: { cwd: '/home/dev/src/tether', title: 'Refactor the store', permissionMode: 'bypassPermissions', deskAttached: true },
      });
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { controller: 'desk' } })).ok).toBe(true);

      const row = page.getByRole('link', { name: /Refactor the store/ });
      await row.getByRole('img', { name: 'Bypass: permission checks are off' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'facts-list-bypass', viewport });

      await openSession(page, 'Refactor the store');
      const bypass = page.getByRole('button', { name: 'Bypass: permission checks are off. What this means' });
      await bypass.click();
      const explained = page.getByRole('dialog', { name: 'Permission checks are off' });
      await explained.getByText('--dangerously-skip-permissions').waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'facts-bypass-explained', viewport });
      await page.keyboard.press('Escape');
      await explained.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });

      const atDesk = page.getByRole('button', { name: 'In control: At the desk. Details' });
      await atDesk.waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'facts-at-the-desk', viewport });

      // A phone typed: the runner reports the remote as controller; the desk stays attached.
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { controller: 'remote' } })).ok).toBe(true);
      const remote = page.getByRole('button', { name: 'In control: Remote. Details' });
      await remote.click();
      await page.getByRole('dialog', { name: 'Driven remotely' }).getByText('A desk terminal is attached').waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'facts-remote', viewport });

      // The desk left and nobody typed since: only the remote controller remains.
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { deskAttached: false, controller: null } })).ok).toBe(true);
      await remote.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      await page.close();
    });

    it(`${viewport}: the tokens a session used, with the context's share when the agent states its window; light and dark`, async () => {
      const namespace = `usage-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const { runner, sessionId } = await world.runnerWithSession(token, { launchKind: 'pty', status: 'idle', cwd: '/home/dev/src/tether', title: 'Count the tokens', model: 'claude-opus-4-8', deskAttached: true });
      const codex = await world.runnerWithSession(token, { launchKind: 'pty', status: 'idle', agent: 'codex', cwd: '/home/dev/src/api', title: 'Codex tokens', model: 'gpt-5.5' });
      const page = await world.signedInPage(viewport, token);
      await openSession(page, 'Count the tokens');
      // Before the runner has read any usage there is nothing to show.
      await expect(page.locator('.usage-chip').count()).resolves.toBe(0);

      /** Opens the chip's details and looks at them in both themes, axe included. */
      async function details(chip: ReturnType<Page['getByRole']>, name: string) {
        await chip.click();
        const panel = page.getByRole('dialog', { name: 'Tokens used' });
        await panel.waitFor({ timeout: UI_TIMEOUT_MS });
        for (const scheme of ['light', 'dark'] as const) {
          await useColorScheme(page, scheme);
          await saveScreenshot(page, { name: `${name}-${scheme}`, viewport });
          expect(seriousOnes(await axeViolations(page))).toEqual([]);
        }
        await useColorScheme(page, 'light');
        return panel;
      }

      // claude states no window: the total alone.
      const used = { inputTokens: 11_900, cachedInputTokens: 9_000, outputTokens: 412, contextTokens: 4_210, contextWindow: null };
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { usage: used, controller: 'desk' } })).ok).toBe(true);
      const chip = page.getByRole('button', { name: '12.3k tokens used. Details' });
      await chip.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(chip.textContent()).resolves.toBe('12.3k tokens');
      await saveScreenshot(page, { name: 'facts-usage', viewport });
      const claudePanel = await details(chip, 'facts-usage-details');
      await claudePanel.getByText('4.2k', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await claudePanel.getByText("Claude does not say how large its context window is.", { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.keyboard.press('Escape');
      await claudePanel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });

      // Codex states its window (95% of the model's): the share of it the last request filled.
      // A phone goes back to the list; a desktop shows it beside the session.
      if (viewport === 'phone') await page.getByRole('link', { name: 'Back to sessions' }).click();
      await openSession(page, 'Codex tokens');
      const window = { inputTokens: 1_260_000, cachedInputTokens: 1_100_000, outputTokens: 18_500, contextTokens: 41_800, contextWindow: 190_000 };
      expect((await emitAck(codex.runner, 'session:update', { sessionId: codex.sessionId, patch: { usage: window } })).ok).toBe(true);
      const withWindow = page.getByRole('button', { name: '1.3M tokens · context 22% full. Details' });
      await withWindow.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(withWindow.textContent()).resolves.toBe('1.3M tokens · context 22%');
      const codexPanel = await details(withWindow, 'facts-usage-window');
      await codexPanel.getByText('41.8k of 190k (22%)').waitFor({ timeout: UI_TIMEOUT_MS });
      await codexPanel.getByText('(1.1M from cache)').waitFor({ timeout: UI_TIMEOUT_MS });
      await page.keyboard.press('Escape');
      await codexPanel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await useColorScheme(page, 'dark');
      await saveScreenshot(page, { name: 'facts-usage-window-dark', viewport });
      expect(seriousOnes(await axeViolations(page))).toEqual([]);
      await page.close();
    });

    it(`${viewport}: the terminal says who owns the size; Take control once the desk leaves`, async () => {
      const { runner, sessionId, page } = await startSession({
        viewport,
        namespace: `size-${viewport}`,
        register: { cwd: '/home/dev/src/tether', title: 'Size owner', deskAttached: true },
      });
      runner.on('terminal:snapshot-request', () => {
        void emitAck(runner, 'terminal:snapshot', { sessionId, offset: 0, cols: 100, rows: 30, data: '\x1b[1m✻ Welcome to Claude Code!\x1b[0m\r\n> ' });
      });
      expect((await emitAck(runner, 'terminal:size', { sessionId, offset: 0, cols: 100, rows: 30, desk: true })).ok).toBe(true);

      await openSession(page, 'Size owner');
      await page.getByRole('link', { name: 'Terminal', exact: true }).click();
      await page.locator('.xterm-rows').getByText('Welcome to Claude Code!').waitFor({ timeout: UI_TIMEOUT_MS });
      const bar = page.locator('.terminal-size');
      await bar.getByText('The desk sets the size').waitFor({ timeout: UI_TIMEOUT_MS });
      const take = page.getByRole('button', { name: 'Take control' });
      await expect(take.isDisabled()).resolves.toBe(true);
      await page.getByRole('button', { name: 'About the terminal size' }).click();
      await page.getByText('A desk terminal is attached: it sets the size while it stays.').waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'facts-terminal-desk', viewport });

      // The desk detaches: nobody owns the size, and this screen may take it.
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { deskAttached: false } })).ok).toBe(true);
      expect((await emitAck(runner, 'terminal:size', { sessionId, offset: 0, cols: 100, rows: 30, desk: false })).ok).toBe(true);
      await page.getByText('Nobody has claimed the size yet.').waitFor({ timeout: UI_TIMEOUT_MS });
      const resized = nextEvent<{ sessionId: string; cols: number; rows: number }>(runner, 'terminal:resize');
      await take.click();
      const size = await resized;
      expect(size.sessionId).toBe(sessionId);
      await bar.getByText('Sized to this screen').waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole('button', { name: 'Fit to screen' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'facts-terminal-you', viewport });
      await page.close();
    });

    it(`${viewport}: trust a folder, a request answered at the desk, and the approval history`, async () => {
      const namespace = `trust-${viewport}`;
      const { runner, sessionId, page } = await startSession({
        viewport,
        namespace,
        register: { cwd: '/home/dev/src/new-app', title: 'New app' },
      });
      await openSession(page, 'New app');
      await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });

      async function ask(toolName: string, toolInput: Record<string, unknown>): Promise<string> {
        const id = randomUUID();
        const kind = 'permission';
        const ack = await emitAck(runner, 'approval:request', { id, sessionId, kind, toolName, toolInput, toolUseId: null, createdAt: Date.now() - 3_000 });
        expect(ack.ok).toBe(true);
        return id;
      }

      // 1. claude asks whether to trust the new folder: trusted from the phone.
      const trust = await ask('TrustFolder', { cwd: '/home/dev/src/new-app', screen: TRUST_SCREEN });
      const sheet = page.getByRole('dialog', { name: 'Trust this folder?' });
      await sheet.getByText('Folder: /home/dev/src/new-app').waitFor({ timeout: UI_TIMEOUT_MS });
      await sheet.getByText('Claude will read, edit and run files in this folder.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(sheet.getByText('"cwd"').count()).resolves.toBe(0); // not the generic JSON card
      await saveScreenshot(page, { name: 'facts-trust-folder', viewport });
      const trusted = nextEvent<Answered>(runner, 'approval:answered');
      await sheet.getByRole('button', { name: 'Trust folder' }).click();
      expect(await trusted).toEqual({ sessionId, requestId: trust, answer: { decision: 'allow' } });
      await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });

      // 2. A command the desk takes to claude's own dialog ([c]): the sheet closes and says so.
      const bash = await ask('Bash', { command: 'rm -rf node_modules && bun install' });
      const run = page.getByRole('dialog', { name: 'Run this command?' });
      await run.waitFor({ timeout: UI_TIMEOUT_MS });
      const desk = await emitAck<{ won: boolean }>(runner, 'approval:desk-answer', { sessionId, requestId: bash, answer: null, device: 'desk@devbox' });
      expect(desk).toMatchObject({ ok: true, won: true });
      await run.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await page.getByRole('status').filter({ hasText: 'Answered at the desk.' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(page.getByText('Answered on another device.').count()).resolves.toBe(0);
      await saveScreenshot(page, { name: 'facts-answered-at-desk', viewport });

      // 3. Another trust question, refused: "Don't trust" is a deny (claude then exits).
      const refuse = await ask('TrustFolder', { cwd: '/tmp/downloaded-repo', screen: TRUST_SCREEN });
      const second = page.getByRole('dialog', { name: 'Trust this folder?' });
      await second.getByText('Folder: /tmp/downloaded-repo').waitFor({ timeout: UI_TIMEOUT_MS });
      const refused = nextEvent<Answered>(runner, 'approval:answered');
      await second.getByRole('button', { name: "Don't trust" }).click();
      expect(await refused).toEqual({ sessionId, requestId: refuse, answer: { decision: 'deny' } });
      await second.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });

      // 4. The history: newest first, who (token label or desk), device, how long it waited.
      await page.getByRole('button', { name: 'Approval history' }).click();
      const history = page.getByRole('dialog', { name: 'Approval history' });
      const rows = history.getByRole('listitem');
      await rows.nth(2).waitFor({ timeout: UI_TIMEOUT_MS });
      const texts = await rows.allTextContents();
      expect(texts).toHaveLength(3);
      expect(texts[0]).toMatch(/Trust folder.*Denied.*test trust-.*waited \d+s/);
      expect(texts[1]).toMatch(/Bash.*The agent's dialog.*desk.*desk@devbox.*waited \d+s/);
      expect(texts[2]).toMatch(/Trust folder.*Allowed.*test trust-.*waited \d+s/);
      // The desk then allowed it in claude's dialog: the runner reports it, the open history shows it.
      expect(await emitAck(runner, 'approval:dialog-outcome', { sessionId, requestId: bash, decision: 'allow' })).toMatchObject({ ok: true });
      await history.getByText("Allowed in the agent's dialog").waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await rows.nth(1).textContent()).toMatch(/Bash.*Allowed in the agent's dialog.*desk.*desk@devbox/);
      await saveScreenshot(page, { name: 'facts-approval-history', viewport });

      // A fresh tab has only the hub's audit (no tool names yet), and still says who answered.
      const fresh = await world.signedInPage(viewport, await world.hub.createToken(namespace, 'second phone'));
      await openSession(fresh, 'New app');
      await fresh.getByRole('button', { name: 'Approval history' }).click();
      const freshRows = fresh.getByRole('dialog', { name: 'Approval history' }).getByRole('listitem');
      await freshRows.nth(2).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await freshRows.nth(1).textContent()).toMatch(/Allowed in the agent's dialog.*desk.*desk@devbox/);
      await fresh.close();
      await page.close();
    });
  }
});
