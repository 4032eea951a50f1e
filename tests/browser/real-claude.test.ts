// real-claude.test.ts: the web app's journeys against the real thing: a hub serving web/dist, a real
// `tether claude` runner (desk in a PTY, as tests/harness/runner.ts runs it) driving the pinned
// claude, whose model is the scripted fake Messages API, and Debian's Chromium at 390×844 (touch) and
// 1280×800. Nothing plays the runner here: every chat line, approval and terminal byte comes from claude.
//
//   tab ─prompt:send / approval:answer / terminal:input─► hub ─► tether claude ─PTY─► claude ─► fake API
//   tab ◄─message:added / approval:requested / terminal:output─ hub ◄─ transcript, hooks, screen ─┘
//
// Each journey gets its own namespace (token), fake API, claude sandbox and runner, so its session
// list holds only its own session and nothing is shared with another test file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildQuestionAnswers } from '@tether/shared';
import { PIZZA_QUESTIONS } from '../fixtures/questions.ts';
import {
  hasToolResult,
  lastToolResults,
  startFakeAnthropic,
  streamedText,
  text,
  toolUse,
  userSays,
  when,
  type FakeAnthropic,
  type ScriptTurn,
} from '../fixtures/fake-anthropic/index.ts';
import { saveScreenshot, sendFromComposer, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createClaudeSandbox, type ClaudeSandbox } from '../harness/claude.ts';
import { startRunner, type RunnerHandle } from '../harness/runner.ts';
import { DESK_READY, MANUAL_MODE } from '../harness/world.ts';

/** A real claude turn (runner → PTY → claude → fake API → transcript → hub → tab) on a loaded box. */
const CLAUDE_UI_TIMEOUT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 60_000;

type Claude = { token: string; fake: FakeAnthropic; sandbox: ClaudeSandbox; runner: RunnerHandle };

