// dialogs.test.ts: every dialog the real claude draws that no hook reports reaches a phone at 390×844
// as a `dialog` card and is answered there: folder trust, "New MCP server found" (a .mcp.json in the
// project), "Detected a custom API key" (the key not approved in .claude.json), the bypass-permissions
// warning (--dangerously-skip-permissions, not accepted before) and "Switch model?" (/model once the
// fake API reported a warm prompt cache). And the race: the desk answers "Switch model?" first, and the
// phone's card clears with "Answered at the desk". The header's model chip follows what claude says
// /model did: switched, or kept after "No, go back" (then its spinner ends and its text is the kept
// model again: the runner's session:command-finished says the request is over).
//
//   real `tether claude` (desk in a PTY) ─PTY─► claude ─► fake API
//   runner screen model ─dialog request─► hub ─► Chromium (phone) ─tap─► runner presses that option's key
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeAnthropic, text, type FakeAnthropic } from '../fixtures/fake-anthropic/index.ts';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createClaudeSandbox, FAKE_API_KEY, type ClaudeSandbox } from '../harness/claude.ts';
import { startRunner, type RunnerHandle } from '../harness/runner.ts';
import { DESK_READY, MANUAL_MODE } from '../harness/world.ts';

/** A real claude start or turn on a loaded box. */
const CLAUDE_UI_TIMEOUT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 90_000;

