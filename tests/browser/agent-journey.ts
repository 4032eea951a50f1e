// agent-journey.ts: the one browser journey every agent walks (claude.test.ts, codex.test.ts,
// gemini.test.ts), at 390×844 (touch) and 1280×800: the list names the agent; a prompt gets the fake
// model's reply in the chat; the shell command the agent asks about is approved in the sheet and only
// then runs; the terminal is the agent's own screen; End from the header ends it, leaving Resume;
// axe finds nothing serious at each step, in either theme. What differs per agent is its fake API,
// its sandbox, its arguments and how its screen says it is ready.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AgentKind } from '@tether/shared';
import { seriousInBothThemes } from '../harness/axe.ts';
import { saveScreenshot, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import type { useBrowserWorld } from '../harness/browser-world.ts';
import type { useCleanups } from '../harness/cleanups.ts';
import { startRunner } from '../harness/runner.ts';
import { stepLog } from '../harness/steps.ts';

/** The journey's turns, in words; each agent's `start` scripts its own fake API with them. */
export type JourneyScript = {
  /** The first prompt, and the reply to it. */
  hello: RegExp;
  greeting: string;
  /** The second prompt, answered with a shell command (`command`, described by `label`)... */
  ask: RegExp;
  command: string;
  label: string;
  /** ...whose output `output`, once it ran, is answered with `done`. */
  output: string;
  done: string;
};

/** An agent's fake API's builders, as journeyTurns uses them. */
export type TurnBuilders<Req, Rep, Turn> = {
  when(matcher: (request: Req) => boolean, reply: Rep): Turn;
  userSays(pattern: RegExp): (request: Req) => boolean;
  text(value: string): Rep;
  /** Its shell tool asked to run `command`, described by `label`. */
  command(command: string, label: string): Rep;
  /** The request carries the command's output holding `output`. */
  ran(output: string): (request: Req) => boolean;
};

/** The journey's three turns in an agent's fake API: hello → greeting, ask → command, ran → done. */
export function journeyTurns<Req, Rep, Turn>(script: JourneyScript, b: TurnBuilders<Req, Rep, Turn>): Turn[] {
  return [b.when(b.userSays(script.hello), b.text(script.greeting)), b.when(b.userSays(script.ask), b.command(script.command, script.label)), b.when(b.ran(script.output), b.text(script.done))];
}

export type JourneyAgent = {
  agent: AgentKind;
  /** As the web app names it ("Message Codex, …"). */
  display: string;
  /** What its row in the list says of it ("Codex · PTY"); null: nothing (claude, the default agent). */
  listed: string | null;
  /** How long the agent's own steps may take (its TUI's start, a model turn). */
  uiTimeoutMs: number;
  journeyTimeoutMs: number;
  /** Its fake API scripted with the journey, and a sandbox pointed at it; both stopped by the caller. */
  start(script: JourneyScript): Promise<{
    fake: { stop(): Promise<void> | void };
    sandbox: { cwd: string; env: Record<string, string>; stop(): Promise<void> | void };
    args?: string[];
    ready: RegExp;
  }>;
};

/** Declares one `it` per viewport inside the caller's `describe`, on the caller's browser world. */
export function agentJourney(options: { world: ReturnType<typeof useBrowserWorld>; defer: ReturnType<typeof useCleanups>; agent: JourneyAgent }) {
  const { world, defer, agent } = options;
  const name = agent.agent;
  const fileName = `made-by-${name}.txt`;
  const chat = (tab: Page) => tab.getByRole('log', { name: 'Chat' });

  async function send(tab: Page, viewport: ViewportName, words: string) {
    const box = tab.getByRole('textbox', { name: 'Message' });
    await box.fill(words);
    if (viewport === 'phone') await tab.getByRole('button', { name: 'Send' }).click();
    else await box.press('Enter');
  }

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: the list names ${agent.display}; a prompt gets its reply; its shell command is approved in the sheet; the terminal is ${agent.display}'s screen`, async () => {
      const step = stepLog(`${name} ${viewport}`);
      step('start');
      const token = await world.hub.createToken(`${name}-${viewport}`);
      const { fake, sandbox, args, ready } = await agent.start({
        hello: new RegExp(`hello ${name}`),
        greeting: `Hello from the fake ${agent.display} model.`,
        ask: /make the file/,
        command: `touch ${fileName} && echo made`,
        label: `Create ${fileName}`,
        output: 'made',
        done: 'The file is there now.',
      });
      defer(() => fake.stop());
      defer(() => sandbox.stop());
      const runner = startRunner({ hub: { url: world.hub.url, token }, sandbox, agent: name, cols: 110, rows: 35, args });
      defer(() => runner.stop());
      await runner.waitForScreen(ready, { timeoutMs: agent.uiTimeoutMs });
      const tab = await world.signedInPage(viewport, token);
      defer(() => tab.close());
      step.watch(tab);

      // Idle once the agent's session-start signal reached the runner (its start gate).
      step('the list names the agent');
      const row = tab.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`);
      await row.waitFor({ timeout: agent.uiTimeoutMs });
      if (agent.listed) await expect(row.textContent()).resolves.toContain(agent.listed);
      else await expect(row.textContent()).resolves.not.toContain(' · PTY');
      await saveScreenshot(tab, { name: `${name}-list`, viewport });
      expect(await seriousInBothThemes(tab)).toEqual([]);

      step('a prompt gets its reply');
      await row.click();
      await chat(tab).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(tab.getByRole('textbox', { name: 'Message' }).getAttribute('placeholder')).resolves.toBe(`Message ${agent.display}, or / for commands`);
      await send(tab, viewport, `hello ${name}, are you there?`);
      await chat(tab).getByText(`Hello from the fake ${agent.display} model.`).waitFor({ timeout: agent.uiTimeoutMs });
      await chat(tab).getByText(`hello ${name}, are you there?`).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(tab, { name: `${name}-chat`, viewport });
      expect(await seriousInBothThemes(tab)).toEqual([]);

      step('its command is approved in the sheet');
      await send(tab, viewport, 'Please make the file');
      const sheet = tab.getByRole('dialog', { name: 'Run this command?' });
      await sheet.waitFor({ timeout: agent.uiTimeoutMs });
      await expect(sheet.getByLabel('Command').textContent()).resolves.toContain(`touch ${fileName}`);
      await saveScreenshot(tab, { name: `${name}-approval`, viewport });
      expect(await seriousInBothThemes(tab)).toEqual([]);
      expect(existsSync(join(sandbox.cwd, fileName))).toBe(false);
      await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
      await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await chat(tab).getByText('The file is there now.').waitFor({ timeout: agent.uiTimeoutMs });
      expect(existsSync(join(sandbox.cwd, fileName))).toBe(true);
      await saveScreenshot(tab, { name: `${name}-approved`, viewport });

      // The agent's own screen: its reply above its input row. Some agents draw rows grey on grey
      // (Gemini: xterm 248 on 240, 2.99:1); the web terminal raises such a foreground to 4.5:1
      // (minimumContrastRatio), so the terminal passes axe too.
      step('the terminal is the agent\'s screen');
      await tab.getByRole('link', { name: 'Terminal', exact: true }).click();
      await tab.locator('.xterm-rows').getByText(/The file is there now\./).first().waitFor({ timeout: agent.uiTimeoutMs });
      await saveScreenshot(tab, { name: `${name}-terminal`, viewport });
      expect(await seriousInBothThemes(tab)).toEqual([]);

      step('End from the header ends it');
      await tab.getByRole('button', { name: 'End session', exact: true }).click();
      const endDialog = tab.getByRole('alertdialog', { name: 'End this session?' });
      await endDialog.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(endDialog.textContent()).resolves.toContain(agent.display);
      await saveScreenshot(tab, { name: `${name}-end`, viewport });
      expect(await seriousInBothThemes(tab)).toEqual([]);
      await endDialog.getByRole('button', { name: 'End session' }).click();
      await endDialog.waitFor({ state: 'detached', timeout: agent.uiTimeoutMs });
      await tab.locator('.session-header').getByRole('button', { name: 'Resume' }).waitFor({ timeout: agent.uiTimeoutMs });
      expect(await runner.exited).toBe(0);
    }, agent.journeyTimeoutMs);
  }
}
