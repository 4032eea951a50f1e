// composer.test.ts: the composer's files and slash commands against the real thing: a hub serving
// web/dist, a real `tether claude` runner (PTY, and headless) driving the pinned claude against the
// scripted fake Messages API, and Debian's Chromium at 390×844 and 1280×800, light and dark.
//
//   tab ─paperclip/paste─► POST /api/sessions/:id/attachments ─► hub
//   tab ─Send (ids)─► hub ─prompt:deliver─► tether claude ─► claude ─► fake API: the image block
//   tab ─'/'─► GET /api/sessions/:id/commands (the runner's list) ─► listbox ─Enter─► '/release 1.4'
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeAnthropic, text, userSays, when, type FakeAnthropic, type ScriptTurn } from '../fixtures/fake-anthropic/index.ts';
import { loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startRunner } from '../harness/runner.ts';
import { DESK_READY, MANUAL_MODE } from '../harness/world.ts';

const CLAUDE_UI_TIMEOUT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 90_000;
/** A 2×2 PNG: what the phone's picker hands over. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const RELEASE_COMMAND = '---\ndescription: Cut a release and tag it\nargument-hint: <version>\n---\nPrepare release number $ARGUMENTS of this project.\n';

function imageSent(fake: FakeAnthropic): boolean {
  return fake
    .mainRequests()
    .flatMap((request) => request.messages)
    .some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((b) => b.type === 'image' && (b.source as { data?: string } | undefined)?.data === PNG.toString('base64')));
}

describe('composer: attachments and slash commands with the real claude', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  async function start(options: { name: string; script: ScriptTurn[]; headless?: boolean }) {
    const token = await world.hub.createToken(`composer-${options.name}`);
    const fake = await startFakeAnthropic({ script: options.script });
    defer(() => fake.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    mkdirSync(join(sandbox.cwd, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sandbox.cwd, '.claude', 'commands', 'release.md'), RELEASE_COMMAND);
    const runner = startRunner({
      hub: { url: world.hub.url, token },
      sandbox,
      args: MANUAL_MODE,
      ...(options.headless ? { env: { TETHER_LAUNCH_KIND: 'headless' } } : {}),
    });
    defer(() => runner.stop());
    if (!options.headless) await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    return { token, fake, runner };
  }

  async function open(viewport: ViewportName, colorScheme: 'light' | 'dark', token: string, sessionId: string): Promise<Page> {
    const page = await world.browser.newPage({ viewport, colorScheme });
    defer(() => page.close());
    await loginWithQrLink(page, { hubUrl: world.hub.url, token });
    await page.locator(`a[data-session-id="${sessionId}"][data-status="idle"]`).click({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
    return page;
  }

  const chat = (page: Page) => page.getByRole('log', { name: 'Chat' });
  const box = (page: Page) => page.getByRole('textbox', { name: 'Message' });

  async function attachPhoto(page: Page, via: 'picker' | 'paste') {
    if (via === 'picker') {
      // A right-to-left override in the name (it would show "IMG_0042gnp.exe" as "IMG_0042exe.png"): gone.
      await page.locator('form.composer input[type="file"]').setInputFiles({ name: 'IMG_0042\u202E.png', mimeType: 'image/png', buffer: PNG });
    } else {
      // A screenshot pasted into the text box (what the clipboard holds after a screen capture).
      await box(page).click();
      await page.evaluate((base64) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'Screenshot 2026-11-25.png', { type: 'image/png' }));
        document.querySelector('textarea.composer-input')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, PNG.toString('base64'));
    }
    const chip = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await chip.locator('[data-state="ready"], :scope[data-state="ready"]').or(page.locator('.attachment-chip[data-state="ready"]')).first().waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(chip.locator('img.attachment-thumb').count()).resolves.toBe(1);
    // The name in its own bidi isolate, without the override.
    if (via === 'picker') await expect(chip.locator('bdi.attachment-name').textContent()).resolves.toBe('IMG_0042.png');
  }

  async function send(page: Page, viewport: ViewportName) {
    if (viewport === 'phone') await page.getByRole('button', { name: 'Send' }).click();
    else await box(page).press('Enter');
  }

  for (const [viewport, colorScheme, via] of [
    ['phone', 'light', 'picker'],
    ['desktop', 'dark', 'paste'],
  ] as const) {
    it(`PTY at ${viewport} (${colorScheme}): a photo reaches claude; / lists the project's command and runs it`, async () => {
      const { token, fake, runner } = await start({
        name: `pty-${viewport}`,
        script: [when(userSays(/what is in this picture/), text('A tiny four-colour square.')), when(userSays(/release number 1\.4/), text('Release 1.4 prepared.'))],
      });
      const page = await open(viewport, colorScheme, token, runner.sessionId);

      // A photo, removed again, then attached for good: preview, then sent with a question.
      await attachPhoto(page, via);
      await page.getByRole('button', { name: /^Remove / }).click();
      await expect(page.locator('.attachment-chip').count()).resolves.toBe(0);
      await attachPhoto(page, via);
      await box(page).fill('what is in this picture?');
      await saveScreenshot(page, { name: `composer-attachment-${colorScheme}`, viewport });
      await send(page, viewport);
      await chat(page).getByText('A tiny four-colour square.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
      expect(imageSent(fake)).toBe(true);
      await expect(page.locator('.attachment-chip').count()).resolves.toBe(0);
      await saveScreenshot(page, { name: `composer-attachment-sent-${colorScheme}`, viewport });

      // `/`: the session's commands, the project's own with its description.
      await box(page).fill('/');
      const list = page.getByRole('listbox', { name: 'Slash commands' });
      await list.waitFor({ timeout: UI_TIMEOUT_MS });
      // Exactly one option is the project's /release (claude's /release-notes also matches the name).
      const release = list.getByRole('option').filter({ hasText: 'Cut a release and tag it' });
      await expect(release.textContent()).resolves.toMatch(/^\/release<version>project/);
      await box(page).fill('/mo');
      await expect(list.getByRole('option').filter({ hasText: /^\/model/ }).textContent()).resolves.toMatch(/Opens claude's picker in the terminal$/);
      await expect(list.getByRole('option').filter({ hasText: /^\/mobile/ }).count()).resolves.toBe(1);
      await saveScreenshot(page, { name: `composer-slash-${colorScheme}`, viewport });
      // Esc closes the list; typing on opens it again.
      await box(page).press('Escape');
      await list.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await box(page).fill('/rel');
      await list.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(box(page).getAttribute('aria-activedescendant')).resolves.toBe(await list.getByRole('option').first().getAttribute('id'));
      if (viewport === 'phone') await list.getByRole('option').filter({ hasText: 'Cut a release and tag it' }).click();
      else await box(page).press('Enter');
      await expect(box(page).inputValue()).resolves.toBe('/release ');
      await box(page).pressSequentially('1.4');
      await send(page, viewport);
      await chat(page).getByText('Release 1.4 prepared.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: `composer-slash-ran-${colorScheme}`, viewport });
    }, JOURNEY_TIMEOUT_MS);
  }

  for (const [viewport, colorScheme] of [
    ['phone', 'dark'],
    ['desktop', 'light'],
  ] as const) {
    it(`headless at ${viewport} (${colorScheme}): a photo alone reaches claude as an image block`, async () => {
      const { token, fake, runner } = await start({
        name: `headless-${viewport}`,
        headless: true,
        script: [(request) => text(imageSent({ mainRequests: () => [request] } as FakeAnthropic) ? 'I got the photo.' : 'No photo came.')],
      });
      const page = await open(viewport, colorScheme, token, runner.sessionId);
      await attachPhoto(page, 'picker');
      await saveScreenshot(page, { name: `composer-headless-attachment-${colorScheme}`, viewport });
      await send(page, viewport);
      await chat(page).getByText('I got the photo.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
      expect(imageSent(fake)).toBe(true);
      await box(page).fill('/');
      await page.getByRole('listbox', { name: 'Slash commands' }).getByRole('option').filter({ hasText: 'Cut a release and tag it' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: `composer-headless-slash-${colorScheme}`, viewport });
    }, JOURNEY_TIMEOUT_MS);
  }
});