describe('claude\'s own dialogs answered from the phone', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  type Staged = { token: string; fake: FakeAnthropic; sandbox: ClaudeSandbox };

  /** A namespace of its own, a fake API whose replies say the prompt cache is warm, a sandbox. */
  async function stage(name: string): Promise<Staged> {
    const token = await world.hub.createToken(`dialog-${name}`);
    const fake = await startFakeAnthropic({ fallback: { ...text('ok'), cacheReadTokens: 50_000 } });
    defer(() => fake.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    return { token, fake, sandbox };
  }

  function editClaudeJson(sandbox: ClaudeSandbox, change: (config: Record<string, unknown>) => void) {
    const path = join(sandbox.configDir, '.claude.json');
    const config = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    change(config);
    writeFileSync(path, JSON.stringify(config, null, 2));
  }

  function start(staged: Staged, options: { args?: string[]; env?: Record<string, string> } = {}): RunnerHandle {
    const runner = startRunner({ hub: { url: world.hub.url, token: staged.token }, sandbox: staged.sandbox, args: [...MANUAL_MODE, ...(options.args ?? [])], ...(options.env ? { env: options.env } : {}) });
    defer(() => runner.stop());
    return runner;
  }

  async function phone(token: string): Promise<Page> {
    const page = await world.signedInPage('phone', token);
    defer(() => page.close());
    return page;
  }

  /** The session is listed as waiting; open it: the dialog card is the sheet, named by claude's title. */
  async function openWaiting(page: Page, sessionId: string, title: RegExp) {
    await page.locator(`a[data-session-id="${sessionId}"][data-status="waiting"]`).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await page.locator(`a[data-session-id="${sessionId}"]`).click();
    const sheet = page.getByRole('dialog', { name: title });
    await sheet.waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await sheet.getByRole('link', { name: 'Open terminal' }).waitFor({ timeout: UI_TIMEOUT_MS });
    return sheet;
  }

  /** Typed at the desk as a person would: the text, its echo, then Enter (one write would be a paste). */
  async function typeAtDesk(runner: RunnerHandle, line: string) {
    runner.write(line);
    await runner.waitForScreen(line, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    runner.write('\r');
  }

  /** claude draws its input as ready while its Stop hooks still run, and 2.1.331 queues a command
   *  typed then and never writes it down (the chip then learns the model only from the next turn:
   *  runner-cli's e2e). These journeys are /model at an idle claude: its turn over in its own record. */
  async function turnOver(sandbox: ClaudeSandbox) {
    await expect
      .poll(() => sandbox.transcripts().some((path) => readFileSync(path, 'utf8').includes('"subtype":"stop_hook_summary"')), { timeout: CLAUDE_UI_TIMEOUT_MS })
      .toBe(true);
  }

  /** A first turn, so claude's cache is warm, then /model with another model: claude asks first. */
  async function switchModelDialog(runner: RunnerHandle, sandbox: ClaudeSandbox) {
    await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await typeAtDesk(runner, 'hello');
    await runner.waitForScreen(/● ok/, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await turnOver(sandbox);
    await typeAtDesk(runner, '/model sonnet');
    await runner.waitForScreen(/Switch model\?/, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
  }

  it('phone: folder trust (unnumbered in 2.1.330, numbered in 2.1.197) → "Yes, I trust this folder" → claude is ready and trusts it', async () => {
    const staged = await stage('trust');
    editClaudeJson(staged.sandbox, (config) => (config.projects = {}));
    const runner = start(staged);
    const page = await phone(staged.token);
    const sheet = await openWaiting(page, runner.sessionId, /Accessing workspace/);
    await saveScreenshot(page, { name: 'dialog-trust', viewport: 'phone' });
    await sheet.getByRole('button', { name: 'Yes, I trust this folder' }).click();
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await page.locator('.session-header .pill[data-status="idle"]').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    const projects = (JSON.parse(readFileSync(join(staged.sandbox.configDir, '.claude.json'), 'utf8')) as { projects: Record<string, { hasTrustDialogAccepted?: boolean }> }).projects;
    expect(projects[staged.sandbox.cwd]?.hasTrustDialogAccepted).toBe(true);
  }, JOURNEY_TIMEOUT_MS);

  it('phone: "New MCP server found" from a .mcp.json → "Use this MCP server" → ready', async () => {
    const staged = await stage('mcp');
    writeFileSync(join(staged.sandbox.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { 'phone-probe': { command: 'true', args: [] } } }));
    const runner = start(staged);
    const page = await phone(staged.token);
    const sheet = await openWaiting(page, runner.sessionId, /New MCP server found/);
    await expect(sheet.textContent()).resolves.toContain('phone-probe');
    await saveScreenshot(page, { name: 'dialog-mcp', viewport: 'phone' });
    await sheet.getByRole('button', { name: 'Use this MCP server', exact: true }).click();
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await page.locator('.session-header .pill[data-status="idle"]').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
  }, JOURNEY_TIMEOUT_MS);

  it('phone: "Detected a custom API key" → "Yes" → ready, and claude recorded the key as approved', async () => {
    const staged = await stage('apikey');
    editClaudeJson(staged.sandbox, (config) => delete config.customApiKeyResponses);
    const runner = start(staged);
    const page = await phone(staged.token);
    const sheet = await openWaiting(page, runner.sessionId, /Detected a custom API key/);
    await saveScreenshot(page, { name: 'dialog-apikey', viewport: 'phone' });
    await sheet.getByRole('button', { name: 'Yes', exact: true }).click();
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    const approved = (JSON.parse(readFileSync(join(staged.sandbox.configDir, '.claude.json'), 'utf8')) as { customApiKeyResponses?: { approved?: string[] } }).customApiKeyResponses?.approved;
    expect(approved).toContain(FAKE_API_KEY.slice(-20));
  }, JOURNEY_TIMEOUT_MS);

  it('phone: the bypass-permissions warning → "Yes, I accept" → ready in bypass mode', async () => {
    const staged = await stage('bypass');
    // claude refuses --dangerously-skip-permissions as root unless it is told it runs in a sandbox.
    const runner = start(staged, { args: ['--dangerously-skip-permissions'], env: { IS_SANDBOX: '1' } });
    const page = await phone(staged.token);
    const sheet = await openWaiting(page, runner.sessionId, /Bypass Permissions mode/);
    await saveScreenshot(page, { name: 'dialog-bypass', viewport: 'phone' });
    await sheet.getByRole('button', { name: 'Yes, I accept' }).click();
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await runner.waitForScreen(/bypass permissions on/, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
  }, JOURNEY_TIMEOUT_MS);

  it('phone: "Switch model?" after /model with a warm cache → "Yes, switch…" → claude switched', async () => {
    const staged = await stage('model');
    const runner = start(staged);
    const page = await phone(staged.token);
    await page.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await switchModelDialog(runner, staged.sandbox);
    const sheet = await openWaiting(page, runner.sessionId, /Switch model\?/);
    await saveScreenshot(page, { name: 'dialog-switch-model', viewport: 'phone' });
    await sheet.getByRole('button', { name: /^Yes, switch to Sonnet/ }).click();
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await runner.waitForScreen(/Set model to Sonnet/, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await page.locator('.session-header .pill[data-status="idle"]').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    // /model typed at the desk reaches the phone's chip too, once claude says it set the model.
    await page.getByRole('button', { name: /^Model: sonnet/ }).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
  }, JOURNEY_TIMEOUT_MS);

  /** A first turn at the desk, then the phone's own model picker → sonnet: the runner types claude's
   *  /model, claude asks "Switch model?" (warm cache) and the question comes back to the phone. */
  async function pickerAsks(name: string) {
    const staged = await stage(name);
    const runner = start(staged);
    const page = await phone(staged.token);
    await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await typeAtDesk(runner, 'hello');
    await runner.waitForScreen(/● ok/, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await page.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await turnOver(staged.sandbox);
    await page.locator(`a[data-session-id="${runner.sessionId}"]`).click();
    const before = (await page.getByRole('button', { name: /^Model: / }).getAttribute('aria-label')) ?? '';
    const chip = page.getByRole('button', { name: /^Model: / });
    const chipText = chip.locator('.model-chip-text');
    const beforeText = (await chipText.textContent()) ?? '';
    await chip.click();
    await page.getByRole('dialog', { name: 'Switch model' }).getByRole('button', { name: 'sonnet' }).click();
    const sheet = page.getByRole('dialog', { name: /Switch model\?/ });
    await sheet.waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await page.locator('.session-header .pill[data-status="waiting"]').waitFor({ timeout: UI_TIMEOUT_MS });
    // While claude asks, the chip shows the requested model with a spinner.
    await chip.locator('.spinner').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await chipText.textContent()).toMatch(/^sonnet/);
    return { staged, runner, page, sheet, before, beforeText, chip, chipText };
  }

  it('phone: its own model picker with a warm cache → "Switch model?" comes back to the phone → "Yes" → the chip says sonnet', async () => {
    const { runner, page, sheet } = await pickerAsks('picker');
    await sheet.getByRole('button', { name: /^Yes, switch to Sonnet/ }).click();
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await runner.waitForScreen(/Set model to Sonnet/, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    await page.getByRole('button', { name: /^Model: sonnet/ }).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
  }, JOURNEY_TIMEOUT_MS);

  it('phone: its own model picker, "Switch model?" → "No, go back" → the chip keeps the model claude kept', async () => {
    const { runner, page, sheet, before, beforeText, chip, chipText } = await pickerAsks('picker-no');
    expect(before).not.toMatch(/sonnet/i);
    expect(beforeText).not.toMatch(/sonnet/i);
    await sheet.getByRole('button', { name: /^No/ }).click();
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await runner.waitForScreen(/Kept model as/, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    // The request is over: no spinner, and the chip's text is the model claude kept, not the one asked.
    await chip.locator('.spinner').waitFor({ state: 'detached', timeout: CLAUDE_UI_TIMEOUT_MS });
    expect(await chipText.textContent()).toBe(beforeText);
    // A later turn's answer in the chat: the transcript lines of /model before it were read too.
    await typeAtDesk(runner, 'still there?');
    await page.getByRole('log', { name: 'Chat' }).getByText('still there?', { exact: true }).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await page.locator('.session-header .pill[data-status="idle"]').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    expect(await page.getByRole('button', { name: /^Model: / }).getAttribute('aria-label')).toBe(before);
    await saveScreenshot(page, { name: 'dialog-switch-model-kept', viewport: 'phone' });
  }, JOURNEY_TIMEOUT_MS);

  it('desk first: "Switch model?" answered at the desk clears the phone\'s card', async () => {
    const staged = await stage('race');
    const runner = start(staged);
    const page = await phone(staged.token);
    await page.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`).waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
    await switchModelDialog(runner, staged.sandbox);
    const sheet = await openWaiting(page, runner.sessionId, /Switch model\?/);
    runner.write('2'); // "No, go back", at the desk
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await page.getByRole('status').filter({ hasText: 'Answered at the desk.' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(page, { name: 'dialog-desk-first', viewport: 'phone' });
    await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
    expect(runner.screenText()).not.toMatch(/Set model to Sonnet/);
    await page.locator('.session-header .pill[data-status="idle"]').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
  }, JOURNEY_TIMEOUT_MS);
});