describe('real claude from the browser', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  /** A namespace of its own: its token, a fake API with `script`, a sandbox (nothing started yet). */
  async function stage(name: string, script: ScriptTurn[]) {
    const token = await world.hub.createToken(`real-${name}`);
    const fake = await startFakeAnthropic({ script });
    defer(() => fake.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    return { token, fake, sandbox };
  }

  /** `tether claude` on the world's hub with the namespace's token; resolves once claude is ready at the desk. */
  async function startClaude(staged: Omit<Claude, 'runner'>): Promise<Claude> {
    const runner = startRunner({ hub: { url: world.hub.url, token: staged.token }, sandbox: staged.sandbox, args: MANUAL_MODE });
    defer(() => runner.stop());
    await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    return { ...staged, runner };
  }

  async function page(viewport: ViewportName, token: string): Promise<Page> {
    const signedIn = await world.signedInPage(viewport, token);
    defer(() => signedIn.close());
    return signedIn;
  }

  /** From the list (one session in this namespace) into its chat. */
  async function openTheSession(tab: Page, sessionId: string) {
    await tab.locator(`a[data-session-id="${sessionId}"]`).click();
    await tab.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
  }

  /** claude started on `staged`, a phone in its chat, and `prompt` sent from that phone. */
  async function claudeAskedFromPhone(staged: Omit<Claude, 'runner'>, prompt: string) {
    const claude = await startClaude(staged);
    const phone = await page('phone', staged.token);
    await openTheSession(phone, claude.runner.sessionId);
    await sendFromComposer(phone, 'phone', prompt);
    return { ...claude, phone };
  }

  /** Every tool_result claude sent to the model (each main-loop request's last user turn). */
  function toolResults(fake: FakeAnthropic) {
    return fake.mainRequests().flatMap((request) => lastToolResults(request));
  }

  const chat = (tab: Page) => tab.getByRole('log', { name: 'Chat' });

  it('phone: QR login, the session appears live, a message from the composer gets claude’s reply', async () => {
    const staged = await stage('chat', [when(userSays(/weather on the moon/), text('Sunny, with a chance of regolith.'))]);
    const phone = await page('phone', staged.token);
    await phone.getByRole('heading', { name: 'No sessions yet' }).waitFor({ timeout: UI_TIMEOUT_MS });

    const { runner } = await startClaude(staged);
    // It appears live, and turns idle once claude is ready.
    await phone.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(phone, { name: 'real-list', viewport: 'phone' });

    await openTheSession(phone, runner.sessionId);
    await sendFromComposer(phone, 'phone', 'What is the weather on the moon?');
    await chat(phone).getByText('Sunny, with a chance of regolith.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await chat(phone).getByText('What is the weather on the moon?').waitFor({ timeout: UI_TIMEOUT_MS });
    // The prompt really went through claude: the model was asked with it.
    expect(staged.fake.mainRequests().some((request) => JSON.stringify(request.messages).includes('What is the weather on the moon?'))).toBe(true);
    await saveScreenshot(phone, { name: 'real-chat', viewport: 'phone' });
  }, JOURNEY_TIMEOUT_MS);

  it('phone: a Bash call is approved from the sheet → the command ran and claude got its result', async () => {
    const staged = await stage('allow', [
      when(userSays(/make the file/), toolUse('Bash', { command: 'touch made-by-phone.txt', description: 'Create made-by-phone.txt' }, { id: 'toolu_phone_allow' })),
      when(hasToolResult({ id: 'toolu_phone_allow', isError: false }), text('The file is there now.')),
    ]);
    const { runner, sandbox, fake, phone } = await claudeAskedFromPhone(staged, 'Please make the file');

    const sheet = phone.getByRole('dialog', { name: 'Run this command?' });
    await sheet.waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await expect(sheet.getByLabel('Command').textContent()).resolves.toContain('touch made-by-phone.txt');
    await saveScreenshot(phone, { name: 'real-approval', viewport: 'phone' });
    expect(existsSync(join(sandbox.cwd, 'made-by-phone.txt'))).toBe(false);
    await sheet.getByRole('button', { name: 'Allow', exact: true }).click();

    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await chat(phone).getByText('The file is there now.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    expect(existsSync(join(sandbox.cwd, 'made-by-phone.txt'))).toBe(true);
    expect(toolResults(fake).find((result) => result.toolUseId === 'toolu_phone_allow')).toMatchObject({ isError: false });
    await saveScreenshot(phone, { name: 'real-approved', viewport: 'phone' });
  }, JOURNEY_TIMEOUT_MS);

  /** Claude asks for one tool call; the phone edits its input in the sheet and allows the edit;
   *  claude's reply to the tool result shows in the chat. */
  async function editBeforeAllow(o: {
    name: string;
    prompt: string;
    tool: 'Bash' | 'Write';
    input: Record<string, string>;
    toolUseId: string;
    reply: string;
    sheet: string;
    editButton: string;
    box: string;
    asked: string;
    edited: string;
  }) {
    const staged = await stage(o.name, [
      when(userSays(new RegExp(o.prompt.replace(/^Please /, ''))), toolUse(o.tool, o.input, { id: o.toolUseId })),
      when(hasToolResult({ id: o.toolUseId, isError: false }), text(o.reply)),
    ]);
    const { runner, sandbox, fake, phone } = await claudeAskedFromPhone(staged, o.prompt);

    const sheet = phone.getByRole('dialog', { name: o.sheet });
    await sheet.waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await sheet.getByRole('button', { name: o.editButton }).click();
    const box = sheet.getByLabel(o.box);
    await expect(box.inputValue()).resolves.toBe(o.asked);
    await box.fill(o.edited);
    await saveScreenshot(phone, { name: `real-approval-${o.name}`, viewport: 'phone' });
    await sheet.getByRole('button', { name: 'Allow edited' }).click();

    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await chat(phone).getByText(o.reply).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    expect(toolResults(fake).find((result) => result.toolUseId === o.toolUseId)).toMatchObject({ isError: false });
    return { phone, sandbox };
  }

  it('phone: a Bash command edited before Allow → claude ran the edited command, not the one it asked', async () => {
    const { phone, sandbox } = await editBeforeAllow({
      name: 'edit',
      prompt: 'Please make the file',
      tool: 'Bash',
      input: { command: 'touch asked-by-claude.txt', description: 'Create a file' },
      toolUseId: 'toolu_phone_edit',
      reply: 'Done as you edited it.',
      sheet: 'Run this command?',
      editButton: 'Edit command…',
      box: 'Command Claude will run',
      asked: 'touch asked-by-claude.txt',
      edited: 'touch edited-on-phone.txt',
    });
    expect(existsSync(join(sandbox.cwd, 'edited-on-phone.txt'))).toBe(true);
    expect(existsSync(join(sandbox.cwd, 'asked-by-claude.txt'))).toBe(false);
    // The approval history says it was allowed edited.
    await phone.getByRole('button', { name: 'Approval history' }).click();
    await phone.getByRole('dialog', { name: 'Approval history' }).getByText('Allowed, edited').waitFor({ timeout: UI_TIMEOUT_MS });
  }, JOURNEY_TIMEOUT_MS);

  it('phone: a Write\'s content edited before Allow → claude wrote what was allowed', async () => {
    const { sandbox } = await editBeforeAllow({
      name: 'edit-write',
      prompt: 'Please write the notes',
      tool: 'Write',
      input: { file_path: 'notes.md', content: '# Notes\nDrop the users table.\n' },
      toolUseId: 'toolu_phone_write',
      reply: 'Wrote it as you edited it.',
      sheet: 'Write this file?',
      editButton: 'Edit content…',
      box: 'What Claude will write',
      asked: '# Notes\nDrop the users table.\n',
      edited: '# Notes\nKeep the users table; add an index.\n',
    });
    expect(readFileSync(join(sandbox.cwd, 'notes.md'), 'utf8')).toBe('# Notes\nKeep the users table; add an index.\n');
  }, JOURNEY_TIMEOUT_MS);

  it('phone: a Bash call is denied with a reason → claude’s next request carries the reason', async () => {
    const reason = 'Use the Makefile target instead.';
    const staged = await stage('deny', [
      when(userSays(/clean up/), toolUse('Bash', { command: 'rm -rf build-output', description: 'Remove the build output' }, { id: 'toolu_phone_deny' })),
      when(hasToolResult({ id: 'toolu_phone_deny', isError: true }), text('Understood, I will use the Makefile.')),
    ]);
    const { runner, fake, phone } = await claudeAskedFromPhone(staged, 'Please clean up');

    const sheet = phone.getByRole('dialog', { name: 'Run this command?' });
    await sheet.waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await sheet.getByRole('button', { name: 'Deny with reason…' }).click();
    await sheet.getByLabel('Tell Claude why (optional)').fill(reason);
    await saveScreenshot(phone, { name: 'real-deny-reason', viewport: 'phone' });
    await sheet.getByRole('button', { name: 'Deny', exact: true }).click();

    await chat(phone).getByText('Understood, I will use the Makefile.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    expect(toolResults(fake).find((result) => result.toolUseId === 'toolu_phone_deny')).toMatchObject({ isError: true, text: expect.stringContaining(reason) });
  }, JOURNEY_TIMEOUT_MS);

  it('phone: a two-question AskUserQuestion (one multi-select) → claude gets exactly those answers', async () => {
    const questions = PIZZA_QUESTIONS;
    const staged = await stage('question', [
      when(userSays(/pizza/), toolUse('AskUserQuestion', { questions }, { id: 'toolu_phone_q' })),
      when(hasToolResult({ id: 'toolu_phone_q' }), text('Pizza ordered.')),
    ]);
    const { runner, fake, phone } = await claudeAskedFromPhone(staged, 'Order a pizza');

    const form = phone.getByRole('dialog', { name: 'Claude has a question' });
    await form.waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await form.getByRole('checkbox', { name: /Cheese/ }).check();
    await form.getByRole('checkbox', { name: /Olives/ }).check();
    await form.getByRole('radio', { name: /Crispy/ }).check();
    await saveScreenshot(phone, { name: 'real-question', viewport: 'phone' });
    await form.getByRole('button', { name: 'Submit' }).click();

    await chat(phone).getByText('Pizza ordered.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    const expected = buildQuestionAnswers({ questions, picks: [{ labels: ['Cheese', 'Olives'] }, { labels: ['Crispy'] }] });
    expect(expected).toEqual({ 'Which toppings do you want?': 'Cheese, Olives', 'How should it be baked?': 'Crispy' });
    const result = toolResults(fake).find((r) => r.toolUseId === 'toolu_phone_q');
    expect(result?.isError).toBe(false);
    // Exactly these answers: each question once, with only the picked labels.
    const pairs = [...(result?.text ?? '').matchAll(/"([^"]+)"="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(pairs)).toEqual(expected);
    expect(pairs).toHaveLength(2);
    await saveScreenshot(phone, { name: 'real-question-answered', viewport: 'phone' });
  }, JOURNEY_TIMEOUT_MS);

  it('phone: Esc from the terminal’s quick keys interrupts a long streamed reply', async () => {
    // 30 paragraphs, 1 s apart (claude draws whole lines): the reply would take half a minute; Esc
    // lands in the first few seconds.
    const chunks = Array.from({ length: 30 }, (_, i) => `Paragraph chunk-${i + 1}.\n\n`);
    const staged = await stage('esc', [when(userSays(/long story/), streamedText(chunks, { gapMs: 1000 }))]);
    const { runner, fake, phone } = await claudeAskedFromPhone(staged, 'Tell me a long story');

    await phone.locator('.session-header .pill[data-status="thinking"]').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await phone.getByRole('link', { name: 'Terminal', exact: true }).click();
    const screen = phone.locator('.xterm-rows');
    // claude is streaming the reply on its own screen.
    await screen.getByText(/chunk-2/).first().waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await saveScreenshot(phone, { name: 'real-terminal-streaming', viewport: 'phone' });
    await phone.getByRole('toolbar', { name: 'Terminal keys' }).getByRole('button', { name: 'Esc' }).click();

    // The model request was cut off, the session goes idle, and the chat says so.
    const streamed = await fake.waitForRequest((request) => request.kind === 'main' && request.turnIndex === 0, { timeoutMs: UI_TIMEOUT_MS });
    await expect.poll(() => streamed.outcome, { timeout: UI_TIMEOUT_MS }).toBe('aborted');
    await runner.waitForScreen(/Interrupted/, { timeoutMs: UI_TIMEOUT_MS });
    await saveScreenshot(phone, { name: 'real-terminal-interrupted', viewport: 'phone' });
    await phone.getByRole('link', { name: 'Chat', exact: true }).click();
    await chat(phone).getByRole('note').filter({ hasText: 'Interrupted' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(chat(phone).getByText(/chunk-30/).count()).resolves.toBe(0);
    // The header's status pill says idle again (it said thinking while the reply streamed).
    await phone.locator('.session-header .pill[data-status="idle"]').waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(phone, { name: 'real-interrupted', viewport: 'phone' });
  }, JOURNEY_TIMEOUT_MS);

  it('desktop: two tabs show the same Bash approval; Allow in one clears the other', async () => {
    const staged = await stage('two-tabs', [
      when(userSays(/build it/), toolUse('Bash', { command: 'touch built-on-desktop.txt', description: 'Build' }, { id: 'toolu_two_tabs' })),
      when(hasToolResult({ id: 'toolu_two_tabs', isError: false }), text('Built.')),
    ]);
    const { runner, sandbox } = await startClaude(staged);
    const first = await page('desktop', staged.token);
    const second = await page('desktop', staged.token);
    await openTheSession(first, runner.sessionId);
    await openTheSession(second, runner.sessionId);
    await sendFromComposer(first, 'desktop', 'Please build it');

    const sheetIn = (tab: Page) => tab.getByRole('dialog', { name: 'Run this command?' });
    await sheetIn(first).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await sheetIn(second).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(second, { name: 'real-two-tabs-approval', viewport: 'desktop' });
    await sheetIn(second).getByRole('button', { name: 'Allow', exact: true }).click();

    await sheetIn(first).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await first.getByRole('status').filter({ hasText: 'Answered on another device.' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(first, { name: 'real-two-tabs-answered-elsewhere', viewport: 'desktop' });
    await chat(first).getByText('Built.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    expect(existsSync(join(sandbox.cwd, 'built-on-desktop.txt'))).toBe(true);
  }, JOURNEY_TIMEOUT_MS);
});
