// rule-proposal.test.ts: approvals that become rules, on the phone (issue 42, item 4). The hub
// proposed a rule from three allows of `npm run test` in one folder: the card above the session list
// names the rule, the calls it would have covered and what it really allows (the package.json
// scripts the agent can edit); the person picks a prefix instead of the exact command and says yes;
// the rule is then listed under "rules from your approvals" and revoked there. At 390×844 and
// 1280×800; axe in both themes.
//
// Screenshots: test-artifacts/screenshots/rule-proposal[-prefix|-in-force]-<phone|desktop>[-dark].png
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { saveScreenshotsInBothThemes, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { seriousInBothThemes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('a rule proposed from repeated allows', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: shown with its calls and what it allows, accepted as a prefix rule, then revoked`, async () => {
      const namespace = `rules-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const { store } = world.hub;
      const now = Date.now();
      const machineId = randomUUID();
      const sessionId = randomUUID();
      await store.upsertMachine({ namespace, machine: { id: machineId, name: 'studio', os: 'linux', user: 'dev', home: '/home/dev' }, now });
      for (const at of [now - 3_600_000, now - 1_200_000, now - 60_000]) {
        await store.countRuleAllow({ namespace, machineId, folder: '/home/dev/src/shop', toolName: 'Bash', command: 'npm run test', call: { command: 'npm run test', sessionId, at }, proposeAt: 3, now: at });
      }
      const [rule] = await store.listRules({ namespace });

      const page = await world.signedInPage(viewport, token);
      const card = page.getByRole('article', { name: 'Make it a rule?' });
      await card.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await card.textContent()).toMatch(/You allowed this 3 times in ~\/src\/shop on studio/);
      expect(await card.getByRole('list', { name: 'The calls it would have covered' }).getByRole('listitem').count()).toBe(3);
      expect(await card.textContent()).toMatch(/package\.json.*the agent can edit those/);
      await saveScreenshotsInBothThemes(page, { name: 'rule-proposal', viewport });
      expect(await seriousInBothThemes(page)).toEqual([]);

      // A prefix only when the person picks one.
      await card.getByRole('radio', { name: /npm run with anything after it/ }).check();
      await card.getByText('Bash(npm run:*)').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await card.textContent()).toMatch(/npm run with any arguments after it/);
      await saveScreenshotsInBothThemes(page, { name: 'rule-proposal-prefix', viewport });
      await card.getByRole('button', { name: 'Make it a rule' }).click();
      await card.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      expect(await store.getRule({ namespace, ruleId: rule!.id })).toMatchObject({ status: 'accepted', ruleContent: 'npm run:*' });

      // In force: listed, and revoked from the list.
      await page.getByText('1 rule from your approvals').click();
      const revoke = page.getByRole('button', { name: 'Revoke' });
      await revoke.waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshotsInBothThemes(page, { name: 'rule-proposal-in-force', viewport });
      expect(await seriousInBothThemes(page)).toEqual([]);
      await revoke.click();
      await revoke.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      expect((await store.getRule({ namespace, ruleId: rule!.id }))?.status).toBe('revoked');
    }, 90_000);
  }
});
