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
import type { Socket } from 'socket.io-client';
import type { OutsideEntry } from '@tether/shared';
import { agentFor } from '../../cli/src/agents/index.ts';
import { emitAck } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { useBrowserWorld, type BrowserWorld } from '../harness/browser-world.ts';

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

type Stage = {
  namespace: string;
  token: string;
  machineId: string;
  daemon: Socket;
  found: ReturnType<typeof foundEntries>;
  /** What the daemon was told of the machine's switch, in order. */
  switched: boolean[];
  spawns: Spawned[];
  /** What the attached runner was asked at End. */
  stops: Array<{ sessionId: string; stopInPool?: boolean }>;
};

/** A machine with claude (it forks) and Codex (it does not), its stand-in daemon: it hears the
 *  switch, refuses a past conversation as still written, and starts an attached runner for a
 *  background one. */
async function standInMachine(world: BrowserWorld, viewport: ViewportName): Promise<Stage> {
  const namespace = `machine-${viewport}`;
  const token = await world.hub.createToken(namespace);
  const machineId = randomUUID();
  const claude = { ...agentFor('claude').capabilities, fork: { supported: true, reason: null } };
  const codex = { ...agentFor('codex').capabilities, fork: { supported: false, reason: 'codex has no fork on its command line' } };
  const daemon = await world.connect({ token, client: 'daemon' });
  expect((await emitAck(daemon, 'machine:register', { id: machineId, name: 'dev-box', os: 'linux', user: 'dev', home: '/home/dev', agents: ['claude', 'codex'], capabilities: { claude, codex } })).ok).toBe(true);
  const stage: Stage = { namespace, token, machineId, daemon, found: foundEntries(Date.now()), switched: [], spawns: [], stops: [] };
  daemon.on('daemon:outside', ({ enabled }: { enabled: boolean }, ack: (r: unknown) => void) => {
    stage.switched.push(enabled);
    ack({ ok: true });
  });
  daemon.on('daemon:spawn', (payload: Spawned, ack: (r: unknown) => void) => {
    stage.spawns.push(payload);
    // The daemon looks at a past one again before it starts anything: this one is being written.
    if (payload.launchKind !== 'attached') return ack({ ok: false, code: 'conflict', reason: 'session_live', error: 'a live claude (pid 4242) still writes this conversation: it cannot be shared while it runs; continue it here once it has ended' });
    ack({ ok: true, pid: 4343, cwd: payload.cwd, logFile: '/tmp/runner.log' });
    void attachedRunner(world, stage, payload);
  });
  return stage;
}

/** The attached runner: claude's background session in tether's PTY, its conversation as the chat. */
async function attachedRunner(world: BrowserWorld, stage: Stage, spawn: Spawned): Promise<void> {
  const runner = await world.connect({ token: stage.token });
  runner.on('terminal:snapshot-request', () => void emitAck(runner, 'terminal:snapshot', { sessionId: spawn.sessionId, offset: 0, cols: 80, rows: 24, data: SCREEN }));
  runner.on('session:stop', (stop: { sessionId: string; stopInPool?: boolean }) => {
    stage.stops.push(stop);
    setTimeout(() => void emitAck(runner, 'session:end', { sessionId: stop.sessionId, status: 'ended', exitCode: 0, reason: null }), 300);
  });
  const capabilities = agentFor('claude').background!.capabilities(spawn.backgroundId!);
  await emitAck(runner, 'session:register', { id: spawn.sessionId, machineId: stage.machineId, cwd: spawn.cwd, launchKind: 'pty', status: 'starting', title: 'Refactor the payment module', agentSessionId: stage.found.background.agentSessionId, capabilities, deskAttached: false });
  const said = (role: 'user' | 'assistant', text: string, ago: number) => ({ id: randomUUID(), role, createdAt: Date.now() - ago, content: [{ type: 'text', text }] });
  await emitAck(runner, 'message:append', { sessionId: spawn.sessionId, messages: [said('user', 'Refactor the payment module', 60_000), said('assistant', 'Done: PaymentService split in three.', 30_000)] });
  await emitAck(runner, 'session:update', { sessionId: spawn.sessionId, patch: { status: 'idle' } });
}

