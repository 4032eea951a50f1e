// terminal.test.ts: the live terminal of a PTY session, at a phone and a desktop. A real hub; a /cli
// socket plays the runner: it answers snapshot requests, streams bytes, and receives input/resize.
//
//   tab ─terminal:subscribe─► hub ─terminal:snapshot-request─► runner ─snapshot, output─► hub ─► xterm
//   quick keys / typing ─terminal:input─► hub ─► runner      leaving the tab ─► terminal:viewers 0
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

/** A screen like claude's idle TUI, as the runner's @xterm/headless would serialize it. */
const SCREEN = [
  '\x1b[38;5;174m╭───────────────────────────────────────────╮\x1b[0m',
  '\x1b[38;5;174m│\x1b[0m \x1b[1m✻ Welcome to Claude Code!\x1b[0m                  \x1b[38;5;174m│\x1b[0m',
  '\x1b[38;5;174m│\x1b[0m   cwd: /home/dev/src/tether               \x1b[38;5;174m│\x1b[0m',
  '\x1b[38;5;174m╰───────────────────────────────────────────╯\x1b[0m',
  '',
  '\x1b[2m> Try "fix the flaky login test"\x1b[0m',
].join('\r\n');

type Input = { sessionId: string; data: string };

/** How far (in cells) the first row's 120th glyph is from the 120th cell, measured in the page. */
function lastGlyphOffCell(): number {
  const screen = document.querySelector('.xterm-screen') as HTMLElement;
  const row = document.querySelector('.xterm-rows > div') as HTMLElement;
  const cell = screen.getBoundingClientRect().width / 120;
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (seen + text.length < 120) {
      seen += text.length;
      continue;
    }
    const range = document.createRange();
    range.setStart(node, 119 - seen);
    range.setEnd(node, 120 - seen);
    const glyph = range.getBoundingClientRect();
    const left = row.getBoundingClientRect().left + 119 * cell;
    return Math.max(Math.abs(glyph.left - left), Math.abs(glyph.right - (left + cell))) / cell;
  }
  return Number.POSITIVE_INFINITY;
}

