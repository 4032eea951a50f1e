// steps.ts: a long journey's steps, said only when it fails. A browser journey that runs out of time
// fails with "timed out" and nothing else; with this, the failure prints each step it reached, when
// (seconds since the test began) and the box's load then, so the step that hung, or the load that
// slowed them all, is named. Pages handed to `watch` are shown too: their address and the text on
// screen (CI keeps only the log), and a screenshot in test-artifacts/screenshots/FAILED-*.png for a
// local run. Nothing is printed while the test passes.
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { SCREENSHOT_DIR } from './browser.ts';

/** Text of a failed page's screen printed at most (enough for a list, a dialog or a sheet). */
const PAGE_TEXT_CHARS = 3_000;

export type StepLog = ((step: string) => void) & {
  /** Show this page's state if the test fails. */
  watch(page: Page): void;
};

/** Call inside a test; returns `step(name)` to mark each stage as it starts. */
export function stepLog(test: string): StepLog {
  const started = performance.now();
  const steps: string[] = [];
  const pages: Page[] = [];
  onTestFailed(async () => {
    const lines = [`${test}: the steps it reached (s since it began, load average)`, ...steps.map((s) => `  ${s}`)];
    for (const [i, page] of pages.entries()) lines.push(...(await pageState(page, `${test.replace(/[^a-z0-9]+/gi, '-')}-${i}`)));
    console.error(lines.join('\n'));
  });
  const step = (name: string) => {
    steps.push(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)}  ${loadavg()[0]!.toFixed(1).padStart(5)}  ${name}`);
  };
  return Object.assign(step, { watch: (page: Page) => void pages.push(page) });
}

async function pageState(page: Page, name: string): Promise<string[]> {
  if (page.isClosed()) return ['  (page closed)'];
  const bounded = <T>(work: Promise<T>) => Promise.race([work, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000))]).catch(() => null);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const shot = join(SCREENSHOT_DIR, `FAILED-${name}.png`);
  const saved = await bounded(page.screenshot({ path: shot }).then(() => shot));
  const text = await bounded(page.locator('body').innerText());
  return [`  page ${page.url()}${saved ? ` (screenshot ${saved})` : ''}:`, ...(text ?? '(no text read)').slice(0, PAGE_TEXT_CHARS).split('\n').filter((l) => l.trim()).map((l) => `    | ${l}`)];
}