/** From the session list's Machines row to the page; the switch turned on; what the daemon reported,
 *  each row offering what the hub would do; Load more; search by title and folder. */
async function findAndSearch(page: Page, stage: Stage, viewport: ViewportName): Promise<void> {
  await page.getByRole('navigation', { name: 'Machines' }).getByRole('link', { name: /dev-box/ }).click();
  await page.getByRole('heading', { name: 'dev-box', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
  await page.getByText('Daemon online').waitFor({ timeout: UI_TIMEOUT_MS });
  const toggle = page.getByRole('switch', { name: 'Find conversations here' });
  await expect(toggle.getAttribute('aria-checked')).resolves.toBe('false');
  await page.getByText(/Off: nothing on dev-box is looked at/).waitFor();
  await expectClean(page, 'machine-page-off', viewport);

  // Switched on: the daemon hears it (it heard "off" when it registered) and reports what it found.
  await expect.poll(() => stage.switched, { timeout: UI_TIMEOUT_MS }).toEqual([false]);
  await toggle.click();
  await expect.poll(() => stage.switched, { timeout: UI_TIMEOUT_MS }).toEqual([false, true]);
  await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: UI_TIMEOUT_MS }).toBe('true');
  const { found } = stage;
  const entries = [found.background, found.terminal, found.codex, ...found.past];
  expect((await emitAck(stage.daemon, 'outside:index', { reset: true, complete: true, entries })).ok).toBe(true);
  // The page reads the list again on its own (every 15 s); a reload is the quick way here.
  await page.reload();
  await page.getByText('43 found, newest first').waitFor({ timeout: UI_TIMEOUT_MS });
  const titles = page.locator('.found-title');
  await expect(titles.count()).resolves.toBe(30);
  await expect(titles.first().textContent()).resolves.toBe('Refactor the payment module');
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

  await page.getByRole('button', { name: 'Load more (13 left)' }).click();
  await expect.poll(() => titles.count(), { timeout: UI_TIMEOUT_MS }).toBe(43);
  await expect(page.getByRole('button', { name: /^Load more/ }).count()).resolves.toBe(0);

  const search = page.getByRole('searchbox', { name: 'Search found conversations' });
  await search.fill('release');
  await page.getByText('3 matching').waitFor({ timeout: UI_TIMEOUT_MS });
  await expect(titles.allTextContents()).resolves.toEqual(['Why is the release build slow?', 'Release notes for 2.4', 'Draft the release checklist']);
  await expectClean(page, 'machine-page-search', viewport);
  await search.fill('/src/api');
  await page.getByText('1 matching').waitFor({ timeout: UI_TIMEOUT_MS });
  await search.fill('');
  await page.getByText('43 found, newest first').waitFor({ timeout: UI_TIMEOUT_MS });
}

/** Refusals stay on the row, in words: someone else adopted it; the daemon finds it still written. */
async function refusals(page: Page, world: BrowserWorld, stage: Stage, viewport: ViewportName): Promise<void> {
  const [taken, written] = stage.found.past;
  expect(await world.hub.store.claimOutside({ namespace: stage.namespace, machineId: stage.machineId, agentSessionId: taken!.agentSessionId, now: Date.now() })).toBe(true);
  const takenRow = row(page, taken!.title);
  await takenRow.getByRole('button', { name: 'Adopt', exact: true }).click();
  await takenRow.getByRole('alert').getByText('Someone else is adopting this conversation (or has adopted it): it is theirs now').waitFor({ timeout: UI_TIMEOUT_MS });
  const writtenRow = row(page, written!.title);
  await writtenRow.getByRole('button', { name: 'Adopt in terminal' }).click();
  await writtenRow.getByRole('alert').getByText(/^A live claude \(pid 4242\) still writes this conversation/).waitFor({ timeout: UI_TIMEOUT_MS });
  expect(stage.spawns.map((s) => s.launchKind)).toEqual(['pty']);
  await writtenRow.scrollIntoViewIfNeeded();
  await expectClean(page, 'machine-page-refused', viewport);
}

