// share.test.ts: a read-only share link. The owner makes a link from the session header; someone
// with no login opens it on a phone and watches the chat (live) and the terminal, with no way to
// type; revoking the link stops the viewer at once.
//
//   header "Share read-only" ─POST /api/sessions/:id/share─► link
//   viewer ─GET /api/share/:token─► session + messages ; /web socket with the link ─► watch, terminal
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emitAck } from '../harness/hub.ts';
import { loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

const SCREEN = '\x1b[1m✻ Welcome to Claude Code!\x1b[0m\r\n\r\n> ';

describe('share link: read-only chat and terminal', () => {
  const world = useBrowserWorld();

  it('desktop owner shares; a phone without a login watches chat and terminal; revoke stops it', async () => {
    const token = await world.hub.createToken('share-owner');
    const runner = await world.connect({ token });
    const sessionId = randomUUID();
    let offset = 0;
    runner.on('terminal:snapshot-request', () => {
      void emitAck(runner, 'terminal:snapshot', { sessionId, offset, cols: 80, rows: 24, data: SCREEN });
    });
    await world.registerSession(runner, { id: sessionId, cwd: '/home/dev/src/tether', launchKind: 'pty', title: 'Pairing on the parser', status: 'idle' });
    const say = async (role: 'user' | 'assistant', text: string) =>
      expect((await emitAck(runner, 'message:append', { sessionId, messages: [{ id: randomUUID(), role, content: [{ type: 'text', text }], createdAt: Date.now() }] })).ok).toBe(true);
    await say('user', 'Why does the parser drop the last line?');
    await say('assistant', 'It holds back a **partial** last line until the newline arrives.');

    // The owner makes a one-hour link.
    const owner = await world.browser.newPage({ viewport: 'desktop' });
    await owner.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.hub.url });
    await loginWithQrLink(owner, { hubUrl: world.hub.url, token });
    await owner.getByRole('link', { name: /Pairing on the parser/ }).click();
    await owner.getByRole('button', { name: 'Share read-only' }).click();
    const panel = owner.getByRole('dialog', { name: 'Share read-only' });
    await panel.getByRole('radio', { name: '1 hour' }).click();
    await panel.getByRole('button', { name: 'Create link' }).click();
    const linkBox = panel.getByRole('textbox', { name: 'Share link' });
    await linkBox.waitFor({ timeout: UI_TIMEOUT_MS });
    const url = await linkBox.inputValue();
    expect(url).toMatch(new RegExp(`^${world.hub.url}/share/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    await panel.getByRole('button', { name: 'Copy link' }).click();
    await panel.getByRole('button', { name: 'Copied' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(owner.evaluate(() => navigator.clipboard.readText())).resolves.toBe(url);
    await saveScreenshot(owner, { name: 'share-panel', viewport: 'desktop' });

    // A phone with no login opens it.
    const viewer = await world.browser.newPage({ viewport: 'phone' });
    await viewer.goto(url);
    await viewer.getByRole('heading', { name: 'Pairing on the parser' }).waitFor({ timeout: UI_TIMEOUT_MS });
    const log = viewer.getByRole('log', { name: 'Chat' });
    await log.getByText('Why does the parser drop the last line?').waitFor({ timeout: UI_TIMEOUT_MS });
    await viewer.getByText('Read-only', { exact: true }).first().waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(viewer.getByRole('textbox', { name: 'Message' }).count()).resolves.toBe(0);
    await say('assistant', 'Live: the fix is in tail.ts.');
    await log.getByText('Live: the fix is in tail.ts.').waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(viewer, { name: 'share-chat', viewport: 'phone' });

    // Its terminal, watch-only: no quick keys, keystrokes go nowhere.
    await viewer.getByRole('button', { name: 'Terminal' }).click();
    const screen = viewer.locator('.xterm-rows');
    await screen.getByText('Welcome to Claude Code!').waitFor({ timeout: UI_TIMEOUT_MS });
    const live = new TextEncoder().encode('\r\n● Running tests… 12 passed');
    expect((await emitAck(runner, 'terminal:output', { sessionId, offset, data: live })).ok).toBe(true);
    offset += live.byteLength;
    await screen.getByText('Running tests… 12 passed').waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(viewer.getByRole('button', { name: 'Esc' }).count()).resolves.toBe(0);
    let typed = 0;
    runner.on('terminal:input', () => typed++);
    await viewer.locator('.terminal-host').click();
    await viewer.keyboard.type('rm -rf /');
    await saveScreenshot(viewer, { name: 'share-terminal', viewport: 'phone' });

    // Revoke: the viewer is cut off and told so.
    await panel.getByRole('button', { name: 'Revoke' }).click();
    await panel.getByText(/Link revoked/).waitFor({ timeout: UI_TIMEOUT_MS });
    await viewer.getByRole('alert').getByText(/expired or was revoked/).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(typed).toBe(0);
    const gone = await fetch(`${world.hub.url}/api/share/${url.split('/share/')[1]}`);
    expect(gone.status).toBe(401);
    await viewer.close();
    await owner.close();
  });

  it('a malformed or unknown link says so', async () => {
    const page = await world.browser.newPage({ viewport: 'phone' });
    await page.goto(`${world.hub.url}/share/not-a-token`);
    await page.getByRole('heading', { name: 'Not a share link' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.goto(`${world.hub.url}/share/aaaa.bbbb.cccc`);
    await page.getByRole('heading', { name: 'Link not available' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'share-expired', viewport: 'phone' });
    await page.close();
  });
});
