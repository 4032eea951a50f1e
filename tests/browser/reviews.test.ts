// reviews.test.ts: a review from the phone (issue 29), at 390×844 and 1280×800: the hub serves
// web/dist; a daemon and the runners are played by sockets (the real agents are the e2e's:
// tests/e2e/reviews.test.ts), so each step is the test's to time. From the Changes view the person
// starts a review by Codex with a focus; the reviewer (read-only, through the daemon) answers; the
// card in the parent's chat shows it collapsed, opens to the answer, sends the edited findings to
// claude (the parent's runner gets the prompt), and ends the reviewer (read-only from then on).
// The session list marks the review. axe in both themes on the card and the start dialog.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Socket } from 'socket.io-client';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { saveScreenshot, UI_TIMEOUT_MS, useColorScheme, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { emitAck } from '../harness/hub.ts';
import { agentFor } from '../../cli/src/agents/index.ts';

const FINDINGS = 'src/app.ts:4 returns 2, but the caller still expects 1.\nThe test in app.test.ts covers neither.';
const DIFF_PAGE = {
  kind: 'changes',
  git: true,
  head: 'abc1234',
  branch: 'main',
  files: [{ path: 'src/app.ts', status: 'modified', binary: false, additions: 1, deletions: 1 }],
  total: 1,
  cursor: 0,
  diffs: [{ path: 'src/app.ts', binary: false, hunks: [{ oldStart: 3, newStart: 3, section: 'main()', lines: [' keep', '-  return 1;', '+  return 2;'] }], lineCount: 3, truncated: false }],
  next: null,
};

async function bothThemes(page: Page, name: string, viewport: ViewportName): Promise<string[]> {
  const serious: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await useColorScheme(page, scheme);
    await saveScreenshot(page, { name: `${name}-${scheme}`, viewport });
    serious.push(...seriousOnes(await axeViolations(page)).map((line) => `${scheme}: ${line}`));
  }
  await useColorScheme(page, 'light');
  return serious;
}