/** Adopt of the background session: attached live, its terminal, chat and note; End detaches by
 *  default, and stopping it in claude's pool is a second step that says so. */
async function adoptAndStopInPool(page: Page, stage: Stage, viewport: ViewportName): Promise<void> {
  await row(page, 'Refactor the payment module').getByRole('button', { name: 'Adopt', exact: true }).click();
  await page.locator('.xterm-rows').getByText('Done: PaymentService split in three.').waitFor({ timeout: UI_TIMEOUT_MS });
  expect(stage.spawns.at(-1)).toMatchObject({ launchKind: 'attached', backgroundId: BG_ID, cwd: '/home/dev/src/webshop' });
  const note = page.getByRole('button', { name: /^adopted: no hook approvals.*What this means$/ });
  await note.waitFor({ timeout: UI_TIMEOUT_MS });
  await expect(note.textContent()).resolves.toBe('Adopted: no hook approvals');
  await saveScreenshot(page, { name: 'machine-adopted-terminal', viewport });
  await page.getByRole('link', { name: 'Chat', exact: true }).click();
  await page.getByText('Done: PaymentService split in three.').waitFor({ timeout: UI_TIMEOUT_MS });
  await expectClean(page, 'machine-adopted-chat', viewport);

  await page.getByRole('button', { name: 'End session' }).click();
  const detach = page.getByRole('alertdialog', { name: 'Detach from this session?' });
  await detach.getByRole('button', { name: 'Detach' }).waitFor({ timeout: UI_TIMEOUT_MS });
  await expectClean(page, 'machine-adopted-detach', viewport);
  await detach.getByRole('button', { name: "Stop it in Claude's pool instead…" }).click();
  const confirm = page.getByRole('alertdialog', { name: "Stop it in Claude's pool?" });
  await confirm.getByText(`This stops Claude background session ${BG_ID} in Claude's own pool (claude stop ${BG_ID}): a turn it is running ends, and it no longer runs anywhere. Its conversation stays on disk.`).waitFor({ timeout: UI_TIMEOUT_MS });
  await expect(confirm.getByRole('button', { name: 'Back' }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
  await expectClean(page, 'machine-adopted-stop-confirm', viewport);
  expect(stage.stops).toEqual([]);
  await confirm.getByRole('button', { name: 'Stop in pool' }).click();
  await page.getByRole('region', { name: 'Session ended' }).waitFor({ timeout: UI_TIMEOUT_MS });
  expect(stage.stops).toEqual([{ sessionId: stage.spawns.at(-1)!.sessionId, stopInPool: true }]);
}

describe("a machine's page", () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: found conversations listed, searched, paged; refusals; Adopt of a background session; its stop in claude's pool asked first`, async () => {
      const stage = await standInMachine(world, viewport);
      const page = await world.signedInPage(viewport, stage.token);
      await findAndSearch(page, stage, viewport);
      await refusals(page, world, stage, viewport);
      await adoptAndStopInPool(page, stage, viewport);

      // The daemon gone: the page says what to start, where, and adopts nothing.
      await page.goto(`${world.hub.url}/machines/${stage.machineId}`);
      await page.getByText('Daemon online').waitFor({ timeout: UI_TIMEOUT_MS });
      stage.daemon.close();
      await page.getByText('Daemon offline: start tether daemon on dev-box to adopt or fork.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(row(page, 'Port the rate limiter to Redis').getByRole('button', { name: 'Adopt', exact: true }).isDisabled()).resolves.toBe(true);
      await expectClean(page, 'machine-page-offline', viewport);
      await page.close();
    });
  }
});
