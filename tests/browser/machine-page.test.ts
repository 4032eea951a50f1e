// machine-page.test.ts: a machine's page on the phone and a desktop (issue 40): reached from the
// session list's Machines row; its daemon online, then offline ("start tether daemon on <machine>");
// the "Found on this machine" switch; the list the daemon reported (newest first, searched by title
// and folder, paged with Load more), each row offering what the hub would do (Adopt, Adopt in
// terminal, Fork or why not; a live terminal conversation cannot be shared); refusals shown on
// the row (someone else adopted it, still being written); Adopt of a live claude background session
// opens the adopted session's terminal, chat and its "no hook approvals" note; End offers to stop it
// in claude's pool only after a confirmation that says so, and the runner hears that stop.
// A real hub; a /cli socket plays the daemon (its index, its spawns) and one the attached runner.
//
//   page ─machine:outside─► hub ─daemon:outside─► daemon ─outside:index─► hub ─GET …/outside─► page
//   Adopt ─outside:adopt─► hub ─daemon:spawn {attached, backgroundId}─► daemon ─► runner registers ─► page
//   Stop in pool ─session:stop {stopInPool}─► hub ─session:stop {stopInPool}─► runner ─session:end─► page
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { OutsideEntry } from '@tether/shared';
import { agentFor } from '../../cli/src/agents/index.ts';
import { emitAck } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

const BG_ID = 'f35b2b97';
const MINUTE = 60_000;
const SCREEN = 'Claude Code v2.1.332\r\n\r\n> Refactor the payment module\r\n\r\n● Done: PaymentService split in three.\r\n\r\n❯ \r\n⏵⏵ auto mode on · ← for agents';

type Spawned = { sessionId: string; cwd: string; launchKind: string; backgroundId?: string | null; resumeAgentSessionId: string | null };

/** What the stand-in daemon reports: 40 past claude conversations, a Codex one, a claude running in
 *  someone's terminal and a claude background session (the newest). */
function foundEntries(now: number) {
  const past = Array.from({ length: 40 }, (_, i): OutsideEntry => ({
    agent: 'claude',
    agentSessionId: randomUUID(),
    folder: i % 2 ? '/home/dev/src/webshop' : '/home/dev/src/tether',
    title: i === 7 ? 'Release notes for 2.4' : i === 12 ? 'Draft the release checklist' : `Look into flaky test number ${i}`,
    lastActivity: now - (10 + i) * MINUTE,
    sizeBytes: 20_000 + i * 3_000,
    live: false,
  }));
  const codex: OutsideEntry = { agent: 'codex', agentSessionId: randomUUID(), folder: '/home/dev/src/api', title: 'Port the rate limiter to Redis', lastActivity: now - 5 * MINUTE, sizeBytes: 88_000, live: false };
  const terminal: OutsideEntry = { agent: 'claude', agentSessionId: randomUUID(), folder: '/home/dev/src/tether', title: 'Why is the release build slow?', lastActivity: now - 2 * MINUTE, sizeBytes: 41_000, live: true };
  const background: OutsideEntry = { agent: 'claude', agentSessionId: randomUUID(), folder: '/home/dev/src/webshop', title: 'Refactor the payment module', lastActivity: now - MINUTE, sizeBytes: 152_000, live: true, backgroundId: BG_ID };
  return { past, codex, terminal, background };
}

const row = (page: Page, title: string) => page.locator('.found-row', { has: page.getByText(title, { exact: true }) });

async function expectClean(page: Page, name: string, viewport: ViewportName) {
  expect(await screenshotsAndSeriousInBothThemes(page, { name, viewport })).toEqual([]);
}

