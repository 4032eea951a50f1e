// session-row-pills.test.ts: the selected row of the desktop list keeps every status pill at 4.5:1 in
// both themes. The dark theme's pill tints are translucent, and over the selected row's own tint the
// busy pill fell to 4.4:1 (a rehearsal's axe caught a Codex row mid-turn); each status is selected in
// turn and axe looks at the page.
import { describe, expect, it } from 'vitest';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('the selected row of the list', () => {
  const world = useBrowserWorld();

  it('desktop: its status pill reads at 4.5:1 in both themes, whatever the status', async () => {
    const statuses = ['thinking', 'waiting', 'idle', 'failed', 'ended'] as const;
    const sessions: Array<{ status: (typeof statuses)[number]; sessionId: string }> = [];
    for (const status of statuses) {
      const { sessionId } = await world.runnerWithSession(world.hub.token, { cwd: `/home/dev/src/${status}`, launchKind: 'pty', title: `A session ${status}`, status });
      sessions.push({ status, sessionId });
    }
    const page = await world.signedInPage('desktop', world.hub.token);
    for (const { status, sessionId } of sessions) {
      await page.goto(`${world.hub.url}/sessions/${sessionId}`);
      await page.locator(`.session-row.is-active .pill[data-status="${status}"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await screenshotsAndSeriousInBothThemes(page, { name: `selected-row-${status}`, viewport: 'desktop' })).toEqual([]);
    }
    await page.close();
  });
});
