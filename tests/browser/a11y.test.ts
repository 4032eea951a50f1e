// a11y.test.ts: axe-core (the accessibility engine, from npm) over the main screens, at 390×844 and
// 1280×800, in the light and the dark theme: login, the session list, a chat with an approval sheet,
// a question form, an MCP server's form (elicitation; also with its field problems shown), the terminal, the new-session form and a share view. No violation may be serious or
// critical; the others are printed for a person to look at.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PIZZA_QUESTIONS } from '../fixtures/questions.ts';
import { loginWithQrLink, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { emitAck } from '../harness/hub.ts';

/** Loaded through the devtools protocol (page.evaluate): the app's CSP rightly forbids inline scripts. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Violation = { id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> };

async function axe(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } }).axe.run;
    const result = await run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
}

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

describe('accessibility (axe-core)', () => {
  const world = useBrowserWorld();

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`${viewport}, ${colorScheme}: no serious or critical violation on any main screen`, async () => {
        const namespace = `a11y-${viewport}-${colorScheme}`;
        const token = await world.hub.createToken(namespace);
        const daemon = await world.connect({ token, client: 'daemon' });
        expect((await emitAck(daemon, 'machine:register', { id: randomUUID(), name: 'a11y-box', os: 'linux', user: 'dev', home: '/home/dev' })).ok).toBe(true);
        const { runner, sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/tether', launchKind: 'pty', title: 'Check the screens', status: 'idle' });
        const page = await world.browser.newPage({ viewport, colorScheme });
        const found: Array<{ screen: string } & Violation> = [];
        const check = async (screen: string) => {
          for (const v of await axe(page)) found.push({ screen, ...v });
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
        await page.getByRole('dialog', { name: 'Run this command?' }).getByRole('button', { name: 'Allow', exact: true }).click();

        expect((await emitAck(runner, 'approval:request', { id: randomUUID(), sessionId, kind: 'question', toolName: 'AskUserQuestion', toolInput: { questions: PIZZA_QUESTIONS }, toolUseId: 'toolu_a11y2', createdAt: Date.now() })).ok).toBe(true);
        await page.getByRole('dialog').filter({ hasText: PIZZA_QUESTIONS[0]!.question }).first().waitFor({ timeout: UI_TIMEOUT_MS });
        await check('question form');
        await page.getByRole('dialog').filter({ hasText: PIZZA_QUESTIONS[0]!.question }).first().getByRole('button', { name: 'Decline' }).click();

        expect((await emitAck(runner, 'approval:request', { id: randomUUID(), sessionId, kind: 'elicitation', toolName: 'deploy', toolInput: ELICITATION, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
        const form = page.getByRole('dialog', { name: 'deploy asks for input' });
        await form.waitFor({ timeout: UI_TIMEOUT_MS });
        await check('elicitation form');
        await form.getByRole('button', { name: 'Accept' }).click();
        await form.getByRole('alert').first().waitFor({ timeout: UI_TIMEOUT_MS });
        await check('elicitation form with problems');

        await page.goto(`${world.hub.url}/sessions/${sessionId}/terminal`);
        await page.locator('.terminal-host').waitFor({ timeout: UI_TIMEOUT_MS });
        await check('terminal');

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

        for (const v of found) console.log(`[a11y ${viewport} ${colorScheme}] ${v.screen}: ${v.impact} ${v.id} (${v.help}) ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        expect(found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      });
    }
  }
});