describe("a machine's page", () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: found conversations listed, searched, paged; refusals; Adopt of a background session; its stop in claude's pool asked first`, async () => {
      const namespace = `machine-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const machineId = randomUUID();
      const claude = { ...agentFor('claude').capabilities, fork: { supported: true, reason: null } };
      const codex = { ...agentFor('codex').capabilities, fork: { supported: false, reason: 'codex has no fork on its command line' } };
      const daemon = await world.connect({ token, client: 'daemon' });
      expect((await emitAck(daemon, 'machine:register', { id: machineId, name: 'dev-box', os: 'linux', user: 'dev', home: '/home/dev', agents: ['claude', 'codex'], capabilities: { claude, codex } })).ok).toBe(true);
      const switched: boolean[] = [];
      daemon.on('daemon:outside', ({ enabled }: { enabled: boolean }, ack: (r: unknown) => void) => {
        switched.push(enabled);
        ack({ ok: true });
      });
      const found = foundEntries(Date.now());
      const spawns: Spawned[] = [];
      const stops: Array<{ sessionId: string; stopInPool?: boolean }> = [];
      daemon.on('daemon:spawn', (payload: Spawned, ack: (r: unknown) => void) => {
        spawns.push(payload);
        // The daemon looks at a past one again before it starts anything: this one is being written.
        if (payload.launchKind !== 'attached') return ack({ ok: false, code: 'conflict', reason: 'session_live', error: 'a live claude (pid 4242) still writes this conversation: it cannot be shared while it runs; continue it here once it has ended' });
        ack({ ok: true, pid: 4343, cwd: payload.cwd, logFile: '/tmp/runner.log' });
        void attachedRunner(payload);
      });
      // The attached runner: claude's background session in tether's PTY, its conversation as the chat.
      const attachedRunner = async (spawn: Spawned) => {
        const runner = await world.connect({ token });
        runner.on('terminal:snapshot-request', () => void emitAck(runner, 'terminal:snapshot', { sessionId: spawn.sessionId, offset: 0, cols: 80, rows: 24, data: SCREEN }));
        runner.on('session:stop', (stop: { sessionId: string; stopInPool?: boolean }) => {
          stops.push(stop);
          setTimeout(() => void emitAck(runner, 'session:end', { sessionId: stop.sessionId, status: 'ended', exitCode: 0, reason: null }), 300);
        });
        await emitAck(runner, 'session:register', { id: spawn.sessionId, machineId, cwd: spawn.cwd, launchKind: 'pty', status: 'starting', title: 'Refactor the payment module', agentSessionId: found.background.agentSessionId, capabilities: agentFor('claude').background!.capabilities(spawn.backgroundId!), deskAttached: false });
        await emitAck(runner, 'message:append', {
          sessionId: spawn.sessionId,
          messages: [
            { id: randomUUID(), role: 'user', createdAt: Date.now() - 60_000, content: [{ type: 'text', text: 'Refactor the payment module' }] },
            { id: randomUUID(), role: 'assistant', createdAt: Date.now() - 30_000, content: [{ type: 'text', text: 'Done: PaymentService split in three.' }] },
          ],
        });
        await emitAck(runner, 'session:update', { sessionId: spawn.sessionId, patch: { status: 'idle' } });
      };

      // From the session list's Machines row to the page: the daemon online, finding switched off.
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('navigation', { name: 'Machines' }).getByRole('link', { name: /dev-box/ }).click();
      await page.getByRole('heading', { name: 'dev-box', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByText('Daemon online').waitFor({ timeout: UI_TIMEOUT_MS });
      const toggle = page.getByRole('switch', { name: 'Find conversations here' });
      await expect(toggle.getAttribute('aria-checked')).resolves.toBe('false');
      await page.getByText(/Off: nothing on dev-box is looked at/).waitFor();
      await expectClean(page, 'machine-page-off', viewport);

      // Switched on: the daemon hears it and reports what it found.
      // (A daemon hears the machine's switch when it registers: off, here.)
      await expect.poll(() => switched, { timeout: UI_TIMEOUT_MS }).toEqual([false]);
      await toggle.click();
      await expect.poll(() => switched, { timeout: UI_TIMEOUT_MS }).toEqual([false, true]);
      await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: UI_TIMEOUT_MS }).toBe('true');
      const entries = [found.background, found.terminal, found.codex, ...found.past];
      expect((await emitAck(daemon, 'outside:index', { reset: true, complete: true, entries })).ok).toBe(true);
      // The page reads the list again on its own (every 15 s); a reload is the quick way here.
      await page.reload();
      await page.getByText('43 found, newest first').waitFor({ timeout: UI_TIMEOUT_MS });
      const titles = page.locator('.found-title');
      await expect(titles.count()).resolves.toBe(30);
      await expect(titles.first().textContent()).resolves.toBe('Refactor the payment module');
      // Each row says what it is and offers what the hub would do.
      const bg = row(page, 'Refactor the payment module');
      await bg.getByText("Running in Claude's pool").waitFor();
      await expect(bg.getByRole('button').allTextContents()).resolves.toEqual(['Adopt', 'Fork']);
      const terminal = row(page, 'Why is the release build slow?');
      await terminal.getByText("A Claude running in someone's terminal cannot be shared while it runs: continue it here once it has ended.").waitFor();
      await expect(terminal.getByRole('button').allTextContents()).resolves.toEqual(['Fork']);
      const codexRow = row(page, 'Port the rate limiter to Redis');
      await expect(codexRow.getByRole('button').allTextContents()).resolves.toEqual(['Adopt', 'Adopt in terminal']);
      await codexRow.getByText('No fork: codex has no fork on its command line').waitFor();
      await expectClean(page, 'machine-page-found', viewport);

      // Load more: the next page, to the end.
      await page.getByRole('button', { name: 'Load more (13 left)' }).click();
      await expect.poll(() => titles.count(), { timeout: UI_TIMEOUT_MS }).toBe(43);
      await expect(page.getByRole('button', { name: /^Load more/ }).count()).resolves.toBe(0);

      // Search: title and folder.
      const search = page.getByRole('searchbox', { name: 'Search found conversations' });
      await search.fill('release');
      await page.getByText('3 matching').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(titles.allTextContents()).resolves.toEqual(['Why is the release build slow?', 'Release notes for 2.4', 'Draft the release checklist']);
      await expectClean(page, 'machine-page-search', viewport);
      await search.fill('/src/api');
      await page.getByText('1 matching').waitFor({ timeout: UI_TIMEOUT_MS });
      await search.fill('');
      await page.getByText('43 found, newest first').waitFor({ timeout: UI_TIMEOUT_MS });

      // Refusals stay on the row, in words: someone else adopted it; the daemon finds it still written.
      const taken = found.past[0]!;
      expect(await world.hub.store.claimOutside({ namespace, machineId, agentSessionId: taken.agentSessionId, now: Date.now() })).toBe(true);
      const takenRow = row(page, taken.title);
      await takenRow.getByRole('button', { name: 'Adopt', exact: true }).click();
      await takenRow.getByRole('alert').getByText('Someone else is adopting this conversation (or has adopted it): it is theirs now').waitFor({ timeout: UI_TIMEOUT_MS });
      const written = row(page, found.past[1]!.title);
      await written.getByRole('button', { name: 'Adopt in terminal' }).click();
      await written.getByRole('alert').getByText(/^A live claude \(pid 4242\) still writes this conversation/).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(spawns.map((s) => s.launchKind)).toEqual(['pty']);
      await written.scrollIntoViewIfNeeded();
      await expectClean(page, 'machine-page-refused', viewport);

      // Adopt the background session: attached live, its terminal first.
      await bg.getByRole('button', { name: 'Adopt', exact: true }).click();
      await page.locator('.xterm-rows').getByText('Done: PaymentService split in three.').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(spawns.at(-1)).toMatchObject({ launchKind: 'attached', backgroundId: BG_ID, cwd: '/home/dev/src/webshop' });
      const note = page.getByRole('button', { name: /^adopted: no hook approvals.*What this means$/ });
      await note.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(note.textContent()).resolves.toBe('Adopted: no hook approvals');
      await saveScreenshot(page, { name: 'machine-adopted-terminal', viewport });
      await page.getByRole('link', { name: 'Chat', exact: true }).click();
      await page.getByText('Done: PaymentService split in three.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expectClean(page, 'machine-adopted-chat', viewport);

      // End: Detach is the default; stopping it in claude's pool is a second, explicit step.
      await page.getByRole('button', { name: 'End session' }).click();
      const detach = page.getByRole('alertdialog', { name: 'Detach from this session?' });
      await detach.getByRole('button', { name: 'Detach' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expectClean(page, 'machine-adopted-detach', viewport);
      await detach.getByRole('button', { name: "Stop it in Claude's pool instead…" }).click();
      const confirm = page.getByRole('alertdialog', { name: "Stop it in Claude's pool?" });
      await confirm.getByText(`This stops Claude background session ${BG_ID} in Claude's own pool (claude stop ${BG_ID}): a turn it is running ends, and it no longer runs anywhere. Its conversation stays on disk.`).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(confirm.getByRole('button', { name: 'Back' }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await expectClean(page, 'machine-adopted-stop-confirm', viewport);
      expect(stops).toEqual([]);
      await confirm.getByRole('button', { name: 'Stop in pool' }).click();
      await page.getByRole('region', { name: 'Session ended' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(stops).toEqual([{ sessionId: spawns.at(-1)!.sessionId, stopInPool: true }]);

      // The daemon gone: the page says what to start, where, and adopts nothing.
      await page.goto(`${world.hub.url}/machines/${machineId}`);
      await page.getByText('Daemon online').waitFor({ timeout: UI_TIMEOUT_MS });
      daemon.close();
      await page.getByText('Daemon offline: start tether daemon on dev-box to adopt or fork.').waitFor({ timeout: UI_TIMEOUT_MS });
      const offline = row(page, 'Port the rate limiter to Redis');
      await expect(offline.getByRole('button', { name: 'Adopt', exact: true }).isDisabled()).resolves.toBe(true);
      await expectClean(page, 'machine-page-offline', viewport);
      await page.close();
    });
  }
});