describe('a review from the phone', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: start from Changes, the answer on the card, Send to Claude, End`, async () => {
      const token = await world.hub.createToken(`reviews-${viewport}`);
      const machineId = randomUUID();
      const daemon = await world.connect({ token, client: 'daemon' });
      const capabilities = { claude: agentFor('claude').capabilities, codex: agentFor('codex').capabilities };
      expect((await emitAck(daemon, 'machine:register', { id: machineId, name: 'dev-box', os: 'linux', user: 'dev', home: '/home/dev', agents: ['claude', 'codex'], capabilities })).ok).toBe(true);
      const cwd = '/home/dev/src/app';
      const parent = await world.connect({ token });
      const parentId = await world.registerSession(parent, { machineId, cwd, launchKind: 'pty', title: 'Fix the return value', status: 'idle' });
      parent.on('workspace:query', (_q: unknown, reply: (a: unknown) => void) => reply({ ok: true, ...DIFF_PAGE }));
      const toParent: string[] = [];
      parent.on('prompt:deliver', (p: { text: string }) => toParent.push(p.text));

      // The daemon starts the reviewer: its runner registers, goes idle, and answers its first prompt.
      const spawns: Array<Record<string, unknown>> = [];
      let child: Socket | null = null;
      daemon.on('daemon:spawn', (spawn: { sessionId: string; cwd: string; launchKind: string; agent: 'codex' }, reply: (a: unknown) => void) => {
        spawns.push(spawn);
        reply({ ok: true, pid: 4000 + spawns.length, cwd: spawn.cwd, logFile: '/tmp/reviewer.log' });
        void (async () => {
          const runner = await world.connect({ token });
          child = runner;
          await world.registerSession(runner, { id: spawn.sessionId, machineId, cwd: spawn.cwd, launchKind: spawn.launchKind, agent: spawn.agent, title: 'Review' });
          runner.on('prompt:deliver', (p: { sessionId: string; promptId: string }) => {
            void (async () => {
              await emitAck(runner, 'prompt:status', { sessionId: p.sessionId, promptId: p.promptId, status: 'delivered', reason: null });
              await emitAck(runner, 'session:update', { sessionId: p.sessionId, patch: { status: 'thinking' } });
              await emitAck(runner, 'message:append', { sessionId: p.sessionId, messages: [{ id: randomUUID(), role: 'assistant', content: [{ type: 'text', text: FINDINGS }], createdAt: Date.now() }] });
              await emitAck(runner, 'session:update', { sessionId: p.sessionId, patch: { status: 'idle' } });
            })();
          });
          runner.on('session:stop', () => void emitAck(runner, 'session:end', { sessionId: spawn.sessionId, status: 'ended', exitCode: 0, reason: null }));
          await emitAck(runner, 'session:update', { sessionId: spawn.sessionId, patch: { status: 'idle' } });
        })();
      });

      const page = await world.signedInPage(viewport, token);
      await page.goto(`${world.hub.url}/sessions/${parentId}/changes`);
      await page.getByRole('group', { name: 'Diff of src/app.ts' }).waitFor({ timeout: UI_TIMEOUT_MS });

      // Start from the Changes view: the machine's agents that can review read-only, Codex first.
      await page.locator('.workspace-actions').getByRole('button', { name: 'Review' }).click();
      const dialog = page.getByRole('dialog', { name: 'Review these changes' });
      await dialog.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(dialog.getByRole('radio', { name: 'Codex' }).isChecked()).resolves.toBe(true);
      await dialog.getByRole('textbox', { name: 'Focus (optional)' }).fill('the return value');
      const serious = await bothThemes(page, 'reviews-start-dialog', viewport);
      await dialog.getByRole('button', { name: 'Start review' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      expect(spawns).toEqual([expect.objectContaining({ agent: 'codex', cwd, readOnly: true, launchKind: 'headless' })]);

      // The card in the parent's chat: collapsed, answered, the first lines of the answer.
      await page.getByRole('link', { name: 'Chat', exact: true }).click();
      const cards = page.getByRole('region', { name: 'Reviews' });
      const summary = cards.locator('summary');
      await cards.getByText('answered').waitFor({ timeout: 30_000 });
      await expect(summary.textContent()).resolves.toContain('src/app.ts:4 returns 2');
      serious.push(...(await bothThemes(page, 'reviews-card-collapsed', viewport)));
      await summary.click();
      await cards.getByText('The reviewer is read-only; anything it wants to run is asked here.').waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'reviews-card-open', viewport)));

      // Send to Claude, edited first: the parent's runner is handed that text.
      await cards.getByRole('button', { name: 'Send to Claude' }).click();
      const box = cards.getByRole('textbox', { name: /What Claude is sent/ });
      await expect(box.inputValue()).resolves.toBe(`A Codex review of your changes says:\n\n${FINDINGS}`);
      await box.fill(`Please look at this: ${FINDINGS}`);
      serious.push(...(await bothThemes(page, 'reviews-send', viewport)));
      await cards.getByRole('button', { name: 'Send to Claude' }).click();
      await cards.getByText('Queued for Claude: typed when it is idle.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => toParent, { timeout: UI_TIMEOUT_MS }).toEqual([`Please look at this: ${FINDINGS}`]);

      // End: the reviewer stops; the card stays, read-only.
      await cards.getByRole('button', { name: 'End', exact: true }).click();
      await cards.getByText('The reviewer has ended; this card is read-only.').waitFor({ timeout: 30_000 });
      await expect(cards.getByRole('button', { name: 'Ask again' }).count()).resolves.toBe(0);
      expect(child).not.toBeNull();
      serious.push(...(await bothThemes(page, 'reviews-card-ended', viewport)));

      // The session list marks the review.
      await page.goto(`${world.hub.url}/`);
      const reviewRow = page.locator('a[data-session-id]').filter({ hasText: 'Review' }).filter({ has: page.locator('.badge', { hasText: /^Review$/ }) });
      await reviewRow.first().waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'reviews-list', viewport)));
      expect(serious).toEqual([]);
      await page.close();
    }, 120_000);
  }
});
