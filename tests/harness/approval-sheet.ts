// approval-sheet.ts (harness): a command approval answered in the phone's sheet, as the browser
// journeys over HTTPS and through the relay both answer one: the sheet names the command, is
// photographed, Allow reaches the runner for that request, and the sheet closes.
import type { Page } from 'playwright-core';
import type { Socket } from 'socket.io-client';
import { expect } from 'vitest';
import { saveScreenshot, UI_TIMEOUT_MS } from './browser.ts';
import { nextEvent } from './hub.ts';

/** Allows `requestId` from the open "Run this command?" sheet; returns the sheet (it may open again). */
export async function allowCommandInSheet(page: Page, o: { runner: Socket; requestId: string; command: string; screenshot: string }) {
  const sheet = page.getByRole('dialog', { name: 'Run this command?' });
  await sheet.waitFor({ timeout: UI_TIMEOUT_MS });
  await expect(sheet.getByLabel('Command').textContent()).resolves.toContain(o.command);
  await saveScreenshot(page, { name: o.screenshot, viewport: 'phone' });
  const answered = nextEvent<{ requestId: string; answer: { decision: string } }>(o.runner, 'approval:answered');
  await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
  expect(await answered).toMatchObject({ requestId: o.requestId, answer: { decision: 'allow' } });
  await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  return sheet;
}
