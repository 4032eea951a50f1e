// browser.ts: Debian's Chromium driven by playwright-core, for the browser journeys in tests/browser.
// Never downloads a browser: it runs `TETHER_CHROMIUM` or /usr/bin/chromium (CI installs it with apt).
//
//   test ──newPage({ viewport })──► playwright-core ──CDP──► chromium --headless ──HTTP──► hub (web/dist)
//
// Invariant: every page and context a test opens is closed by stop(); screenshots land under
// test-artifacts/screenshots/<name>-<phone|desktop>.png so that someone can look at them.

import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Store } from '@tether/hub';
import { MAX_MESSAGES_PER_BATCH } from '@tether/shared';

type ChatMessageRecordInput = Parameters<Store['appendMessages']>[0]['messages'][number];

export type ViewportName = 'phone' | 'desktop';

/** The sizes every browser journey runs at: a mid-size phone (iPhone 14/15 logical pixels) and a
 *  common laptop. The phone gets touch and a 2× pixel ratio so `(pointer: coarse)` matches. */
export const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 },
} as const satisfies Record<ViewportName, object>;

/** Flags for a quiet, deterministic headless Chromium inside a container (no sandbox: CI runs as root). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-artifacts', 'screenshots');

export function chromiumPath(): string {
  const path = process.env.TETHER_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `Chromium not found at ${path}. Install Debian's build (apt-get install -y chromium) or set TETHER_CHROMIUM; ` +
        'tests never download a browser.',
    );
  }
  return path;
}

export type BrowserHandle = {
  browser: Browser;
  /** A fresh context (own storage) and page at the named viewport. */
  newPage(options: { viewport: ViewportName; baseURL?: string; colorScheme?: 'light' | 'dark' }): Promise<Page>;
  stop(): Promise<void>;
};

/** What a launch may add to the shared flags: a HOME (Chromium reads the NSS certificate database
 *  under $HOME/.pki/nssdb, so a temp HOME trusts a test CA without touching the machine's) and
 *  extra switches (e.g. --host-resolver-rules to map a test name to 127.0.0.1 without DNS). */
export type LaunchOptions = { home?: string; args?: string[] };

/** TETHER_TEST_FONTCONFIG=<fonts.conf>: Chromium sees only the fonts that file lists (e.g. only
 *  fonts-dejavu-core, as on a minimal Debian), without uninstalling anything on a shared machine. */
function browserEnv(options: LaunchOptions): Record<string, string> | undefined {
  const fontconfig = process.env.TETHER_TEST_FONTCONFIG;
  if (!fontconfig && !options.home) return undefined;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  if (fontconfig) env.FONTCONFIG_FILE = resolve(fontconfig);
  if (options.home) env.HOME = options.home;
  return env;
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<BrowserHandle> {
  const env = browserEnv(options);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, ...(options.args ?? [])], headless: true, ...(env ? { env } : {}) });
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async newPage({ viewport, baseURL, colorScheme = 'light' }) {
      const context = await browser.newContext({
        ...VIEWPORTS[viewport],
        ...(baseURL ? { baseURL } : {}),
        colorScheme,
        reducedMotion: 'reduce',
        locale: 'en-US',
      });
      contexts.push(context);
      return context.newPage();
    },
    async stop() {
      for (const context of contexts.splice(0)) await context.close().catch(() => {});
      await browser.close().catch(() => {});
    },
  };
}

/** Saves `test-artifacts/screenshots/<name>-<viewport>.png` and returns its path. */
export async function saveScreenshot(page: Page, options: { name: string; viewport: ViewportName }): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${options.name}-${options.viewport}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Types `message` into the session's composer and sends it as a person there would: the Send button
 *  on a phone, Enter on a desktop. */
export async function sendFromComposer(tab: Page, viewport: ViewportName, message: string): Promise<void> {
  const box = tab.getByRole('textbox', { name: 'Message' });
  await box.click();
  await box.fill(message);
  if (viewport === 'phone') await tab.getByRole('button', { name: 'Send' }).click();
  else await box.press('Enter');
}

/** The same screen in the light theme and the dark one (`<name>-light`, `<name>-dark`); the page is
 *  left in the light theme. */
export async function saveScreenshotsInBothThemes(page: Page, options: { name: string; viewport: ViewportName }): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await useColorScheme(page, scheme);
    await saveScreenshot(page, { name: `${options.name}-${scheme}`, viewport: options.viewport });
  }
  await useColorScheme(page, 'light');
}

