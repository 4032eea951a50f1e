// review-real-codex.test.ts: the reviewer is the real thing (issue 29): a real `tether daemon` starts
// the pinned Codex CLI in a PTY as the reviewer, its model the scripted fake Responses API; Chromium
// at 390×844 watches it. From the Changes view the person starts the review (PTY), the card gets
// Codex's answer, "Open reviewer" then Terminal shows Codex's own screen with the scripted findings,
// the reviewer's chat leads back, and "Send to Claude" hands the findings to the parent. The parent
// is a played runner (its diff is the test's); nothing plays the reviewer. The same journey with a
// played reviewer at both sizes: reviews.test.ts.
import { describe, expect, it } from 'vitest';
import { lastUserText as codexUserText, startFakeOpenAI, text as codexText } from '../fixtures/fake-openai/index.ts';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { codexBin, createCodexSandbox } from '../harness/codex.ts';
import { startDaemon } from '../harness/daemon.ts';
import { bothThemes, DIFF_PAGE } from '../harness/review-stage.ts';

const FINDINGS = 'src/app.ts:4 returns 2, but the caller still expects 1.';
const TITLE = 'Fix the return value';
/** A real Codex start and turn on a loaded 2-core box. */
const CODEX_TIMEOUT_MS = 60_000;

describe('a real Codex reviewer, watched from the phone', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  it('phone: Codex in a PTY reviews the diff; its terminal shows the scripted findings; Send to Claude', async () => {
    const token = await world.hub.createToken('review-real-codex');
    const openai = await startFakeOpenAI({ script: [(request) => (codexUserText(request).includes('diff --git') ? codexText(FINDINGS) : codexText('no diff seen'))] });
    defer(() => openai.stop());
    const codex = createCodexSandbox({ fakeApiUrl: openai.url });
    defer(() => codex.stop());
    const daemon = await startDaemon({ hub: { url: world.hub.url, token }, sandbox: codex, env: { TETHER_CODEX_BIN: codexBin() } });
    defer(() => daemon.stop());

    // The reviewed session: a played claude runner on the daemon's machine, in Codex's folder.
    const parent = await world.connect({ token });
    const parentId = await world.registerSession(parent, { ...daemon.machineClaim(), cwd: codex.cwd, launchKind: 'pty', title: TITLE, status: 'idle' });
    parent.on('workspace:query', (_q: unknown, reply: (a: unknown) => void) => reply({ ok: true, ...DIFF_PAGE }));
    const toParent: string[] = [];
    parent.on('prompt:deliver', (p: { text: string }) => toParent.push(p.text));

    const page = await world.signedInPage('phone', token);
    defer(() => page.close());
    // A render error shows "Session not found" in place of the page: none may happen.
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${world.hub.url}/sessions/${parentId}/changes`);
    await page.getByRole('group', { name: 'Diff of src/app.ts' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.locator('.workspace-actions').getByRole('button', { name: 'Review' }).click();
    const dialog = page.getByRole('dialog', { name: 'Review these changes' });
    await dialog.getByRole('radio', { name: 'Codex' }).check();
    await dialog.getByRole('checkbox', { name: 'PTY (watch its terminal)' }).check();
    await dialog.getByRole('button', { name: 'Start review' }).click();
    await dialog.waitFor({ state: 'detached', timeout: CODEX_TIMEOUT_MS });

    // Codex's prompt held the diff (checked at the fake API); its answer is on the card.
    await openai.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && codexUserText(r.body).includes('diff --git a/src/app.ts'), { timeoutMs: CODEX_TIMEOUT_MS });
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    const cards = page.getByRole('region', { name: 'Reviews' });
    await cards.getByText('answered').waitFor({ timeout: CODEX_TIMEOUT_MS });
    await expect(cards.locator('summary').textContent()).resolves.toContain(FINDINGS);

    // Open reviewer, then its terminal: Codex's own screen, with the scripted findings.
    await cards.locator('summary').click();
    await cards.getByRole('link', { name: 'Open reviewer' }).click();
    await page.getByRole('log', { name: 'Chat' }).getByText(FINDINGS).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByRole('link', { name: 'Terminal', exact: true }).click();
    await page.locator('.xterm-rows').getByText(FINDINGS).waitFor({ timeout: UI_TIMEOUT_MS });
    const serious = await bothThemes(page, 'reviews-real-codex-terminal', 'phone');

    // Back to the reviewed session; Send to Claude.
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.locator('.review-of').getByRole('link', { name: TITLE }).click();
    await cards.locator('summary').click();
    await cards.getByRole('button', { name: 'Send to Claude' }).click();
    await cards.getByRole('button', { name: 'Send to Claude' }).click();
    await cards.getByText('Queued for Claude: typed when it is idle.').waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => toParent, { timeout: UI_TIMEOUT_MS }).toEqual([`A Codex review of your changes says:\n\n${FINDINGS}`]);

    // End: the real reviewer exits; the card is read-only.
    await cards.getByRole('button', { name: 'End', exact: true }).click();
    await cards.getByText('The reviewer has ended; this card is read-only.').waitFor({ timeout: CODEX_TIMEOUT_MS });
    expect(serious).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
