// reconnect.test.ts: the hub restarts under an open phone. The app says it is reconnecting, comes
// back by itself with the same login, and shows what was said while it was away.
//
//   hub #1 (home H) ─ stop ─► page: "Reconnecting…" ─► hub #2 (same H, same port) ─► runner re-registers
//   and appends ─► page re-watches with afterSeq ─► the new message shows, the toast goes away
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createAccessToken, createHub, type Hub } from '@tether/hub';
import { connectSocket, emitAck, makeTempHome } from '../harness/hub.ts';
import { launchBrowser, loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS, type BrowserHandle } from '../harness/browser.ts';

const WEB_DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'web', 'dist');

describe('reconnect after a hub restart', () => {
  let home: string;
  let browser: BrowserHandle;
  const hubs: Hub[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    if (!existsSync(join(WEB_DIST, 'index.html'))) {
      throw new Error('web/dist is missing: build the web app first (cd web && bun run build; npm test does it).');
    }
    home = makeTempHome('tether-reconnect-');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await browser?.stop();
    for (const hub of hubs) await hub.stop();
    rmSync(home, { recursive: true, force: true });
  });

  async function runner(url: string, token: string): Promise<Socket> {
    const socket = await connectSocket({ url, nsp: '/cli', token });
    sockets.push(socket);
    return socket;
  }

  it('shows "Reconnecting…", then catches up on the messages it missed', async () => {
    const first = await createHub({ config: { port: 0, home, webDist: WEB_DIST } });
    hubs.push(first);
    const token = (await createAccessToken({ store: first.store, namespace: 'restart', label: 'test' })).token;
    const sessionId = randomUUID();
    const registration = { id: sessionId, cwd: '/home/dev/src/tether', launchKind: 'pty', title: 'Survives restarts', status: 'idle' };
    const before = await runner(first.url, token);
    expect((await emitAck(before, 'session:register', registration)).ok).toBe(true);
    const said = (text: string) => ({
      sessionId,
      messages: [{ id: randomUUID(), role: 'assistant', content: [{ type: 'text', text }], createdAt: Date.now() }],
    });
    expect((await emitAck(before, 'message:append', said('Before the restart.'))).ok).toBe(true);

    const page = await browser.newPage({ viewport: 'phone' });
    await loginWithQrLink(page, { hubUrl: first.url, token });
    await page.getByRole('link', { name: /Survives restarts/ }).click();
    const log = page.getByRole('log', { name: 'Chat' });
    await log.getByText('Before the restart.').waitFor({ timeout: UI_TIMEOUT_MS });

    before.close();
    await first.stop();
    const toast = page.getByRole('status').filter({ hasText: 'Reconnecting…' });
    await toast.waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'reconnecting', viewport: 'phone' });

    const second = await createHub({ config: { port: first.port, home, webDist: WEB_DIST } });
    hubs.push(second);
    const after = await runner(second.url, token);
    expect((await emitAck(after, 'session:register', registration)).ok).toBe(true);
    expect((await emitAck(after, 'message:append', said('After the restart.'))).ok).toBe(true);

    // socket.io backs off up to 5 s between attempts: allow for one full back-off.
    await log.getByText('After the restart.').waitFor({ timeout: UI_TIMEOUT_MS + 5_000 });
    await toast.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await expect(log.getByText('Before the restart.').count()).resolves.toBe(1);
    // Still signed in: the web session outlived the restart (the signing secret lives in TETHER_HOME).
    expect(new URL(page.url()).pathname).toBe(`/sessions/${sessionId}`);
    await page.close();
  });
});
