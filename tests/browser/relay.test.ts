// relay.test.ts: a hub at home, reached through `tether relay` with no inbound port. The relay
// (nginx stream + sshd, written and run by `tether relay serve`) is on loopback; the hub runs in its
// own network namespace and only dials out (ssh -R); it gets its certificate from pebble over
// TLS-ALPN-01 through the relay, checks its URL with the TLS gate, and prints the pairing link. The
// phone (Chromium trusting only pebble's root) pairs through the relay's name, sees the live
// terminal and answers an approval. A tap (socat -x) in front of the relay sees only ciphertext.
// Then the hub's network goes away for 30 s: the tunnel comes back, the phone's terminal resumes
// without a gap, and an approval pending across the gap is answered once.
//
//   chromium ─► tap ─► nginx ─► sshd ─tunnel─► hub (netns) ◄─ runner (unix-socket bridge)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { requireBuiltWeb } from '../harness/browser-world.ts';
import { connectSocket, emitAck } from '../harness/hub.ts';
import { RELAY_DOMAIN, startRelayWorld, type RelayHubHandle, type RelayWorld } from '../harness/relay-world.ts';
import { portOpen } from '../harness/processes.ts';
import { stepLog } from '../harness/steps.ts';
import { allowCommandInSheet } from '../harness/approval-sheet.ts';

