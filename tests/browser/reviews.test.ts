// reviews.test.ts: a review from the phone (issue 29), at 390×844 and 1280×800: the hub serves
// web/dist; a daemon and the runners are played by sockets (tests/harness/review-stage.ts; the real
// agents are the e2e's: tests/e2e/reviews.test.ts), so each step is the test's to time. From the
// Changes view the person starts a review by Codex in a PTY with a focus; the reviewer (read-only,
// through the daemon) answers. The card in the parent's chat shows it collapsed and opens to the
// answer; "Open reviewer" shows the reviewer's chat, whose terminal draws its work (the scripted
// findings on its screen); its chat leads back to the parent, where the card sends the edited
// findings to claude (the parent's runner gets the prompt) and ends the reviewer (read-only from
// then on). The session list marks the review. With the machine's daemon offline the dialog says to
// start it there and Start stays off. axe in both themes on every state.
import { describe, expect, it } from 'vitest';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { stepLog } from '../harness/steps.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { bothThemes, reviewStage } from '../harness/review-stage.ts';

const FINDINGS = 'src/app.ts:4 returns 2, but the caller still expects 1.\nThe test in app.test.ts covers neither.';
const TITLE = 'Fix the return value';

describe('a review from the phone', () => {
  const world = useBrowserWorld();

  it("phone: with the machine's daemon offline, Review says to start it there and does not start", async () => {
    const stage = await reviewStage(world, { namespace: 'reviews-offline', title: TITLE, findings: FINDINGS });
    stage.daemon.close();
    const page = await world.signedInPage('phone', stage.token);
    await page.goto(`${world.hub.url}/sessions/${stage.parentId}`);
    await page.locator('.session-header').getByRole('img', { name: 'dev-box: daemon offline, start tether daemon on dev-box' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.locator('.session-header').getByRole('button', { name: 'Review by another agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Review these changes' });
    await dialog.getByRole('alert').getByText('dev-box is offline: start tether daemon on dev-box to review there.').waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(dialog.getByRole('button', { name: 'Start review' }).isDisabled()).resolves.toBe(true);
    expect(await bothThemes(page, 'reviews-machine-offline', 'phone')).toEqual([]);
    expect(stage.reviewers).toEqual([]);
    await page.close();
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: start from Changes (PTY), the answer on the card, watch the reviewer's terminal, back, Send to Claude, Send on, End`, async () => {
      const step = stepLog(`reviews ${viewport}`);
      step('stage: daemon, parent session, signed-in page');
      const stage = await reviewStage(world, { namespace: `reviews-${viewport}`, title: TITLE, findings: FINDINGS });
      const page = await world.signedInPage(viewport, stage.token);
      step.watch(page);
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(`${world.hub.url}/sessions/${stage.parentId}/changes`);
      await page.getByRole('group', { name: 'Diff of src/app.ts' }).waitFor({ timeout: UI_TIMEOUT_MS });

      // Start from the Changes view: the machine's agents that can review read-only, Codex first; in a PTY.
      step('Start from the Changes view');
      await page.locator('.workspace-actions').getByRole('button', { name: 'Review' }).click();
      const dialog = page.getByRole('dialog', { name: 'Review these changes' });
      await dialog.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(dialog.getByRole('radio', { name: 'Codex' }).isChecked()).resolves.toBe(true);
      await dialog.getByRole('textbox', { name: 'Focus (optional)' }).fill('the return value');
      await dialog.getByRole('checkbox', { name: 'PTY (watch its terminal)' }).check();
      const serious = await bothThemes(page, 'reviews-start-dialog', viewport);
      await dialog.getByRole('button', { name: 'Start review' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      expect(stage.reviewers.map((r) => r.spawn)).toEqual([expect.objectContaining({ agent: 'codex', cwd: '/home/dev/src/app', readOnly: true, launchKind: 'pty' })]);
      const reviewerId = stage.reviewers[0]!.sessionId;

      // The card in the parent's chat: collapsed, answered, the first lines of the answer.
      step('The card in the parent\'s chat');
      await page.getByRole('link', { name: 'Chat', exact: true }).click();
      const cards = page.getByRole('region', { name: 'Reviews' });
      const summary = cards.locator('summary');
      await cards.getByText('answered').waitFor({ timeout: 30_000 });
      await expect(summary.textContent()).resolves.toContain('src/app.ts:4 returns 2');
      serious.push(...(await bothThemes(page, 'reviews-card-collapsed', viewport)));
      await summary.click();
      await cards.getByText('The reviewer is read-only; anything it wants to run is asked here.').waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'reviews-card-open', viewport)));

      // Open reviewer: its chat holds the answer and says whose changes it reviews.
      step('Open reviewer');
      await cards.getByRole('link', { name: 'Open reviewer' }).click();
      await page.waitForURL(`**/sessions/${reviewerId}`, { timeout: UI_TIMEOUT_MS });
      const log = page.getByRole('log', { name: 'Chat' });
      await log.getByText('The test in app.test.ts covers neither.').waitFor({ timeout: UI_TIMEOUT_MS });
      const back = page.locator('.review-of').getByRole('link', { name: TITLE });
      await back.waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'reviews-reviewer-chat', viewport)));

      // Its terminal draws the reviewer at work: the banner, the file it read, the findings.
      step('Its terminal draws the reviewer at work');
      await page.getByRole('link', { name: 'Terminal', exact: true }).click();
      const screen = page.locator('.xterm-rows');
      await screen.getByText('OpenAI Codex (read-only)').waitFor({ timeout: UI_TIMEOUT_MS });
      await screen.getByText('• Reading src/app.ts').waitFor({ timeout: UI_TIMEOUT_MS });
      await screen.getByText('src/app.ts:4 returns 2, but the caller still expects 1.').waitFor({ timeout: UI_TIMEOUT_MS });
      await screen.getByText('The test in app.test.ts covers neither.').waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'reviews-reviewer-terminal', viewport)));

      // Back to the reviewed session from the reviewer's chat.
      step('Back to the reviewed session from the reviewer\'s chat');
      await page.getByRole('link', { name: 'Chat', exact: true }).click();
      await back.click();
      await page.waitForURL(`**/sessions/${stage.parentId}`, { timeout: UI_TIMEOUT_MS });
      await cards.getByText('answered').waitFor({ timeout: UI_TIMEOUT_MS });
      await summary.click();

      // Send to Claude, edited first: the parent's runner is handed that text.
      step('Send to Claude, edited first');
      await cards.getByRole('button', { name: 'Send to Claude' }).click();
      const box = cards.getByRole('textbox', { name: /What Claude is sent/ });
      await expect(box.inputValue()).resolves.toBe(`A Codex review of your changes says:\n\n${FINDINGS}`);
      await box.fill(`Please look at this: ${FINDINGS}`);
      serious.push(...(await bothThemes(page, 'reviews-send', viewport)));
      await cards.getByRole('button', { name: 'Send to Claude' }).click();
      await cards.getByText('Queued for Claude: typed when it is idle.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => stage.toParent, { timeout: UI_TIMEOUT_MS }).toEqual([`Please look at this: ${FINDINGS}`]);

      // Send on: a new review by Claude checks the findings (they are in its first prompt).
      step('Send on');
      await cards.getByRole('button', { name: 'Send on' }).click();
      const on = cards.getByRole('group', { name: "Send Codex's findings on to" });
      // Another agent than the reviewer's comes first.
      step('Another agent than the reviewer\'s comes first');
      await expect(on.getByRole('radio', { name: 'A new Claude review' }).isChecked()).resolves.toBe(true);
      serious.push(...(await bothThemes(page, 'reviews-send-on', viewport)));
      await cards.getByRole('button', { name: 'Send on' }).click();
      await cards.getByText('A new Claude review checks these findings.').waitFor({ timeout: 30_000 });
      await cards.locator('summary', { hasText: 'Claude review' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(stage.reviewers.map((r) => r.spawn.agent)).toEqual(['codex', 'claude']);
      await expect.poll(() => stage.reviewers[1]?.prompts[0] ?? '', { timeout: UI_TIMEOUT_MS }).toContain(`A Codex review of these changes found what follows.`);
      expect(stage.reviewers[1]!.prompts[0]).toContain(`--- findings ---\n${FINDINGS}\n--- end of findings ---`);
      serious.push(...(await bothThemes(page, 'reviews-sent-on', viewport)));

      // End: the reviewer stops; the card stays, read-only.
      step('End');
      await cards.getByRole('button', { name: 'End', exact: true }).click();
      await cards.getByText('The reviewer has ended; this card is read-only.').waitFor({ timeout: 30_000 });
      await expect(cards.getByRole('button', { name: 'Ask again' }).count()).resolves.toBe(0);
      expect(stage.stops).toEqual([reviewerId]);
      await cards.locator('summary', { hasText: 'Claude review' }).waitFor();
      serious.push(...(await bothThemes(page, 'reviews-card-ended', viewport)));

      // The session list marks the review.
      step('The session list marks the review');
      await page.goto(`${world.hub.url}/`);
      const reviewRow = page.locator('a[data-session-id]').filter({ hasText: 'Review' }).filter({ has: page.locator('.badge', { hasText: /^Review$/ }) });
      await reviewRow.first().waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'reviews-list', viewport)));
      expect(serious).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.close();
    }, 120_000);
  }
});
