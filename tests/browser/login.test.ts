// login.test.ts: the first journey, at a phone (390×844, touch) and a desktop (1280×800).
// A real hub serves the built web app; a real /cli socket plays the runner.
//
//   QR link (/#token=…) ─► session list (empty state) ─► runner registers ─► row appears live
//   ─► open it: chat backfill + a live message ─► paste-token login (bad token, then good) ─► log out
//
// Every screen is saved to test-artifacts/screenshots/<name>-<phone|desktop>.png for a person to look at.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ChatMessageInput, SessionRegistration } from '@tether/shared';
import { emitAck } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

function registration(overrides: Partial<SessionRegistration> = {}): SessionRegistration {
  return { id: randomUUID(), cwd: '/home/dev/src/tether', launchKind: 'pty', status: 'idle', ...overrides };
}

let seq = 0;
function message(role: 'user' | 'assistant', content: ChatMessageInput['content'], extra: Partial<ChatMessageInput> = {}): ChatMessageInput {
  seq += 1;
  return { id: `msg-${seq}-${randomUUID()}`, role, content, createdAt: Date.now() - 60_000 + seq * 1000, ...extra };
}

/** A short but varied conversation: markdown, a code block, a Bash call with output, an Edit diff. */
function sampleConversation(): ChatMessageInput[] {
  return [
    message('user', [{ type: 'text', text: 'The login test is flaky on CI. Can you find out why?' }]),
    message('assistant', [{ type: 'thinking', text: 'Look at the test first, then the CI logs.' }]),
    message('assistant', [
      { type: 'text', text: "I'll look at the test and the most recent CI run." },
    ]),
    message('assistant', [
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'bun --bun vitest run tests/browser/login.test.ts', description: 'Run the login test' } },
    ]),
    message('user', [
      { type: 'tool_result', toolUseId: 'toolu_1', content: ' ✓ tests/browser/login.test.ts (4 tests) 3.1s\n\n Test Files  1 passed (1)', isError: false },
    ]),
    message('assistant', [
      { type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: '/home/dev/src/tether/tests/browser/login.test.ts', old_string: 'await page.waitForTimeout(500);', new_string: "await expect(row).toBeVisible();" } },
    ]),
    message('user', [{ type: 'tool_result', toolUseId: 'toolu_2', content: 'The file has been updated.', isError: false }]),
    message('assistant', [
      {
        type: 'text',
        text: [
          'Found it: the test **slept** for 500 ms instead of waiting for the row.',
          '',
          '1. Replaced the sleep with a real wait on the row.',
          '2. Kept the timeout at `10_000` ms for slow runners.',
          '',
          '```ts',
          "await expect(row).toBeVisible();",
          '```',
          '',
          'It passes 20 runs in a row now.',
        ].join('\n'),
      },
    ]),
  ];
}

/** Locators the journeys share. Playwright finds controls by role and accessible name. */
function ui(page: Page) {
  return {
    sessionsHeading: page.getByRole('heading', { name: 'Sessions', level: 1 }),
    emptyTitle: page.getByRole('heading', { name: 'No sessions yet' }),
    tokenInput: page.getByLabel('Access token'),
    signIn: page.getByRole('button', { name: 'Sign in' }),
    account: page.getByRole('button', { name: 'Account' }),
    logout: page.getByRole('menuitem', { name: 'Log out' }),
    connection: page.getByRole('status', { name: /^Connection: Live$/ }),
    loginTitle: page.getByRole('heading', { name: 'Connect to your hub' }),
  };
}

async function waitVisible(locator: ReturnType<Page['getByRole']>): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

