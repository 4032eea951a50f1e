// worktrees.test.ts: a session in a worktree of its own, in the browser (issue 30), at 390×844 and
// 1280×800, every new state in both themes with axe: the form's "In a new worktree" (offered only
// for a folder the machine says is a repository), a bad branch name and a refused one said at the
// field, the header's branch, Archive's question with the work it would lose (an ignored `.env.local`
// among it, the rebuildable folders apart with their sizes), the question when the machine is
// offline, and a removal refused because an ignored file appeared after the look (shown again). A stand-in daemon (/cli socket, client "daemon") answers as the real one
// does (tests/e2e/worktrees.test.ts runs the real one with real git).
//
//   form ─worktree:probe / session:spawn {worktree}─► hub ─daemon:*─► stand-in daemon
//   list ⋯ Archive ─worktree:inspect─► hub ─► daemon ; Keep ─► session:archive ; Remove ─► worktree:remove
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { emitAck } from '../harness/hub.ts';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { saveScreenshot, UI_TIMEOUT_MS, useColorScheme, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { agentFor } from '../../cli/src/agents/index.ts';
import { stepLog } from '../harness/steps.ts';

const REPO = '/home/dev/src/shop';
const OLD_IDEA = `${REPO}.worktrees/old-idea`;
/** What removing would lose, as a daemon that names ignored files says it: an uncommitted file, an
 *  unpushed commit, an ignored `.env` (loss), and two rebuildable folders (sized, not loss). */
const LOSS = {
  uncommitted: ['notes/draft.md'],
  unpushed: ['a1b2c3d Tidy the checkout form'],
  ignored: [{ path: '.env.local', bytes: 184, files: 1, atLeast: false }],
  ignoredMore: 0,
  rebuildable: [
    { path: 'node_modules/', bytes: 412_300_000, files: 100_000, atLeast: true },
    { path: 'packages/web/dist/', bytes: 2_400_000, files: 37, atLeast: false },
  ],
  rebuildableMore: 0,
  digest: 'a1'.repeat(32),
};
/** The same worktree once the session's local data landed in an ignored folder after the look. */
const LOSS_LATER = { ...LOSS, ignored: [...LOSS.ignored, { path: '.session-data/', bytes: 96_000, files: 12, atLeast: false }], digest: 'b2'.repeat(32) };
/** Where the stand-in daemon says a new worktree's branch started. */
const BASE = { ref: 'main', commit: '1a2b3c4d5e6f7a8b9c0d' };

const hunk = (lines: string[]) => ({ oldStart: 1, newStart: 1, section: '', lines });
const CART_DIFF = { path: 'src/cart.ts', binary: false, hunks: [hunk(['-export const total = 0;', '+export const total = sum(items);'])], lineCount: 2, truncated: false };
const FORM_DIFF = { path: 'src/checkout-form.tsx', binary: false, hunks: [hunk([' <form>', '+  <label htmlFor="zip">Postcode</label>', ' </form>'])], lineCount: 3, truncated: false };

/** A runner's answer to the Changes view: against HEAD only the edit not committed; since the
 *  branch's base (the hub sends the recorded one) the committed form too, and what it compared with. */
function changesAnswer(query: { base?: { ref: string | null; commit: string } | null }) {
  const files = [
    { path: 'src/cart.ts', status: 'modified', binary: false, additions: 1, deletions: 1 },
    ...(query.base ? [{ path: 'src/checkout-form.tsx', status: 'modified', binary: false, additions: 1, deletions: 0 }] : []),
  ];
  const diffs = query.base ? [CART_DIFF, FORM_DIFF] : [CART_DIFF];
  return { ok: true, kind: 'changes', git: true, head: '9f8e7d6', against: query.base ? { ref: query.base.ref, commit: query.base.commit.slice(0, 12) } : null, branch: 'checkout-fix', files, total: files.length, cursor: 0, diffs, next: null };
}
const GIT_STATE = { ok: true, kind: 'state', git: true, branch: 'checkout-fix', head: '9f8e7d6', upstream: 'origin/checkout-fix', ahead: 1, behind: 0, files: [{ path: 'src/cart.ts', staged: false, unstaged: true }], total: 1, pullRequests: false };

async function bothThemes(page: Page, name: string, viewport: ViewportName): Promise<string[]> {
  const serious: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await useColorScheme(page, scheme);
    await saveScreenshot(page, { name: `${name}-${scheme}`, viewport });
    serious.push(...seriousOnes(await axeViolations(page)).map((line) => `${name} ${scheme}: ${line}`));
  }
  await useColorScheme(page, 'light');
  return serious;
}

