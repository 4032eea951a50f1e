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
});