/** Switches the page's colour scheme and waits for the app's colour transitions to end: a screenshot
 *  or an axe contrast check taken meanwhile reads half of each theme (a CI run caught axe doing so). */
export async function useColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await animationsSettled(page);
}

/** Waits for every running CSS transition and animation on the page to finish. */
export async function animationsSettled(page: Page): Promise<void> {
  const unsettled = await page.evaluate(async (boundMs) => {
    const bound = new Promise<'bound'>((resolve) => setTimeout(() => resolve('bound'), boundMs));
    // A page that draws no frame (Chromium starved under the full suite) never runs rAF: bounded too.
    await Promise.race([new Promise((resolve) => requestAnimationFrame(resolve)), bound]);
    // An endless one (a spinner, a live session's pulse) never finishes: waiting for it hung the review
    // journey whenever a row in the list was mid-turn as its screenshot was taken.
    const ending = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    const settled = await Promise.race([Promise.all(ending.map((animation) => animation.finished.catch(() => undefined))).then(() => 'settled' as const), bound]);
    return settled === 'settled' ? [] : ending.filter((a) => a.playState === 'running').map((a) => (a as CSSAnimation).animationName ?? (a as CSSTransition).transitionProperty ?? a.id);
  }, ANIMATIONS_BOUND_MS);
  // Not a hang (the reviews journey timed out at 120 s in a rehearsal): say what still ran, and go on.
  if (unsettled.length > 0) console.warn(`animationsSettled: still running after ${ANIMATIONS_BOUND_MS} ms: ${unsettled.join(', ')}`);
}

/** How long animationsSettled waits for finite animations (the app's last 0.3 s at most). */
const ANIMATIONS_BOUND_MS = 5_000;

/** How long UI assertions wait: a live update crosses socket → hub → socket → React in well under 1 s. */
export const UI_TIMEOUT_MS = 10_000;

/** Signs a page in the way a phone does: the QR link `<hub>/#token=…`. Resolves on the session list. */
export async function loginWithQrLink(page: Page, options: { hubUrl: string; token: string }): Promise<void> {
  await page.goto(`${options.hubUrl}/#token=${options.token}`);
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** What seedLongChat writes: one turn is 4 messages (prompt, tool call, tool result, answer). */
export type SeedChatOptions = {
  store: Store;
  namespace: string;
  sessionId: string;
  /** How many messages to store (rounded up to whole turns). */
  count: number;
};

/** Stores `count` realistic chat messages straight into the hub's store (the way ingest would),
 *  in pages the store accepts. For long-chat tests and the 10k render bench. */
export async function seedLongChat(options: SeedChatOptions): Promise<{ lastText: string; firstText: string }> {
  const turns = Math.ceil(options.count / 4);
  const start = Date.now() - turns * 60_000;
  let batch: ChatMessageRecordInput[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const result = await options.store.appendMessages({ namespace: options.namespace, sessionId: options.sessionId, messages: batch });
    if (!result) throw new Error('seedLongChat: session not found');
    batch = [];
  };
  const base = { sidechain: false, agentId: null, promptId: null, agentSessionId: null } as const;
  for (let turn = 0; turn < turns; turn++) {
    const at = start + turn * 60_000;
    const toolId = `toolu_${turn}`;
    batch.push(
      { ...base, id: randomUUID(), role: 'user', createdAt: at, content: [{ type: 'text', text: `Question ${turn}: what does step ${turn} do?` }] },
      { ...base, id: randomUUID(), role: 'assistant', createdAt: at + 1, content: [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: `grep -n step${turn} src/*.ts`, description: 'Find the step' } }] },
      { ...base, id: randomUUID(), role: 'user', createdAt: at + 2, content: [{ type: 'tool_result', toolUseId: toolId, content: `src/a.ts:${turn}: step${turn}()`, isError: false }] },
      {
        ...base,
        id: randomUUID(),
        role: 'assistant',
        createdAt: at + 3,
        content: [{ type: 'text', text: `Answer ${turn}: step ${turn} **parses** the input and calls \`step${turn}()\`.\n\n- it reads the file\n- it writes the result` }],
      },
    );
    if (batch.length >= MAX_MESSAGES_PER_BATCH) await flush();
  }
  await flush();
  return { firstText: 'Question 0:', lastText: `Answer ${turns - 1}:` };
}