type Spawn = { sessionId: string; cwd: string; launchKind: string; worktree: { branch: string } | null };

/** The stand-in daemon: a repository at REPO, a spawn in a worktree of it (the branch `main` exists),
 *  and what removing would lose. Every command it hears is logged. */
function standInDaemon(options: { daemon: Socket; token: string; machineId: string; connect: () => Promise<Socket> }) {
  const heard: Array<[string, unknown]> = [];
  const runners = new Map<string, Socket>();
  const { daemon } = options;
  daemon.on('daemon:worktree-probe', (p: { cwd: string }, reply: (a: unknown) => void) => {
    heard.push(['probe', p]);
    const worktrees = [
      { path: REPO, branch: 'main', main: true },
      { path: OLD_IDEA, branch: 'old-idea', main: false },
    ];
    reply(p.cwd === REPO || p.cwd === OLD_IDEA ? { ok: true, repo: p.cwd, branch: p.cwd === REPO ? 'main' : 'old-idea', worktrees } : { ok: true, repo: null, branch: null, worktrees: [] });
  });
  daemon.on('daemon:spawn', (spawn: Spawn, reply: (a: unknown) => void) => {
    heard.push(['spawn', spawn]);
    if (spawn.worktree?.branch === 'main') {
      reply({ ok: false, code: 'conflict', reason: 'worktree_failed', error: 'the branch "main" exists already: pick it from the list of worktrees, or name a new one' });
      return;
    }
    const path = spawn.worktree ? `${spawn.cwd}.worktrees/${spawn.worktree.branch}` : spawn.cwd;
    reply({ ok: true, pid: 4242, cwd: path, logFile: '/tmp/runner.log', worktree: spawn.worktree ? { path, branch: spawn.worktree.branch, repo: spawn.cwd, removedAt: null, base: BASE } : null });
    void (async () => {
      const runner = await options.connect();
      runner.on('workspace:query', (query: { kind: string; base?: typeof BASE | null }, reply: (a: unknown) => void) => {
        heard.push(['workspace', query]);
        reply(query.kind === 'changes' ? changesAnswer(query) : { ok: false, code: 'bad_request', error: 'not in this test' });
      });
      runner.on('git:action', (_query: unknown, reply: (a: unknown) => void) => reply(GIT_STATE));
      runners.set(spawn.sessionId, runner);
      await emitAck(runner, 'session:register', { id: spawn.sessionId, machineId: options.machineId, cwd: path, launchKind: spawn.launchKind, status: 'starting', title: 'Checkout fix' });
      await emitAck(runner, 'session:update', { sessionId: spawn.sessionId, patch: { status: 'idle' } });
    })();
  });
  // As the real daemon: a removal goes only when its confirmation is the digest of what is there now.
  let loss: typeof LOSS = LOSS;
  daemon.on('daemon:worktree-inspect', (p: unknown, reply: (a: unknown) => void) => {
    heard.push(['inspect', p]);
    reply({ ok: true, ...loss });
  });
  daemon.on('daemon:worktree-remove', (p: { path: string; confirm: unknown }, reply: (a: unknown) => void) => {
    heard.push(['remove', p]);
    const changed = `removing ${p.path} would lose 1 uncommitted file (notes/draft.md), 1 commit no remote has (a1b2c3d Tidy the checkout form) and ${loss.ignored.length} ignored files or folders (${loss.ignored.map((e) => e.path).join(', ')}); that is not what was confirmed (it changed since it was shown): look again, and confirm what is there now`;
    reply(p.confirm === loss.digest ? { ok: true, removed: p.path, lost: loss } : { ok: false, code: 'conflict', error: changed });
  });
  return { heard, runners, setLoss: (next: typeof LOSS) => (loss = next) };
}