describe('login and the live session list', () => {
  const world = useBrowserWorld();

  /** The same screen in dark mode: a second page with the same stored login. */
  async function saveDarkScreenshot(options: {
    url: string;
    login: string | null;
    viewport: ViewportName;
    name: string;
    ready: (page: Page) => ReturnType<Page['getByRole']>;
  }) {
    const dark = await world.browser.newPage({ viewport: options.viewport, colorScheme: 'dark' });
    await dark.goto(`${world.hub.url}/login`);
    await dark.evaluate((login) => login && localStorage.setItem('tether.login', login), options.login);
    await dark.goto(options.url);
    await waitVisible(options.ready(dark));
    await saveScreenshot(dark, { name: `${options.name}-dark`, viewport: options.viewport });
    await dark.close();
  }

  for (const viewport of ['phone', 'desktop'] as const satisfies readonly ViewportName[]) {
    it(`QR link at ${viewport}: empty list, a session appears live, its chat opens`, async () => {
      // Each viewport gets its own namespace, so the "empty" list really is empty.
      const namespace = `qr-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const page = await world.browser.newPage({ viewport });
      const $ = ui(page);

      await page.goto(`${world.hub.url}/#token=${token}`);
      await waitVisible($.sessionsHeading);
      await waitVisible($.emptyTitle);
      // The token never stays in the address bar (or history), and only the session is stored.
      expect(page.url()).not.toContain('tth_');
      expect(page.url()).toBe(`${world.hub.url}/`);
      const stored = await page.evaluate(() => JSON.stringify(localStorage));
      expect(stored).not.toContain(token);
      expect(stored).toContain(namespace);
      await waitVisible($.connection);
      await expect(page.getByRole('button', { name: 'Copy command: tether claude' }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'New session' }).isDisabled()).resolves.toBe(true);
      await saveScreenshot(page, { name: 'sessions-empty', viewport });

      // A runner registers: the row appears without a reload.
      const runner = await world.connect({ token });
      const first = registration({ title: 'Fix the flaky login test', status: 'thinking' });
      const registered = await emitAck(runner, 'session:register', first);
      expect(registered.ok).toBe(true);
      const row = page.getByRole('link', { name: /Fix the flaky login test/ });
      await waitVisible(row);
      await expect(row.textContent()).resolves.toContain('Thinking');

      const second = registration({ cwd: '/home/dev/src/api-server', launchKind: 'headless', status: 'idle' });
      expect((await emitAck(runner, 'session:register', second)).ok).toBe(true);
      const untitled = page.getByRole('link', { name: /api-server/ });
      await waitVisible(untitled);
      await expect(untitled.textContent()).resolves.toContain('Headless');

      // Status changes arrive live too.
      expect((await emitAck(runner, 'session:update', { sessionId: first.id, patch: { status: 'idle' } })).ok).toBe(true);
      await page.getByRole('link', { name: /Fix the flaky login test.*Idle/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      const third = registration({ title: 'Ended session', cwd: '/home/dev/notes', launchKind: 'headless' });
      expect((await emitAck(runner, 'session:register', third)).ok).toBe(true);
      expect((await emitAck(runner, 'session:end', { sessionId: third.id, status: 'ended', exitCode: 0 })).ok).toBe(true);
      await page.getByRole('link', { name: /Ended session.*Ended/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole('heading', { name: /Desk/ }).waitFor({ timeout: UI_TIMEOUT_MS });

      // An approval waits: the row says so (and the runner reports the status).
      const request = {
        id: randomUUID(),
        sessionId: second.id,
        kind: 'permission',
        toolName: 'Bash',
        toolInput: { command: 'rm -rf node_modules && bun install', description: 'Reinstall dependencies' },
        toolUseId: 'toolu_pending',
        createdAt: Date.now(),
      };
      expect((await emitAck(runner, 'approval:request', request)).ok).toBe(true);
      expect((await emitAck(runner, 'session:update', { sessionId: second.id, patch: { status: 'waiting' } })).ok).toBe(true);
      const waiting = page.getByRole('link', { name: /api-server/ });
      await waiting.getByRole('img', { name: '1 waiting for your answer' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(waiting.textContent()).resolves.toContain('Waiting for you');
      await saveScreenshot(page, { name: 'sessions-list', viewport });
      await saveDarkScreenshot({ url: page.url(), login: await page.evaluate(() => localStorage.getItem('tether.login')), viewport, name: 'sessions-list', ready: (p) => p.getByRole('link', { name: /api-server.*waiting/ }) });

      // The chat: backfill on open, then a live message.
      const appended = await emitAck(runner, 'message:append', { sessionId: first.id, messages: sampleConversation() });
      expect(appended.ok).toBe(true);
      await page.getByRole('link', { name: /Fix the flaky login test/ }).click();
      await waitVisible(page.getByRole('heading', { name: 'Fix the flaky login test', level: 1 }));
      const log = page.getByRole('log', { name: 'Chat' });
      await waitVisible(log.getByText('It passes 20 runs in a row now.'));
      await waitVisible(page.getByRole('button', { name: /^Bash/ }));
      await waitVisible(page.getByRole('button', { name: /^Edit/ }));
      // A tool card expands to its input and result.
      await page.getByRole('button', { name: /^Bash/ }).click();
      await waitVisible(page.getByText('Test Files  1 passed (1)', { exact: false }));
      await expect(page.getByRole('textbox', { name: 'Message' }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Send' }).isVisible()).resolves.toBe(true);

      expect(
        (
          await emitAck(runner, 'message:append', {
            sessionId: first.id,
            messages: [message('assistant', [{ type: 'text', text: 'Anything else you want me to check?' }])],
          })
        ).ok,
      ).toBe(true);
      await waitVisible(log.getByText('Anything else you want me to check?'));
      // Thinking: the Stop button shows.
      expect((await emitAck(runner, 'session:update', { sessionId: first.id, patch: { status: 'thinking' } })).ok).toBe(true);
      await waitVisible(page.getByRole('button', { name: 'Stop' }));
      await saveScreenshot(page, { name: 'session-chat', viewport });
      await saveDarkScreenshot({ url: page.url(), login: await page.evaluate(() => localStorage.getItem('tether.login')), viewport, name: 'session-chat', ready: (p) => p.getByText('Anything else you want me to check?') });

      // Back to the list (phone: the back button; desktop: the list stays beside the chat).
      if (viewport === 'phone') {
        await page.getByRole('link', { name: 'Back to sessions' }).click();
        await waitVisible($.sessionsHeading);
      } else {
        await expect($.sessionsHeading.isVisible()).resolves.toBe(true);
      }
      await page.close();
    });

    it(`token login at ${viewport}: a bad token is refused clearly, a good one signs in, log out`, async () => {
      const page = await world.browser.newPage({ viewport });
      const $ = ui(page);

      await page.goto(`${world.hub.url}/`);
      await waitVisible($.loginTitle);
      expect(new URL(page.url()).pathname).toBe('/login');
      await saveScreenshot(page, { name: 'login', viewport });

      await $.tokenInput.fill(`tth_${'x'.repeat(43)}`);
      await $.signIn.click();
      const alert = page.getByRole('alert');
      await waitVisible(alert);
      await expect(alert.textContent()).resolves.toMatch(/wasn't accepted/);
      await saveScreenshot(page, { name: 'login-error', viewport });

      await $.tokenInput.fill(`  ${world.hub.token}  `);
      await $.signIn.press('Enter');
      await waitVisible($.sessionsHeading);
      await waitVisible($.connection);

      await $.account.click();
      await waitVisible($.logout);
      await saveScreenshot(page, { name: 'account-menu', viewport });
      await $.logout.click();
      await waitVisible($.loginTitle);
      const stored = await page.evaluate(() => localStorage.getItem('tether.login'));
      expect(stored).toBeNull();
      // Logged out means logged out: going back to / lands on the login screen again.
      await page.goto(`${world.hub.url}/`);
      await waitVisible($.loginTitle);
      await page.close();
    });
  }

  it('says so when the hub cannot be reached', async () => {
    const page = await world.browser.newPage({ viewport: 'phone' });
    const $ = ui(page);
    await page.goto(`${world.hub.url}/login`);
    await waitVisible($.loginTitle);
    // Cut the network under the page: the login request fails like an unreachable hub would.
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await $.tokenInput.fill(world.hub.token);
    await $.signIn.click();
    const alert = page.getByRole('alert');
    await waitVisible(alert);
    await expect(alert.textContent()).resolves.toMatch(/Can't reach the hub/);
    await page.close();
  });
});
