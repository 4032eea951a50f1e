// multi-hub.test.ts: the web app through nginx in front of two hubs on one PostgreSQL database.
// The browser comes through the balancer (hub A); the runner socket is on hub B. The session list
// shows B's session, an approval asked on B opens the sheet in the tab on A, and Allow reaches the
// runner on B; the terminal tab shows B's screen.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Answer } from '@tether/shared';
import { launchBrowser, loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { requireBuiltWeb } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCluster } from '../harness/cluster.ts';
import { connectSocket, emitAck, nextEvent } from '../harness/hub.ts';

const defer = useCleanups();

describe('the web app behind a load balancer of two hubs', () => {
  it('a tab on hub A answers an approval of a runner on hub B and sees its terminal', async () => {
    requireBuiltWeb();
    const cluster = await startCluster(defer);
    const browser = await launchBrowser();
    defer(() => browser.stop());

    const runner = await connectSocket({ url: cluster.b.url, nsp: '/cli', token: cluster.b.token });
    defer(() => runner.close());
    const sessionId = randomUUID();
    expect((await emitAck(runner, 'session:register', { id: sessionId, title: 'Across two hubs', cwd: '/home/dev/src/tether', launchKind: 'pty', status: 'idle' })).ok).toBe(true);

    const page = await browser.newPage({ viewport: 'phone' });
    await loginWithQrLink(page, { hubUrl: cluster.front.url, token: cluster.front.token });
    await page.getByRole('link', { name: /Across two hubs/ }).click();
    await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });

    const requestId = randomUUID();
    expect(
      (
        await emitAck(runner, 'approval:request', {
          id: requestId,
          sessionId,
          toolUseId: 'toolu_multihub',
          createdAt: Date.now(),
          kind: 'permission',
          toolName: 'Bash',
          toolInput: { command: 'npm publish', description: 'Publish from hub B' },
        })
      ).ok,
    ).toBe(true);
    const sheet = page.getByRole('dialog', { name: 'Run this command?' });
    await sheet.waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'multi-hub-approval', viewport: 'phone' });
    const answered = nextEvent<{ requestId: string; answer: Answer }>(runner, 'approval:answered');
    await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
    expect(await answered).toMatchObject({ requestId, answer: { decision: 'allow' } });
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });

    // The terminal tab: hub A carries the screen from hub B (which holds the runner) over the terminal link.
    runner.on('terminal:snapshot-request', () => {
      void emitAck(runner, 'terminal:snapshot', { sessionId, offset: 0, cols: 40, rows: 12, data: 'screen from hub B\r\n$ ' });
    });
    await page.goto(`${cluster.front.url}/sessions/${sessionId}/terminal`);
    // In the terminal's rows: the approval's command ("$ screen from hub B") may still be on the page.
    await page.locator('.xterm-rows').getByText('screen from hub B').first().waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'multi-hub-terminal', viewport: 'phone' });
  }, 90_000);
});