describe('terminal', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: shows the screen and live bytes, sends quick keys and typing, stops streaming when left`, async () => {
      const token = await world.hub.createToken(`term-${viewport}`);
      const runner = await world.connect({ token });
      const sessionId = randomUUID();
      let offset = 0;
      const encoder = new TextEncoder();
      // The runner's side of a snapshot request: the current screen at the current offset.
      runner.on('terminal:snapshot-request', () => {
        void emitAck(runner, 'terminal:snapshot', { sessionId, offset, cols: 80, rows: 24, data: SCREEN });
      });
      const viewerCounts: number[] = [];
      runner.on('terminal:viewers', (payload: { count: number }) => viewerCounts.push(payload.count));
      await world.registerSession(runner, { id: sessionId, cwd: '/home/dev/src/tether', launchKind: 'pty', title: 'Terminal session', status: 'idle' });
      const bytes = encoder.encode('\x1b[2J\x1b[H');
      expect((await emitAck(runner, 'terminal:output', { sessionId, offset, data: bytes })).ok).toBe(true);
      offset += bytes.byteLength;

      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: /Terminal session/ }).click();
      await page.getByRole('link', { name: 'Terminal', exact: true }).click();
      const screen = page.locator('.xterm-rows');
      await screen.getByText('Welcome to Claude Code!').waitFor({ timeout: UI_TIMEOUT_MS });

      // Live bytes land after the snapshot.
      const live = encoder.encode('\r\n\x1b[32m● Running tests… 12 passed\x1b[0m');
      expect((await emitAck(runner, 'terminal:output', { sessionId, offset, data: live })).ok).toBe(true);
      offset += live.byteLength;
      await screen.getByText('Running tests… 12 passed').waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'terminal', viewport });

      // Quick keys: Esc reaches the PTY as ESC.
      const esc = nextEvent<Input>(runner, 'terminal:input');
      await page.getByRole('toolbar', { name: 'Terminal keys' }).getByRole('button', { name: 'Esc' }).click();
      expect(await esc).toEqual({ sessionId, data: '\x1b' });

      // Sticky Ctrl applies to the next key typed into the terminal: Ctrl + r → 0x12.
      await page.getByRole('button', { name: 'Ctrl', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Ctrl', exact: true }).getAttribute('aria-pressed')).resolves.toBe('true');
      const ctrl = nextEvent<Input>(runner, 'terminal:input');
      await page.locator('.xterm-helper-textarea').focus();
      await page.keyboard.type('r');
      expect(await ctrl).toEqual({ sessionId, data: '\x12' });
      await expect(page.getByRole('button', { name: 'Ctrl', exact: true }).getAttribute('aria-pressed')).resolves.toBe('false');

      // Leaving the terminal ends this viewer's stream (nobody streams for a hidden view).
      await page.getByRole('link', { name: 'Chat', exact: true }).click();
      await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => viewerCounts.at(-1), { timeout: UI_TIMEOUT_MS }).toBe(0);
      await page.close();
    });
  }

  it('a PTY wider than the view: the desktop shrinks the type until every column shows, the phone scrolls; fitting measures at full size', async () => {
    const token = await world.hub.createToken('term-wide');
    const runner = await world.connect({ token });
    const sessionId = randomUUID();
    // 120 columns, as a desk terminal might have: a row of digits ends in a marker at column 120.
    const wide = `${'0123456789'.repeat(11)}123456EOL>`;
    runner.on('terminal:snapshot-request', () => {
      void emitAck(runner, 'terminal:snapshot', { sessionId, offset: 0, cols: 120, rows: 30, data: `${wide}\r\nwide screen` });
    });
    await world.registerSession(runner, { id: sessionId, cwd: '/home/dev/src/tether', launchKind: 'pty', title: 'Wide session', status: 'idle' });
    expect((await emitAck(runner, 'terminal:size', { sessionId, offset: 0, cols: 120, rows: 30, desk: false })).ok).toBe(true);

    const measure = (page: import('playwright-core').Page) =>
      page.evaluate(() => {
        const host = document.querySelector('.terminal-host') as HTMLElement;
        const rows = document.querySelector('.xterm-rows') as HTMLElement;
        return { scrollWidth: host.scrollWidth, clientWidth: host.clientWidth, fontSize: parseFloat(getComputedStyle(rows).fontSize) };
      });
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: /Wide session/ }).click();
      await page.getByRole('link', { name: 'Terminal', exact: true }).click();
      await page.locator('.xterm-rows').getByText('wide screen').waitFor({ timeout: UI_TIMEOUT_MS });
      if (viewport === 'desktop') {
        await expect.poll(async () => (await measure(page)).scrollWidth <= (await measure(page)).clientWidth, { timeout: UI_TIMEOUT_MS }).toBe(true);
        const { fontSize } = await measure(page);
        expect(fontSize).toBeLessThan(13.5);
        expect(fontSize).toBeGreaterThanOrEqual(13.5 * 0.75);
        // Glyphs sit on their cells after the size change: the last column's glyph box against the
        // last cell's box (the renderer redraws at the new size a frame later), whatever the fonts.
        await expect.poll(() => page.evaluate(lastGlyphOffCell), { timeout: UI_TIMEOUT_MS }).toBeLessThan(0.5);
        await saveScreenshot(page, { name: 'terminal-wide', viewport });
        // Taking the size proposes what fits at the full type size (fewer than the 120 columns).
        const resized = nextEvent<{ cols: number }>(runner, 'terminal:resize');
        await page.locator('.terminal-fit').click();
        expect((await resized).cols).toBeLessThan(120);
      } else {
        const { scrollWidth, clientWidth, fontSize } = await measure(page);
        expect(fontSize).toBe(12);
        expect(scrollWidth).toBeGreaterThan(clientWidth);
        await saveScreenshot(page, { name: 'terminal-wide', viewport });
      }
      await page.close();
    }
  });
});