describe('a hub behind tether relay', () => {
  let world: RelayWorld;
  let hub: RelayHubHandle;
  let origin: string;

  beforeAll(async () => {
    requireBuiltWeb('sw.js');
    world = await startRelayWorld();
    const invited = world.invite('alpha');
    expect(invited.status, invited.stderr).toBe(0);
    hub = await world.startHub({ name: 'alpha', code: invited.code });
    origin = `https://alpha.${RELAY_DOMAIN}:${world.publicPort}`;
  }, 90_000);

  afterAll(async () => {
    await world?.stop();
  }, 60_000);

  it('pairs through the relay name, shows the live terminal, answers an approval; the relay sees only ciphertext', async () => {
    const step = stepLog('relay: pairs through the relay name, shows the live termi');
    step('start');
    const printed = hub.output();
    expect(printed).toContain(`relay: tunnel up, ${origin} reaches this hub`);
    expect(printed).toMatch(/relay: certificate for alpha\.relay\.test valid until \S+ \(sha256 [0-9A-F:]+\)/);
    expect(printed).toContain(`checked ${origin}: certificate trusted, answered by this hub`);
    const phoneUrl = /open on your phone \(or scan\): (\S+)/.exec(printed)?.[1] ?? '';
    expect(phoneUrl.startsWith(`${origin}/#pair=`), printed).toBe(true);
    const pairCode = phoneUrl.slice(phoneUrl.indexOf('#pair=') + 6);
    const token = hub.token!;
    expect(token, printed).toBeTruthy();
    // No inbound port: the hub's port answers nothing outside its namespace.
    step('No inbound port');
    expect(await portOpen(hub.innerPort)).toBe(false);

    const runner = await connectSocket({ url: hub.runnerUrl, nsp: '/cli', token });
    try {
      const sessionId = randomUUID();
      const title = 'Relay deploy';
      expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/srv/app', launchKind: 'pty', title, status: 'idle' })).ok).toBe(true);
      let offset = 0;
      const screen = '\x1b[1mclaude\x1b[0m ready on the relayed hub';
      // As the real runner's screen model does: a snapshot is the screen now, every byte so far in it.
      let shown = screen;
      runner.on('terminal:snapshot-request', () => void emitAck(runner, 'terminal:snapshot', { sessionId, offset, cols: 80, rows: 24, data: shown }));
      const output = async (text: string) => {
        const bytes = new TextEncoder().encode(text);
        expect((await emitAck(runner, 'terminal:output', { sessionId, offset, data: bytes })).ok).toBe(true);
        offset += bytes.byteLength;
        shown += text;
      };

      const page = await world.browser!.newPage({ viewport: 'phone' });
      const response = await page.goto(phoneUrl);
      expect(await response!.securityDetails()).toMatchObject({ subjectName: `alpha.${RELAY_DOMAIN}`, issuer: expect.stringMatching(/^Pebble Intermediate CA/) });
      await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await page.evaluate(() => ({ secure: window.isSecureContext, origin: location.origin }))).toEqual({ secure: true, origin });

      // The live terminal, through the relay.
      await page.getByRole('link', { name: new RegExp(title) }).click();
      await page.getByRole('link', { name: 'Terminal', exact: true }).click();
      const rows = page.locator('.xterm-rows');
      await rows.getByText('ready on the relayed hub').waitFor({ timeout: UI_TIMEOUT_MS });
      await output('\r\nTAPCHECK-live-terminal-line 12 passed');
      await rows.getByText('TAPCHECK-live-terminal-line 12 passed').waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'relay-terminal', viewport: 'phone' });

      // An approval, answered from the phone.
      const requestId = randomUUID();
      expect((await emitAck(runner, 'approval:request', { id: requestId, sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'echo TAPCHECK-approval-command' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
      await emitAck(runner, 'session:update', { sessionId, patch: { status: 'waiting' } });
      const sheet = await allowCommandInSheet(page, { runner, requestId, command: 'TAPCHECK-approval-command', screenshot: 'relay-approval' });

      // The hub's network goes away for 30 s with an approval pending and the terminal moving; when
      // it returns, the tunnel comes back, the phone resumes the terminal without a gap and the
      // approval is answered once.
      const pendingId = randomUUID();
      expect((await emitAck(runner, 'approval:request', { id: pendingId, sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'echo TAPCHECK-across-the-gap' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
      await sheet.waitFor({ timeout: UI_TIMEOUT_MS });
      const ups = hub.output().split('relay: tunnel up').length;
      await hub.cut();
      for (const line of ['TAPCHECK-gap-line-1', 'TAPCHECK-gap-line-2']) {
        await Bun.sleep(10_000);
        await output(`\r\n${line}`);
      }
      await Bun.sleep(10_000);
      expect(hub.output()).toMatch(/relay: tunnel down: /);
      await hub.restore();
      const restored = Date.now();
      await expect.poll(() => hub.output().split('relay: tunnel up').length, { timeout: 60_000, interval: 250 }).toBeGreaterThan(ups);
      await rows.getByText('TAPCHECK-gap-line-2').waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
        await saveScreenshot(page, { name: 'relay-after-gap-failed', viewport: 'phone' });
        const probe = await world.get('alpha', '/healthz').catch((e: unknown) => String(e));
        throw new Error(`${String(error)}; GET through the relay now: ${JSON.stringify(probe)}; hub: ${hub.output().split('\n').filter((l) => l.startsWith('relay:')).join(' | ')}`);
      });
      console.log(`RELAY-E2E phone_resumed_after_network_back_ms=${Date.now() - restored}`);
      const text = (await rows.textContent()) ?? '';
      const order = ['TAPCHECK-live-terminal-line', 'TAPCHECK-gap-line-1', 'TAPCHECK-gap-line-2'].map((line) => text.indexOf(line));
      expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)), text).toBe(true);
      await saveScreenshot(page, { name: 'relay-after-gap', viewport: 'phone' });
      const answers: string[] = [];
      runner.on('approval:answered', (event: { requestId: string }) => answers.push(event.requestId));
      await sheet.getByLabel('Command').getByText('TAPCHECK-across-the-gap').waitFor({ timeout: UI_TIMEOUT_MS });
      await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
      await expect.poll(() => answers.filter((id) => id === pendingId).length, { timeout: UI_TIMEOUT_MS }).toBe(1);
      await Bun.sleep(2_000);
      expect(answers.filter((id) => id === pendingId)).toHaveLength(1);
      await page.close();

      // The tap saw the whole exchange, and none of it in the clear.
      const tapped = world.tapped();
      expect(tapped.length).toBeGreaterThan(10_000);
      expect(tapped.includes(Buffer.from(`alpha.${RELAY_DOMAIN}`))).toBe(true); // SNI is visible, by design
      for (const secret of [pairCode, token, 'TAPCHECK', 'Relay deploy', 'socket.io', 'HTTP/1.1']) {
        expect(tapped.includes(Buffer.from(secret)), `the tap saw "${secret}" in the clear`).toBe(false);
      }
    } finally {
      runner.close();
    }
  }, 200_000);
});
