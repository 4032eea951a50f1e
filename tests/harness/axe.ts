// axe.ts (harness): axe-core (the accessibility engine, from npm) run over a page once its CSS
// transitions have ended: a control caught mid-change (a chosen option fading in, a theme switch)
// has colours that are neither its old nor its new ones, and axe would judge those.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { animationsSettled, saveScreenshot, useColorScheme, type ViewportName } from './browser.ts';

/** Loaded through the devtools protocol (page.evaluate): the app's CSP rightly forbids inline scripts. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** `summary` is axe's own account of a node (the colours and ratio it measured): CI keeps only the output. */
export type Violation = { id: string; impact: string | null; help: string; nodes: Array<{ target: string[]; summary: string }> };

export async function axeViolations(page: Page): Promise<Violation[]> {
  await animationsSettled(page);
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Raw = { id: string; impact: string | null; help: string; nodes: Array<{ target: string[]; failureSummary?: string }> };
    const run = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Raw[] }> } }).axe.run;
    const result = await run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary ?? '' })) }));
  });
}

/** The serious and critical findings, one line each with the nodes and what axe measured. */
export function seriousOnes(violations: Violation[]): string[] {
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.summary.replace(/\s+/g, ' ')})`).join('; ')}`);
}

/** The serious and critical findings in the light theme and then the dark one, each line prefixed by
 *  its theme; the page is left in the light theme. */
export async function seriousInBothThemes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await useColorScheme(page, scheme);
    found.push(...seriousOnes(await axeViolations(page)).map((line) => `${scheme}: ${line}`));
  }
  await useColorScheme(page, 'light');
  return found;
}

/** A screenshot in the light theme (`<name>`) and the dark one (`<name>-dark`), each with axe's serious
 *  and critical findings there, prefixed by its theme; the page is left in the light theme. */
export async function screenshotsAndSeriousInBothThemes(page: Page, options: { name: string; viewport: ViewportName }): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await useColorScheme(page, scheme);
    await saveScreenshot(page, { name: scheme === 'light' ? options.name : `${options.name}-dark`, viewport: options.viewport });
    found.push(...seriousOnes(await axeViolations(page)).map((line) => `${scheme}: ${line}`));
  }
  await useColorScheme(page, 'light');
  return found;
}
