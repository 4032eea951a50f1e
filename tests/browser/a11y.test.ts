// a11y.test.ts: axe-core (the accessibility engine, from npm) over the main screens, at 390×844 and
// 1280×800, in the light and the dark theme: login, the session list, a chat with an approval sheet,
// a question form, an MCP server's form (elicitation; also with its field problems shown), a dialog
// card, the composer with an attachment and with its slash-command list open, the terminal (in each
// state its keys can be in), the new-session form, End's confirmation, an ended session with Resume,
// the Changes and Files views (a diff, a folder, a file, a refusal), a share view, and the session
// list's triage (a row's menu for a live and an ended session, the archive notice, the Archived
// section), and a Codex session with its approval sheet. No violation may be serious or
// critical; the others are printed for a person to look at.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PIZZA_QUESTIONS } from '../fixtures/questions.ts';
import { loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { axeViolations, type Violation } from '../harness/axe.ts';
import { contrastOf } from '../harness/contrast.ts';
import { emitAck } from '../harness/hub.ts';
import { agentFor } from '../../cli/src/agents/index.ts';

const MCP_DIALOG = {
  title: 'New MCP server found in this project: probe',
  text: [
    'New MCP server found in this project: probe',
    '',
    'MCP servers may execute code or access system resources. All tool calls require approval. Learn',
    'more in the MCP documentation.',
    '',
    '  Use this MCP server',
    '  Use this and all future MCP servers in this project',
    '    servers added to .mcp.json later are used without asking',
    '  Continue without using this MCP server',
    '',
    'Enter to confirm · Esc to cancel',
  ],
  options: [
    { key: '1', label: 'Use this MCP server' },
    // An option with a row under it (a description, or a wrapped label's rest): its detail.
    { key: '2', label: 'Use this and all future MCP servers in this project', detail: 'servers added to .mcp.json later are used without asking' },
    { key: '3', label: 'Continue without using this MCP server' },
  ],
};

/** An MCP server's form with every field kind the phone renders (elicitation-form.tsx). */
const ELICITATION = {
  serverName: 'deploy',
  message: 'Who is deploying, and where to?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Your name', description: 'Who signs off', minLength: 1 },
      replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9 },
      notify: { type: 'boolean', title: 'Notify the team', default: true },
      region: { type: 'string', title: 'Region', enum: ['eu-west', 'us-east'], enumNames: ['Europe (West)', 'US (East)'] },
      zone: { type: 'string', title: 'Zone', enum: ['a', 'b', 'c', 'd', 'e', 'f'] },
    },
    required: ['name', 'region'],
  },
};

/** A diff with most of the token kinds the syntax colours draw. */
const APP_TS_BEFORE = [
  "// app.ts: the server's entry point.",
  "import { serve } from './serve.ts';",
  'const PORT = 8080;',
  "const ROUTE = /^\\/api\\/(\\w+)$/;",
  'export class App {',
  '  constructor(private readonly name: string) {}',
  '  start(): Promise<void> {',
  "    return serve({ port: PORT, name: this.name, route: ROUTE, banner: `ready on ${PORT}` });",
  '  }',
  '}',
];