describe('a session in a worktree, in the browser', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: the form's worktree choice, the branch in the header, Archive asks (online and offline)`, async () => {
      const step = stepLog(`worktrees ${viewport}`);
      step('start');
      const token = await world.hub.createToken(`worktrees-${viewport}`);
      const machineId = randomUUID();
      const daemon = await world.connect({ token, client: 'daemon' });
      expect((await emitAck(daemon, 'machine:register', { id: machineId, name: 'dev-box', os: 'linux', user: 'dev', home: '/home/dev', capabilities: { claude: agentFor('claude').capabilities } })).ok).toBe(true);
      const stand = standInDaemon({ daemon, token, machineId, connect: () => world.connect({ token }) });
      const serious: string[] = [];

      const page = await world.signedInPage(viewport, token);

      step.watch(page);
      await page.goto(`${world.hub.url}/new`);
      const form = page.getByRole('form', { name: 'New session' });
      await form.waitFor({ timeout: UI_TIMEOUT_MS });
      const dir = form.getByRole('textbox', { name: 'Directory' });
      // A folder in no repository: no worktree offered.
      step('A folder in no repository');
      await dir.fill('/home/dev/notes');
      await expect.poll(() => stand.heard.some(([kind, p]) => kind === 'probe' && (p as { cwd: string }).cwd === '/home/dev/notes'), { timeout: UI_TIMEOUT_MS }).toBe(true);
      await expect(form.getByRole('checkbox', { name: /In a new worktree/ }).count()).resolves.toBe(0);

      await dir.fill(REPO);
      const choice = form.getByRole('checkbox', { name: /In a new worktree/ });
      await choice.waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'worktree-form-offered', viewport)));
      // An existing worktree of it, picked from the list: the session would simply start there.
      step('An existing worktree of it, picked from the list');
      await form.getByRole('group', { name: 'Existing worktrees' }).getByRole('button', { name: `Start in the worktree ${OLD_IDEA}` }).click();
      await expect(dir.inputValue()).resolves.toBe(OLD_IDEA);
      await dir.fill(REPO);
      await expect.poll(() => form.getByRole('group', { name: 'Existing worktrees' }).getByRole('button').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
      await choice.check();
      const branch = form.getByRole('textbox', { name: 'Branch' });
      await expect(branch.inputValue()).resolves.toMatch(/^tether\/\d{4}-\d{4}$/);
      await form.getByText(new RegExp(`^${REPO}\\.worktrees/tether/`)).waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'worktree-form-branch', viewport)));

      // A bad name: said at the field, and the form cannot be sent.
      step('A bad name');
      await branch.fill('fix..it; rm -rf ~');
      await form.getByRole('alert').getByText(/a branch name here takes letters, digits/).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(form.getByRole('button', { name: 'Start session' }).isDisabled()).resolves.toBe(true);
      serious.push(...(await bothThemes(page, 'worktree-form-bad-name', viewport)));

      // A branch that exists: the machine refuses, and the refusal is said at the field.
      step('A branch that exists');
      await branch.fill('main');
      await form.getByRole('button', { name: 'Start session' }).click();
      await form.getByRole('alert').getByText(/the branch "main" exists already/).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(branch.getAttribute('aria-invalid')).resolves.toBe('true');
      serious.push(...(await bothThemes(page, 'worktree-form-refused', viewport)));

      await branch.fill('checkout-fix');
      await form.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
      const spawns = stand.heard.filter(([kind]) => kind === 'spawn').map(([, p]) => p as Spawn);
      expect(spawns.at(-1)).toMatchObject({ cwd: REPO, worktree: { branch: 'checkout-fix' } });
      const sessionId = spawns.at(-1)!.sessionId;
      const badge = page.locator('.session-header').getByRole('img', { name: /^Branch checkout-fix\./ });
      await badge.waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'worktree-header', viewport)));

      // Changes: what is not committed, or the whole branch since it left main (the agent committed).
      step('Changes');
      await page.goto(`${world.hub.url}/sessions/${sessionId}/changes`);
      const scope = page.getByRole('group', { name: 'Compare with' });
      await scope.getByRole('button', { name: 'Not committed', pressed: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.locator('.diff-file[data-path="src/cart.ts"]').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(page.locator('.diff-file').count()).resolves.toBe(1);
      await scope.getByRole('button', { name: 'Whole branch since main', pressed: false }).click();
      await page.waitForURL(/\/changes\?against=base$/, { timeout: UI_TIMEOUT_MS });
      await page.locator('.diff-file[data-path="src/checkout-form.tsx"]').waitFor({ timeout: UI_TIMEOUT_MS });
      await page.locator('.workspace-summary').getByText('· since main 1a2b3c4').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(page.locator('.diff-file').count()).resolves.toBe(2);
      const asked = stand.heard.filter(([kind]) => kind === 'workspace').map(([, q]) => (q as { base?: unknown }).base ?? null);
      expect(asked).toContainEqual(BASE);
      expect(asked).toContainEqual(null);
      serious.push(...(await bothThemes(page, 'worktree-changes-branch', viewport)));
      await page.goBack();
      await scope.getByRole('button', { name: 'Not committed', pressed: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => page.locator('.diff-file').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);

      // End says the worktree stays (only Archive removes one, and asks first); cancelled here.
      step('End says the worktree stays');
      await page.locator('.session-header').getByRole('button', { name: 'End session' }).click();
      const endDialog = page.getByRole('alertdialog', { name: 'End this session?' });
      await endDialog.getByText('Its worktree on checkout-fix stays as it is, with everything in it; Archive asks whether to remove it.').waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'worktree-end-dialog', viewport)));
      await endDialog.getByRole('button', { name: 'Cancel' }).click();
      await endDialog.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });

      // Ended, then Archive from the list: the question, with what removing would lose.
      step('Ended, then Archive from the list');
      await emitAck(stand.runners.get(sessionId)!, 'session:end', { sessionId, status: 'ended', exitCode: 0, reason: null });
      await page.goto(`${world.hub.url}/`);
      const openArchive = async () => {
        await page.getByRole('button', { name: 'Actions for Checkout fix' }).click();
        await page.getByRole('menu', { name: 'Actions for Checkout fix' }).getByRole('menuitem', { name: 'Archive' }).click();
        const dialog = page.getByRole('alertdialog', { name: 'Archive, and its worktree?' });
        await dialog.waitFor({ timeout: UI_TIMEOUT_MS });
        return dialog;
      };
      let dialog = await openArchive();
      await dialog.getByText('notes/draft.md').waitFor({ timeout: UI_TIMEOUT_MS });
      await dialog.getByText('a1b2c3d Tidy the checkout form').waitFor({ timeout: UI_TIMEOUT_MS });
      // The ignored .env.local is loss, named with its size; the rebuildable folders one line each.
      const group = (title: string) => dialog.locator('.worktree-loss-group').filter({ hasText: title });
      await expect(group('Ignored by git, not rebuildable').getByRole('listitem').allInnerTexts()).resolves.toEqual([expect.stringMatching(/^\.env\.local 184 B$/)]);
      await expect(group('Rebuildable, removed without asking').getByRole('listitem').allInnerTexts()).resolves.toEqual([
        expect.stringMatching(/^node_modules\/ at least 100,000 files, 393\.2 MB$/),
        expect.stringMatching(/^packages\/web\/dist\/ 37 files, 2\.3 MB$/),
      ]);
      const remove = dialog.getByRole('button', { name: 'Remove and lose 1 uncommitted file, 1 unpushed commit and 1 ignored file' });
      await remove.waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'worktree-archive-question', viewport)));

      // Keep it: archived, nothing removed.
      step('Keep it');
      await dialog.getByRole('button', { name: 'Archive, keep worktree' }).click();
      await page.getByRole('status').filter({ hasText: 'Archived “Checkout fix”; its worktree stays.' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(stand.heard.filter(([kind]) => kind === 'remove')).toEqual([]);

      // Back in the list, the machine offline: Archive still works and says the worktree stays.
      step('Back in the list, the machine offline');
      const web = await world.connect({ token, nsp: '/web' });
      expect((await emitAck(web, 'session:archive', { sessionId, archived: false })).ok).toBe(true);
      daemon.disconnect();
      await page.getByRole('button', { name: 'Actions for Checkout fix' }).waitFor({ timeout: UI_TIMEOUT_MS });
      dialog = await openArchive();
      await dialog.getByText(/^Machine "dev-box" is offline: its worktrees stay as they are\. Archive keeps the worktree/).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(dialog.getByRole('button', { name: /Remove/ }).count()).resolves.toBe(0);
      serious.push(...(await bothThemes(page, 'worktree-archive-offline', viewport)));
      await dialog.getByRole('button', { name: 'Archive, keep worktree' }).click();
      await page.getByRole('status').filter({ hasText: 'Archived “Checkout fix”; its worktree stays.' }).waitFor({ timeout: UI_TIMEOUT_MS });

      // Online again, and this time removed: the button that names the loss sends the confirm.
      step('Online again, and this time removed');
      const again = await world.connect({ token, client: 'daemon' });
      expect((await emitAck(again, 'machine:register', { id: machineId, name: 'dev-box', os: 'linux', user: 'dev', home: '/home/dev', capabilities: { claude: agentFor('claude').capabilities } })).ok).toBe(true);
      const back = standInDaemon({ daemon: again, token, machineId, connect: () => world.connect({ token }) });
      expect((await emitAck(web, 'session:archive', { sessionId, archived: false })).ok).toBe(true);
      dialog = await openArchive();
      await dialog.getByText('.env.local').waitFor({ timeout: UI_TIMEOUT_MS });
      // Meanwhile the session's local data lands in an ignored folder: the confirmation does not
      // cover it, the machine refuses, and the question shows what is there now.
      back.setLoss(LOSS_LATER);
      await dialog.getByRole('button', { name: 'Remove and lose 1 uncommitted file, 1 unpushed commit and 1 ignored file' }).click();
      await dialog.getByRole('alert').getByText(/^Nothing was removed: what removing it would lose changed since you looked\./).waitFor({ timeout: UI_TIMEOUT_MS });
      await dialog.getByText('.session-data/', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      const removeAll = dialog.getByRole('button', { name: 'Remove and lose 1 uncommitted file, 1 unpushed commit and 2 ignored files and folders' });
      await removeAll.waitFor({ timeout: UI_TIMEOUT_MS });
      serious.push(...(await bothThemes(page, 'worktree-archive-changed', viewport)));
      await removeAll.click();
      await page.getByRole('status').filter({ hasText: 'Archived “Checkout fix” and removed its worktree.' }).waitFor({ timeout: UI_TIMEOUT_MS });
      const tree = `${REPO}.worktrees/checkout-fix`;
      expect(back.heard.filter(([kind]) => kind === 'remove')).toEqual([
        ['remove', { repo: REPO, path: tree, confirm: LOSS.digest }],
        ['remove', { repo: REPO, path: tree, confirm: LOSS_LATER.digest }],
      ]);

      expect(serious).toEqual([]);
      await page.close();
    }, 120_000);
  }
});
