// approvals.test.ts: answering claude from the browser, at a phone and a desktop. A real hub; a
// real /cli socket plays the runner that forwards claude's PreToolUse requests and receives answers.
//
//   runner ─approval:request─► hub ─approval:requested─► tab: sheet ─approval:answer─► hub
//   hub ─approval:answered─► runner (checked here)   hub ─approval:resolved─► every tab drops the sheet
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Page } from 'playwright-core';
import type { Answer, PendingRequest } from '@tether/shared';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { userQuestion } from '../fixtures/questions.ts';

type Answered = { sessionId: string; requestId: string; answer: Answer };

const DATABASE_QUESTION = userQuestion({ question: 'Which database should the hub use in production?', header: 'Database', multiSelect: false }, [
  ['SQLite', 'One file, no server; fine for one hub.'],
  ['PostgreSQL', 'Needed for several hub instances.'],
]);

describe('approvals and questions from the browser', () => {
  const world = useBrowserWorld();

  /** A namespace with one waiting session, a runner socket for it, and a page open on it. */
  async function openSession(options: { viewport: ViewportName; namespace: string; title: string }) {
    const token = await world.hub.createToken(options.namespace);
    const { runner, sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/tether', launchKind: 'pty', title: options.title, status: 'idle' });
    const page = await world.signedInPage(options.viewport, token);
    await page.getByRole('link', { name: new RegExp(options.title) }).click();
    await page.getByRole('heading', { name: options.title, level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
    return { token, runner, sessionId, page };
  }

  async function ask(
    runner: Socket,
    request: Omit<PendingRequest, 'id' | 'createdAt' | 'toolUseId'> & { createdAt?: number },
  ): Promise<string> {
    const id = randomUUID();
    const ack = await emitAck(runner, 'approval:request', { toolUseId: `toolu_${id.slice(0, 8)}`, createdAt: Date.now(), ...request, id });
    expect(ack.ok).toBe(true);
    await emitAck(runner, 'session:update', { sessionId: request.sessionId, patch: { status: 'waiting' } });
    return id;
  }

  function dialog(page: Page, name: string | RegExp) {
    return page.getByRole('dialog', { name });
  }

  async function gone(locator: ReturnType<Page['getByRole']>) {
    await locator.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  }

  it('haptics: a request arriving in the open tab vibrates, an accepted answer ticks; with reduced motion, nothing', async () => {
    const { runner, sessionId, page } = await openSession({ viewport: 'phone', namespace: 'haptics', title: 'Buzz the phone' });
    // Chromium here has no vibrator: the calls are recorded where the app makes them.
    await page.evaluate(() => {
      const calls: unknown[] = [];
      (window as unknown as { buzzes: unknown[] }).buzzes = calls;
      Object.defineProperty(navigator, 'vibrate', { configurable: true, value: (pattern: unknown) => (calls.push(pattern), true) });
    });
    const buzzes = () => page.evaluate(() => (window as unknown as { buzzes: unknown[] }).buzzes);
    // The harness's pages ask for reduced motion (steady screenshots); this one starts without.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const approve = async (command: string) => {
      await ask(runner, { sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command } });
      const sheet = dialog(page, 'Run this command?');
      await sheet.waitFor({ timeout: UI_TIMEOUT_MS });
      const answered = nextEvent<Answered>(runner, 'approval:answered');
      await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
      await answered;
      await gone(sheet);
    };
    await approve('make test');
    await expect.poll(buzzes, { timeout: UI_TIMEOUT_MS }).toEqual([[30, 60, 30], [15]]);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await approve('make lint');
    expect(await buzzes()).toEqual([[30, 60, 30], [15]]);
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`permission at ${viewport}: allow, deny with a reason, allow a command prefix for the session`, async () => {
      const { runner, sessionId, page } = await openSession({ viewport, namespace: `perm-${viewport}`, title: 'Ship the release' });

      // 1. Allow a Bash command.
      const first = await ask(runner, {
        sessionId,
        kind: 'permission',
        toolName: 'Bash',
        toolInput: { command: 'git push origin main --follow-tags', description: 'Push the release commit and its tag' },
      });
      const bash = dialog(page, 'Run this command?');
      await bash.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(bash.getByLabel('Command').textContent()).resolves.toContain('git push origin main --follow-tags');
      await expect(page.getByRole('textbox', { name: 'Message' }).isVisible()).resolves.toBe(false);
      await saveScreenshot(page, { name: 'approval-permission', viewport });
      const allowed = nextEvent<Answered>(runner, 'approval:answered');
      await bash.getByRole('button', { name: 'Allow', exact: true }).click();
      expect(await allowed).toEqual({ sessionId, requestId: first, answer: { decision: 'allow' } });
      await gone(bash);
      await page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: UI_TIMEOUT_MS });

      // 2. Deny an edit, with a reason claude will read.
      const second = await ask(runner, {
        sessionId,
        kind: 'permission',
        toolName: 'Edit',
        toolInput: {
          file_path: '/home/dev/src/tether/package.json',
          old_string: '  "version": "0.1.0",',
          new_string: '  "version": "0.2.0",',
        },
      });
      const edit = dialog(page, 'Allow this edit?');
      await edit.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(edit.getByLabel('Changes').textContent()).resolves.toContain('"version": "0.2.0"');
      await saveScreenshot(page, { name: 'approval-edit', viewport });
      await edit.getByRole('button', { name: 'Deny with reason…' }).click();
      await edit.getByLabel('Tell Claude why (optional)').fill('Bump the version in the release script, not by hand.');
      await saveScreenshot(page, { name: 'approval-deny-reason', viewport });
      const denied = nextEvent<Answered>(runner, 'approval:answered');
      await edit.getByRole('button', { name: 'Deny', exact: true }).click();
      expect(await denied).toEqual({
        sessionId,
        requestId: second,
        answer: { decision: 'deny', reason: 'Bump the version in the release script, not by hand.' },
      });
      await gone(edit);

      // 3. Allow `git status …` for the rest of the session.
      const third = await ask(runner, { sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'git status --short' } });
      const status = dialog(page, 'Run this command?');
      await status.waitFor({ timeout: UI_TIMEOUT_MS });
      await status.getByRole('button', { name: 'Allow for session…' }).click();
      await status.getByRole('radio', { name: 'Commands starting with' }).check();
      await expect(status.getByRole('textbox', { name: 'Command prefix' }).inputValue()).resolves.toBe('git status');
      await saveScreenshot(page, { name: 'approval-session-rule', viewport });
      const ruled = nextEvent<Answered>(runner, 'approval:answered');
      // The legend says "for the rest of this session"; the confirm button is plain "Allow".
      await status.getByRole('button', { name: 'Allow', exact: true }).click();
      expect(await ruled).toEqual({
        sessionId,
        requestId: third,
        answer: { decision: 'allow', sessionRule: { kind: 'bash-prefix', prefix: 'git status:*' } },
      });
      await gone(status);
      await page.close();
    });

    it(`question and plan at ${viewport}: two questions answered, a plan sent back with feedback`, async () => {
      const { runner, sessionId, page } = await openSession({ viewport, namespace: `ask-${viewport}`, title: 'Plan the migration' });

      const question = await ask(runner, {
        sessionId,
        kind: 'question',
        toolName: 'AskUserQuestion',
        toolInput: {
          questions: [
            DATABASE_QUESTION,
            userQuestion({ question: 'Which checks should run before each deploy?', header: 'Checks', multiSelect: true }, [
              ['Typecheck', ''],
              ['Unit tests', ''],
              ['Browser tests', 'Slower, catches layout breaks.'],
            ]),
          ],
        },
      });
      const form = dialog(page, 'Claude has a question');
      await form.waitFor({ timeout: UI_TIMEOUT_MS });
      const submit = form.getByRole('button', { name: 'Submit' });
      await expect(submit.isDisabled()).resolves.toBe(true);
      await form.getByRole('radio', { name: /PostgreSQL/ }).check();
      await form.getByRole('checkbox', { name: /Typecheck/ }).check();
      await form.getByRole('checkbox', { name: /Browser tests/ }).check();
      await form.getByRole('textbox', { name: 'Other answer: Which checks should run before each deploy?' }).fill('Smoke test');
      await saveScreenshot(page, { name: 'approval-question', viewport });
      const answered = nextEvent<Answered>(runner, 'approval:answered');
      await submit.click();
      expect(await answered).toEqual({
        sessionId,
        requestId: question,
        answer: {
          decision: 'allow',
          answers: {
            'Which database should the hub use in production?': 'PostgreSQL',
            'Which checks should run before each deploy?': 'Typecheck, Browser tests, Smoke test',
          },
        },
      });
      await gone(form);

      // One question with one choice: a tap on an option is the answer; "Other" sends typed text.
      const single = DATABASE_QUESTION;
      const oneTap = await ask(runner, { sessionId, kind: 'question', toolName: 'AskUserQuestion', toolInput: { questions: [single] } });
      const oneTapForm = dialog(page, 'Claude has a question');
      await oneTapForm.getByRole('button', { name: /^PostgreSQL/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await oneTapForm.getByRole('button', { name: 'Submit' }).count()).toBe(0);
      await saveScreenshot(page, { name: 'approval-question-one-tap', viewport });
      const tapped = nextEvent<Answered>(runner, 'approval:answered');
      await oneTapForm.getByRole('button', { name: /^PostgreSQL/ }).click();
      expect(await tapped).toEqual({ sessionId, requestId: oneTap, answer: { decision: 'allow', answers: { [single.question]: 'PostgreSQL' } } });
      await gone(oneTapForm);
      const typed = await ask(runner, { sessionId, kind: 'question', toolName: 'AskUserQuestion', toolInput: { questions: [single] } });
      const typedForm = dialog(page, 'Claude has a question');
      const send = typedForm.getByRole('button', { name: 'Send', exact: true });
      await send.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(send.isDisabled()).resolves.toBe(true);
      await typedForm.getByRole('textbox', { name: `Other answer: ${single.question}` }).fill('Both, behind a flag');
      const other = nextEvent<Answered>(runner, 'approval:answered');
      await send.click();
      expect(await other).toEqual({ sessionId, requestId: typed, answer: { decision: 'allow', answers: { [single.question]: 'Both, behind a flag' } } });
      await gone(typedForm);

      const plan = await ask(runner, {
        sessionId,
        kind: 'plan',
        toolName: 'ExitPlanMode',
        toolInput: {
          plan: [
            '## Move the hub to PostgreSQL',
            '',
            '1. Add a `PostgresStore` that passes `store.contract.ts`.',
            '2. Switch the socket.io adapter to the Postgres adapter.',
            '3. Run both stores in CI.',
          ].join('\n'),
        },
      });
      const planSheet = dialog(page, 'Approve the plan?');
      await planSheet.waitFor({ timeout: UI_TIMEOUT_MS });
      await planSheet.getByRole('heading', { name: 'Move the hub to PostgreSQL' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'approval-plan', viewport });
      await planSheet.getByRole('button', { name: 'Keep planning' }).click();
      await planSheet.getByLabel('What should Claude change?').fill('Keep SQLite as the default.');
      const feedback = nextEvent<Answered>(runner, 'approval:answered');
      await planSheet.getByRole('button', { name: 'Send feedback' }).click();
      expect(await feedback).toEqual({ sessionId, requestId: plan, answer: { decision: 'deny', reason: 'Keep SQLite as the default.' } });
      await gone(planSheet);
      await page.close();
    });
  }

  for (const viewport of ['phone', 'desktop'] as const) {
  it(`file changes at ${viewport}: each file and its diff, not JSON; no serious axe findings in either theme; allowed`, async () => {
    const { runner, sessionId, page } = await openSession({ viewport, namespace: `file-changes-${viewport}`, title: 'Patch the greeting' });
    const id = await ask(runner, {
      sessionId,
      kind: 'permission',
      toolName: 'FileChanges',
      toolInput: {
        description: 'Write outside the workspace',
        changes: [
          { path: 'src/greet.ts', kind: 'update', movePath: null, diff: '@@ -1,3 +1,3 @@\n export function greet(name: string) {\n-  return `Hi ${name}`;\n+  return `Hello, ${name}!`;\n }' },
          { path: 'docs/hello.md', kind: 'add', movePath: null, diff: '+# Hello\n+\n+Says hello.' },
          { path: 'old/notes.txt', kind: 'delete', movePath: null, diff: '-stale' },
        ],
      },
    });
    const sheet = dialog(page, 'Allow these file changes?');
    await sheet.waitFor({ timeout: UI_TIMEOUT_MS });
    await sheet.getByText('3 files: 1 new, 1 edited, 1 deleted').waitFor({ timeout: UI_TIMEOUT_MS });
    const edit = sheet.getByRole('region', { name: 'Edit src/greet.ts' });
    await expect(edit.getByLabel('Changes to src/greet.ts').textContent()).resolves.toContain('return `Hello, ${name}!`;');
    await expect(edit.locator('.diff-del').textContent()).resolves.toContain('return `Hi ${name}`;');
    await expect(sheet.getByRole('region', { name: 'Add docs/hello.md' }).locator('.diff-add').count()).resolves.toBe(3);
    await expect(sheet.getByRole('region', { name: 'Delete old/notes.txt' }).locator('.diff-del').textContent()).resolves.toContain('stale');
    await expect(sheet.textContent()).resolves.not.toContain('"changes"');
    expect(await screenshotsAndSeriousInBothThemes(page, { name: 'approval-file-changes', viewport })).toEqual([]);
    const allowed = nextEvent<Answered>(runner, 'approval:answered');
    await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
    expect(await allowed).toEqual({ sessionId, requestId: id, answer: { decision: 'allow' } });
    await gone(sheet);
    await page.close();
  });
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`a sub-agent asks at ${viewport}: the sheet says which one; no serious axe findings in either theme; denied`, async () => {
      const { runner, sessionId, page } = await openSession({ viewport, namespace: `asked-by-${viewport}`, title: 'Review the parser' });
      const id = await ask(runner, {
        sessionId,
        kind: 'permission',
        toolName: 'Bash',
        toolInput: { command: 'rm -rf build && make parser', description: 'Rebuild the parser from scratch' },
        askedBy: { nickname: 'Ada', role: 'explorer', thread: '019a2b3c' },
      });
      const bash = dialog(page, 'Run this command?');
      await bash.waitFor({ timeout: UI_TIMEOUT_MS });
      await bash.getByText('Asked by sub-agent Ada (explorer)').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(bash.getByLabel('Command').textContent()).resolves.toContain('rm -rf build && make parser');
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'approval-asked-by', viewport })).toEqual([]);
      const denied = nextEvent<Answered>(runner, 'approval:answered');
      await bash.getByRole('button', { name: 'Deny', exact: true }).click();
      expect(await denied).toMatchObject({ sessionId, requestId: id, answer: { decision: 'deny' } });
      await gone(bash);
      await page.close();
    });
  }

  it('two tabs: an answer in one clears the other, which says it was answered elsewhere', async () => {
    const { token, runner, sessionId, page: phone } = await openSession({
      viewport: 'phone',
      namespace: 'two-tabs',
      title: 'Two devices',
    });
    const desk = await world.signedInPage('desktop', token);
    await desk.getByRole('link', { name: /Two devices/ }).click();
    await desk.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });

    await ask(runner, { sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'bun run build' } });
    await dialog(phone, 'Run this command?').waitFor({ timeout: UI_TIMEOUT_MS });
    await dialog(desk, 'Run this command?').waitFor({ timeout: UI_TIMEOUT_MS });

    const answered = nextEvent<Answered>(runner, 'approval:answered');
    await dialog(desk, 'Run this command?').getByRole('button', { name: 'Allow', exact: true }).click();
    expect((await answered).answer.decision).toBe('allow');
    await gone(dialog(phone, 'Run this command?'));
    await phone.getByRole('status').filter({ hasText: 'Answered on another device.' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(phone, { name: 'approval-answered-elsewhere', viewport: 'phone' });
    await phone.close();
    await desk.close();
  });
});