function workspaceAnswer(query: { kind: string; path?: string }): unknown {
  if (query.kind === 'changes') {
    const lines = APP_TS_BEFORE.map((l) => ` ${l}`);
    lines.splice(2, 1, '-const PORT = 8080;', '+const PORT = Number(process.env.PORT ?? 8080); // from the environment', '+const HOST = "127.0.0.1";');
    return {
      ok: true,
      kind: 'changes',
      git: true,
      head: '3f2a1c4',
      branch: 'main',
      files: [
        { path: 'logo.png', status: 'modified', binary: true, additions: null, deletions: null },
        { path: 'src/app.ts', status: 'modified', binary: false, additions: 2, deletions: 1 },
        { path: 'src/new.ts', status: 'untracked', binary: false, additions: 1, deletions: 0 },
      ],
      total: 3,
      cursor: 0,
      diffs: [
        { path: 'logo.png', binary: true, hunks: [], lineCount: 0, truncated: false },
        { path: 'src/app.ts', binary: false, hunks: [{ oldStart: 1, newStart: 1, section: '', lines }], lineCount: lines.length, truncated: false },
        { path: 'src/new.ts', binary: false, hunks: [{ oldStart: 0, newStart: 1, section: '', lines: ['+export const added = true;'] }], lineCount: 1, truncated: true },
      ],
      next: null,
    };
  }
  if (query.kind === 'list') {
    const entries =
      query.path === 'src'
        ? [{ name: 'app.ts', kind: 'file', size: 412, link: false, outside: false }]
        : [
            { name: 'src', kind: 'dir', size: null, link: false, outside: false },
            { name: 'package.json', kind: 'file', size: 1234, link: false, outside: false },
            { name: 'escape', kind: 'other', size: null, link: true, outside: true },
          ];
    return { ok: true, kind: 'list', path: query.path ?? '', entries, total: entries.length };
  }
  if (query.path === 'src/app.ts') return { ok: true, kind: 'read', path: 'src/app.ts', size: 412, binary: false, text: `${APP_TS_BEFORE.join('\n')}\n`, truncated: false };
  return { ok: false, code: 'forbidden', error: `"${query.path}" leads outside the session's directory (a symbolic link points out of it); it is not shown` };
}

