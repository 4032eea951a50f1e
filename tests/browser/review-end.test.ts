// review-end.test.ts: End and Archive of a session whose review still runs (issue 29), from the
// phone, at 390×844 and 1280×800. End asks what becomes of the review (End waits for an answer);
// "Keep it running" ends the session alone and the review runs on. Archive of the ended session
// is refused by the hub while the review runs, so the list asks the same question in a modal;
// "End it too" ends the reviewer and archives the session. axe in both themes on each new state.
import { describe, expect, it } from 'vitest';
import type { Review } from '@tether/shared';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { stepLog } from '../harness/steps.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { emitAck } from '../harness/hub.ts';
import { bothThemes, reviewStage } from '../harness/review-stage.ts';

const FINDINGS = 'src/app.ts:4 returns 2, but the caller still expects 1.';
const TITLE = 'Fix the return value';

describe('End and Archive with a live review', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: End asks (keep it running), then Archive asks (end it too)`, async () => {
      const step = stepLog(`review-end ${viewport}`);
      step('stage: daemon, parent session, signed-in page');
      const stage = await reviewStage(world, { namespace: `review-end-${viewport}`, title: TITLE, findings: FINDINGS });
      const phone = await world.connect({ nsp: '/web', token: stage.token });
      const started = await emitAck<{ review: Review }>(phone, 'review:start', { sessionId: stage.parentId, agent: 'codex', focus: 'the return value' }, 30_000);
      if (!started.ok) throw new Error(started.error);
      const reviewId = started.review.id;

      const page = await world.signedInPage(viewport, stage.token);

      step.watch(page);
      await page.goto(`${world.hub.url}/sessions/${stage.parentId}`);
      await page.getByRole('region', { name: 'Reviews' }).getByText('answered').waitFor({ timeout: 30_000 });

      // End: the dialog names the live review and waits for an answer.
      step('End');
      await page.getByRole('button', { name: 'End session', exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: 'End this session?' });
      const question = dialog.getByRole('group', { name: 'Its review is still running' });
      await question.waitFor({ timeout: UI_TIMEOUT_MS });
      await question.getByText('Codex review').waitFor();
      await expect(question.textContent()).resolves.toContain('answered · the return value');
      const endButton = dialog.getByRole('button', { name: 'End session' });
      await expect(endButton.isDisabled()).resolves.toBe(true);
      const serious = await bothThemes(page, 'review-end-question', viewport);
      await question.getByRole('radio', { name: 'Keep it running, on its own' }).check();
      serious.push(...(await bothThemes(page, 'review-end-question-answered', viewport)));
      await endButton.click();
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      expect(stage.stops).toEqual([stage.parentId]);
      const kept = (await world.hub.store.getSession({ namespace: `review-end-${viewport}`, sessionId: reviewId }))!;
      expect(kept).toMatchObject({ status: 'idle', parentId: stage.parentId });

      // Archive from the list: the hub refuses while the review runs; the list asks.
      step('Archive from the list');
      await page.goto(`${world.hub.url}/`);
      await page.getByRole('button', { name: `Actions for ${TITLE}` }).click();
      await page.getByRole('menuitem', { name: 'Archive' }).click();
      const ask = page.getByRole('alertdialog', { name: `Archive “${TITLE}”?` });
      await ask.waitFor({ timeout: UI_TIMEOUT_MS });
      await ask.getByText('Codex review').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(ask.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      serious.push(...(await bothThemes(page, 'review-archive-question', viewport)));
      await ask.getByRole('button', { name: 'End it too' }).click();
      await ask.waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByText(`Archived “${TITLE}”.`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(stage.stops).toEqual([stage.parentId, reviewId]);
      const parent = await world.hub.store.getSession({ namespace: `review-end-${viewport}`, sessionId: stage.parentId });
      expect(parent?.archivedAt).toEqual(expect.any(Number));
      expect((await world.hub.store.getSession({ namespace: `review-end-${viewport}`, sessionId: reviewId }))?.status).toBe('ended');
      serious.push(...(await bothThemes(page, 'review-archived', viewport)));
      expect(serious).toEqual([]);
      await page.close();
    }, 120_000);
  }
});
