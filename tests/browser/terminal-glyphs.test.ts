// terminal-glyphs.test.ts: the glyphs claude draws render with a real font, not as tofu (the empty
// box a font draws for a character it lacks), at a phone and a desktop. A /cli socket plays the
// runner and sends a screen of them. Run it under TETHER_TEST_FONTCONFIG (tests/harness/browser.ts)
// to see what a machine with fewer fonts shows, e.g. only Debian's fonts-dejavu-core:
//   TETHER_TEST_FONTCONFIG=tests/fixtures/fonts/dejavu-core.conf
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emitAck } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

/** claude's marks (result, bullet, spinner, prompt, mode footer, effort, checks). */
const CLAUDE_GLYPHS = ['⎿', '●', '✻', '❯', '⏵', '⏸', '◐', '✓', '✗', '⏺'];
const BOX_DRAWING = ['─', '│', '╭', '╮', '╰', '╯', '┌', '┐', '└', '┘', '├', '┤', '┬', '┴', '┼', '═', '║'];
const BLOCK_ELEMENTS = ['█', '▌', '▐', '▀', '▄', '░', '▒', '▓', '▘', '▝', '▛', '▜', '▖', '▗'];
const ALL = [...CLAUDE_GLYPHS, ...BOX_DRAWING, ...BLOCK_ELEMENTS];

const SCREEN = [
  '╭──────────────────────────╮',
  '│ ✻ Welcome to Claude Code │',
  '╰──────────────────────────╯',
  '● Bash(ls)',
  '  ⎿  3 files ✓ ✗ ⏺',
  '❯ ',
  '  ⏵⏵ auto mode on  ⏸ manual  ◐ medium',
  `  ${BOX_DRAWING.join('')}`,
  `  ${BLOCK_ELEMENTS.join('')}`,
].join('\r\n');

/** In the page: for each glyph, whether the terminal's font stack draws it differently from the
 *  missing-glyph box (what two private-use characters no font here has both draw), with some ink. */
async function glyphReport(glyphs: string[]): Promise<Array<{ glyph: string; drawn: boolean }>> {
  const rows = document.querySelector('.xterm-rows') as HTMLElement;
  const stack = getComputedStyle(rows).fontFamily;
  await document.fonts.load(`40px ${stack}`, glyphs.join(''));
  await document.fonts.ready;
  const canvas = document.createElement('canvas');
  canvas.width = 60;
  canvas.height = 60;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  const draw = (text: string): Uint8ClampedArray => {
    context.clearRect(0, 0, 60, 60);
    context.font = `40px ${stack}`;
    context.fillStyle = '#000';
    context.textBaseline = 'middle';
    context.fillText(text, 5, 30);
    return context.getImageData(0, 0, 60, 60).data;
  };
  const same = (a: Uint8ClampedArray, b: Uint8ClampedArray) => a.every((v, i) => v === b[i]);
  const tofu = draw('\uE000');
  // Two different characters that no font has draw the same box: that box is the tofu.
  if (!same(tofu, draw('\uE001'))) throw new Error('could not tell the missing-glyph box');
  return glyphs.map((glyph) => {
    const pixels = draw(glyph);
    const ink = pixels.some((v, i) => i % 4 === 3 && v > 0);
    return { glyph, drawn: ink && !same(pixels, tofu) };
  });
}

describe('terminal glyphs', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: claude's glyphs, box drawing and block elements are drawn by a real font`, async () => {
      const token = await world.hub.createToken(`glyphs-${viewport}`);
      const runner = await world.connect({ token });
      const sessionId = randomUUID();
      runner.on('terminal:snapshot-request', () => {
        void emitAck(runner, 'terminal:snapshot', { sessionId, offset: 0, cols: 60, rows: 12, data: SCREEN });
      });
      await world.registerSession(runner, { id: sessionId, cwd: '/home/dev/src/tether', launchKind: 'pty', title: 'Glyph session', status: 'idle' });

      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: /Glyph session/ }).click();
      await page.getByRole('link', { name: 'Terminal', exact: true }).click();
      await page.locator('.xterm-rows').getByText('Welcome to Claude Code').waitFor({ timeout: UI_TIMEOUT_MS });

      const report = await page.evaluate(glyphReport, ALL);
      expect(report.filter((r) => !r.drawn).map((r) => r.glyph)).toEqual([]);
      // The ones Debian's DejaVu Sans Mono lacks come from the terminal's own symbol font.
      const fromWebFont = await page.evaluate(() => document.fonts.check('12px "Tether Symbols"', '⎿⏵⏸⏺'));
      expect(fromWebFont).toBe(true);
      await saveScreenshot(page, { name: 'terminal-glyphs', viewport });
      await page.close();
    });
  }
});