describe('accessibility (axe-core)', () => {
  const world = useBrowserWorld();

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`${viewport}, ${colorScheme}: no serious or critical violation on any main screen`, async () => {
        const namespace = `a11y-${viewport}-${colorScheme}`;
        const token = await world.hub.createToken(namespace);
        const daemon = await world.connect({ token, client: 'daemon' });
        expect((await emitAck(daemon, 'machine:register', { id: randomUUID(), name: 'a11y-box', os: 'linux', user: 'dev', home: '/home/dev', capabilities: { claude: agentFor('claude').capabilities } })).ok).toBe(true);
        const { runner, sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/tether', launchKind: 'pty', title: 'Check the screens', status: 'idle' });
        const page = await world.browser.newPage({ viewport, colorScheme });
        const found: Array<{ screen: string } & Violation> = [];
        const check = async (screen: string) => {
          for (const v of await axeViolations(page)) found.push({ screen, ...v });
        };

        await page.goto(`${world.hub.url}/login`);
        await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: UI_TIMEOUT_MS });
        await check('login');

        await loginWithQrLink(page, { hubUrl: world.hub.url, token });
        await page.getByRole('link', { name: /Check the screens/ }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('sessions');

        await page.getByRole('link', { name: /Check the screens/ }).click();
        await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
        const permission = randomUUID();
        expect((await emitAck(runner, 'approval:request', { id: permission, sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'npm test', description: 'Run the tests' }, toolUseId: 'toolu_a11y1', createdAt: Date.now() })).ok).toBe(true);
        await page.getByRole('dialog', { name: 'Run this command?' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('chat with an approval sheet');
        await page.getByRole('dialog', { name: 'Run this command?' }).getByRole('button', { name: 'Edit command…' }).click();
        await page.getByLabel('Command Claude will run').waitFor({ timeout: UI_TIMEOUT_MS });
        await check('approval sheet, editing the command');
        await page.getByRole('dialog', { name: 'Run this command?' }).getByRole('button', { name: 'Back' }).click();
        await page.getByRole('dialog', { name: 'Run this command?' }).getByRole('button', { name: 'Allow', exact: true }).click();

        const question = randomUUID();
        expect((await emitAck(runner, 'approval:request', { id: question, sessionId, kind: 'question', toolName: 'AskUserQuestion', toolInput: { questions: PIZZA_QUESTIONS }, toolUseId: 'toolu_a11y2', createdAt: Date.now() })).ok).toBe(true);
        await page.getByRole('dialog').filter({ hasText: PIZZA_QUESTIONS[0]!.question }).first().waitFor({ timeout: UI_TIMEOUT_MS });
        await check('question form');
        await page.getByRole('dialog').filter({ hasText: PIZZA_QUESTIONS[0]!.question }).first().getByRole('button', { name: 'Decline' }).click();
        await page.getByRole('dialog').filter({ hasText: PIZZA_QUESTIONS[0]!.question }).first().waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });

        const oneTap = randomUUID();
        const single = PIZZA_QUESTIONS.find((q) => !q.multiSelect)!;
        expect((await emitAck(runner, 'approval:request', { id: oneTap, sessionId, kind: 'question', toolName: 'AskUserQuestion', toolInput: { questions: [single] }, toolUseId: 'toolu_a11y3', createdAt: Date.now() })).ok).toBe(true);
        const oneTapSheet = page.getByRole('dialog').filter({ hasText: single.question }).first();
        await oneTapSheet.waitFor({ timeout: UI_TIMEOUT_MS });
        await check('one-tap question');
        await saveScreenshot(page, { name: `a11y-one-tap-question-${colorScheme}`, viewport });
        await oneTapSheet.getByRole('button', { name: 'Decline' }).click();
        await oneTapSheet.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });

        // The chat's card of an answered question: every option, the chosen ones marked, own words apart.
        const multi = PIZZA_QUESTIONS.find((q) => q.multiSelect)!;
        const asked = Date.now();
        expect(
          (
            await emitAck(runner, 'message:append', {
              sessionId,
              messages: [
                { id: randomUUID(), role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a11y_q', name: 'AskUserQuestion', input: { questions: [multi] } }], createdAt: asked },
                {
                  id: randomUUID(),
                  role: 'user',
                  content: [{ type: 'tool_result', toolUseId: 'toolu_a11y_q', content: 'answered', isError: false, structured: { answers: { [multi.question]: `${multi.options[1]!.label}, extra pickles` } } }],
                  createdAt: asked + 1,
                },
              ],
            })
          ).ok,
        ).toBe(true);
        const card = page.getByRole('log', { name: 'Chat' }).getByRole('button', { name: /Question/ }).last();
        await card.click();
        const answered = page.getByRole('region', { name: multi.question });
        await answered.waitFor({ timeout: UI_TIMEOUT_MS });
        expect(await answered.getByRole('listitem').allTextContents()).toEqual(multi.options.map((o, i) => (i === 1 ? `✓${o.label} (chosen)` : o.label)));
        await answered.getByText('extra pickles').waitFor({ timeout: UI_TIMEOUT_MS });
        await check('chat with an answered question');
        await saveScreenshot(page, { name: `a11y-answered-question-${colorScheme}`, viewport });

        const elicitation = randomUUID();
        expect((await emitAck(runner, 'approval:request', { id: elicitation, sessionId, kind: 'elicitation', toolName: 'deploy', toolInput: ELICITATION, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
        const form = page.getByRole('dialog', { name: 'deploy asks for input' });
        await form.waitFor({ timeout: UI_TIMEOUT_MS });
        await check('elicitation form');
        await form.getByRole('button', { name: 'Accept' }).click();
        await form.getByRole('alert').first().waitFor({ timeout: UI_TIMEOUT_MS });
        await check('elicitation form with problems');
        // The MCP server's call ended elsewhere: the form goes.
        expect((await emitAck(runner, 'approval:withdraw', { sessionId, requestId: elicitation, reason: 'a11y: next card' })).ok).toBe(true);
        await form.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });

        // A dialog claude drew on its screen (claude 2.1.330's "New MCP server found", as the runner reads it).
        const dialog = randomUUID();
        expect((await emitAck(runner, 'approval:request', { id: dialog, sessionId, kind: 'dialog', toolName: 'Dialog', toolInput: MCP_DIALOG, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
        await page.getByRole('dialog', { name: MCP_DIALOG.title }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('dialog card');
        await saveScreenshot(page, { name: `a11y-dialog-card-${colorScheme}`, viewport });
        // The dialog left claude's screen: the card goes, and the terminal gets the whole page.
        expect((await emitAck(runner, 'approval:withdraw', { sessionId, requestId: dialog, reason: 'a11y: next screen' })).ok).toBe(true);
        await page.getByRole('dialog', { name: MCP_DIALOG.title }).waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });

        // The composer with a photo waiting (preview, size, remove) and with the slash commands listed.
        expect(
          (
            await emitAck(runner, 'session:commands', {
              sessionId,
              commands: [
                { name: 'release', description: 'Cut a release and tag it', argumentHint: '<version>', source: 'project' },
                { name: 'model', description: 'Switch model', source: 'builtin', opensPicker: true },
                { name: 'compact', description: 'Free up context by summarizing the conversation so far', argumentHint: '<optional custom summarization instructions>', source: 'builtin' },
              ],
            })
          ).ok,
        ).toBe(true);
        const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
        await page.locator('form.composer input[type="file"]').setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: png });
        await page.locator('.attachment-chip[data-state="ready"]').waitFor({ timeout: UI_TIMEOUT_MS });
        await check('composer with an attachment');
        await saveScreenshot(page, { name: `a11y-composer-attachment-${colorScheme}`, viewport });
        const message = page.getByRole('textbox', { name: 'Message' });
        await message.fill('/');
        await page.getByRole('listbox', { name: 'Slash commands' }).getByRole('option').first().waitFor({ timeout: UI_TIMEOUT_MS });
        await message.press('ArrowDown');
        await check('composer with the slash commands listed');
        await saveScreenshot(page, { name: `a11y-composer-slash-${colorScheme}`, viewport });
        await message.press('Escape');
        await message.fill('');
        await page.getByRole('button', { name: 'Remove screenshot.png' }).click();

        // The terminal in each state its keys can be in: connecting, live and not in control, live and in
        // control, the hub link lost, the session ended. axe leaves disabled keys out, so their contrast
        // is measured here too: a dimmed key is still read by someone deciding whether to wait for it.
        const keys = page.getByRole('toolbar', { name: 'Terminal keys' });
        const checkKeys = async (state: string, disabled: boolean) => {
          await check(`terminal, ${state}`);
          await saveScreenshot(page, { name: `a11y-terminal-${state.replaceAll(' ', '-')}-${colorScheme}`, viewport });
          for (const key of await contrastOf(page, '.quick-key')) {
            if (key.disabled !== disabled) found.push({ screen: `terminal, ${state}`, id: 'quick-key-state', impact: 'critical', help: `${key.label} disabled=${key.disabled}`, nodes: [] });
            if (key.ratio < 4.5) found.push({ screen: `terminal, ${state}`, id: 'quick-key-contrast', impact: 'serious', help: `${key.label} ${key.ratio}:1`, nodes: [] });
          }
        };
        // Played as a PTY runner does: it reports its size at spawn and after each resize the hub asks
        // for, and answers a snapshot request with its screen.
        let pty = { cols: 100, rows: 30 };
        expect((await emitAck(runner, 'terminal:size', { sessionId, offset: 0, ...pty, desk: false })).ok).toBe(true);
        runner.on('terminal:resize', (resize: { cols: number; rows: number }) => {
          pty = { cols: resize.cols, rows: resize.rows };
          void emitAck(runner, 'terminal:size', { sessionId, offset: 0, ...pty, desk: false });
        });
        runner.on('terminal:snapshot-request', () => {
          void emitAck(runner, 'terminal:snapshot', { sessionId, offset: 0, ...pty, data: '\u276f ' });
        });
        await page.goto(`${world.hub.url}/sessions/${sessionId}/terminal`);
        await page.locator('.terminal-host').waitFor({ timeout: UI_TIMEOUT_MS });
        await check('terminal');
        await expect.poll(() => keys.getByRole('button', { name: 'Esc' }).getAttribute('aria-disabled'), { timeout: UI_TIMEOUT_MS }).toBe('false');
        await checkKeys('not in control', false);
        await page.getByRole('button', { name: 'Take control' }).click();
        await page.getByRole('status').filter({ hasText: 'Sized to this screen' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await checkKeys('in control', false);
        await page.context().setOffline(true);
        await expect.poll(() => keys.getByRole('button', { name: 'Esc' }).getAttribute('aria-disabled'), { timeout: UI_TIMEOUT_MS }).toBe('true');
        await checkKeys('hub link lost', true);
        await page.context().setOffline(false);
        await expect.poll(() => keys.getByRole('button', { name: 'Esc' }).getAttribute('aria-disabled'), { timeout: UI_TIMEOUT_MS }).toBe('false');

        // Changes and Files, answered as a runner answers workspace:query (syntax colour included:
        // axe measures every token's contrast on the code and on the added and removed rows).
        runner.on('workspace:query', (query: { kind: string; path?: string }, reply: (answer: unknown) => void) => reply(workspaceAnswer(query)));
        await page.goto(`${world.hub.url}/sessions/${sessionId}/changes`);
        await page.getByRole('group', { name: 'Diff of src/app.ts' }).locator('.hljs-keyword').first().waitFor({ timeout: UI_TIMEOUT_MS });
        await check('changes');
        await saveScreenshot(page, { name: `a11y-changes-${colorScheme}`, viewport });
        await page.getByRole('link', { name: 'Files', exact: true }).click();
        await page.getByRole('list', { name: 'Contents of tether' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('files');
        await page.getByRole('list', { name: 'Contents of tether' }).getByRole('link', { name: /^src/ }).click();
        await page.getByRole('list', { name: 'Contents of src' }).getByRole('link', { name: /^app\.ts/ }).click();
        await page.getByRole('group', { name: 'Contents of src/app.ts' }).locator('.hljs-comment').first().waitFor({ timeout: UI_TIMEOUT_MS });
        await check('file');
        await saveScreenshot(page, { name: `a11y-file-${colorScheme}`, viewport });
        await page.goto(`${world.hub.url}/sessions/${sessionId}/files?file=escape%2Fsecret`);
        await page.getByRole('alert').filter({ hasText: 'File unavailable' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('file refused');

        // End's confirmation, then the chat's end notice with Resume (enabled: its machine is online).
        await page.goto(`${world.hub.url}/sessions/${sessionId}`);
        await page.getByRole('button', { name: 'End session', exact: true }).click();
        await page.getByRole('alertdialog', { name: 'End this session?' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('end confirmation');
        await page.keyboard.press('Escape');
        expect((await emitAck(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0, reason: null })).ok).toBe(true);
        await page.getByRole('region', { name: 'Session ended' }).getByRole('button', { name: 'Resume', exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('ended session with Resume');

        // The ended session's terminal: its last screen, the keys dimmed.
        await page.goto(`${world.hub.url}/sessions/${sessionId}/terminal`);
        await page.getByRole('status').filter({ hasText: 'Session ended' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await checkKeys('session ended', true);

        await page.goto(`${world.hub.url}/new`);
        await page.getByRole('form', { name: 'New session' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('new session');

        const res = await fetch(`${world.hub.url}/api/sessions/${sessionId}/share`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({}),
        });
        if (res.ok) {
          const { url } = (await res.json()) as { url: string };
          await page.goto(url.startsWith('http') ? url : `${world.hub.url}${url}`);
          await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
          await check('share view');
        } else {
          found.push({ screen: 'share view', id: 'share-link', impact: 'critical', help: `could not create a share link: HTTP ${res.status}`, nodes: [] });
        }
        await page.close();

        for (const v of found) console.log(`[a11y ${viewport} ${colorScheme}] ${v.screen}: ${v.impact} ${v.id} (${v.help}) ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.summary ?? ''}`).join(' | ')}`);
        expect(found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      });
    }
  }

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`${viewport}, ${colorScheme}: the session list's row menu, archive notice and Archived section`, async () => {
        const token = await world.hub.createToken(`a11y-triage-${viewport}-${colorScheme}`);
        await world.runnerWithSession(token, { cwd: '/home/dev/src/tether', launchKind: 'pty', title: 'Check the screens', status: 'idle' });
        const ended = await world.runnerWithSession(token, { cwd: '/home/dev/src/lab', launchKind: 'pty', title: 'Old experiment', status: 'idle' });
        expect((await emitAck(ended.runner, 'session:end', { sessionId: ended.sessionId, status: 'ended', exitCode: 0 })).ok).toBe(true);
        const page = await world.browser.newPage({ viewport, colorScheme });
        await loginWithQrLink(page, { hubUrl: world.hub.url, token });
        const found: Array<{ screen: string } & Violation> = [];
        const check = async (screen: string) => {
          for (const v of await axeViolations(page)) found.push({ screen, ...v });
        };
        await page.getByRole('link', { name: /Old experiment/ }).waitFor({ timeout: UI_TIMEOUT_MS });

        await page.getByRole('button', { name: 'Actions for Check the screens' }).click();
        await page.getByRole('menu', { name: 'Actions for Check the screens' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('row menu of a live session (Archive unavailable)');
        await page.getByRole('menuitem', { name: 'Pin to top' }).click();
        await page.getByRole('status').filter({ hasText: 'Pinned' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('a pinned row and its notice');

        await page.getByRole('button', { name: 'Actions for Old experiment' }).click();
        await page.getByRole('menu', { name: 'Actions for Old experiment' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('row menu of an ended session');
        await page.getByRole('menuitem', { name: 'Archive' }).click();
        await page.getByRole('button', { name: 'Undo' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('archive notice with Undo');

        await page.getByRole('button', { name: /^Archived/ }).click();
        await page.getByRole('link', { name: /Old experiment/ }).waitFor({ timeout: UI_TIMEOUT_MS });
        await page.getByRole('button', { name: 'Actions for Old experiment' }).click();
        await page.getByRole('menuitem', { name: 'Unarchive' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await check('Archived section with a row menu open');
        await saveScreenshot(page, { name: `a11y-archived-menu-${colorScheme}`, viewport });

        // A Codex session: the list and header name the agent, its model is a fact (no picker), and
        // its permission sheet offers Allow, Deny and a reason only.
        const codex = await world.runnerWithSession(token, { cwd: '/home/dev/src/tether', launchKind: 'pty', agent: 'codex', model: 'gpt-fake', title: 'A Codex session', status: 'idle' });
        await page.getByRole('link', { name: /A Codex session/ }).click();
        await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
        expect((await emitAck(codex.runner, 'approval:request', { id: randomUUID(), sessionId: codex.sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'make test', description: 'Run the tests' }, toolUseId: 'call_a11y1', createdAt: Date.now() })).ok).toBe(true);
        const codexSheet = page.getByRole('dialog', { name: 'Run this command?' });
        await codexSheet.waitFor({ timeout: UI_TIMEOUT_MS });
        await expect(codexSheet.getByRole('button', { name: 'Edit command…' }).count()).resolves.toBe(0);
        await check('a Codex session with its approval sheet');
        await saveScreenshot(page, { name: `a11y-codex-${colorScheme}`, viewport });
        await page.close();

        for (const v of found) console.log(`[a11y ${viewport} ${colorScheme}] ${v.screen}: ${v.impact} ${v.id} (${v.help}) ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.summary ?? ''}`).join(' | ')}`);
        expect(found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      });
    }
  }
});
