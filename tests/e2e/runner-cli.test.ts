// CLI parity with the phone: `tether send` types a message through the same queue, `tether chat`
// prints the structured chat, `tether doctor` checks the setup (claude, and Codex as an optional
// agent); `tether codex` warns before its TUI outside Codex's tested range; model switch from the hub.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { text, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { claudeVersions } from '../../cli/src/agents/claude/version.ts';
import { codexVersions, SUPPORTED_CODEX } from '../../cli/src/agents/codex/version.ts';
import { claudeBin } from '../harness/claude.ts';
import { codexBin } from '../harness/codex.ts';
import { startHub } from '../harness/hub.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText, runTether } from '../harness/runner.ts';
import { DESK_READY, startStage, startWorld } from '../harness/world.ts';

const defer = useCleanups();

describe('tether send / chat / doctor', () => {
  it('send types a message like the phone; chat prints the chat (text and --json); doctor is all ok', async () => {
    const { hub, runner, phone, tempDir } = await startWorld(defer, { script: [when(userSays(/from the shell/), text('shell reply'))] });
    const home = tempDir('tether-cli-home-');
    const env = { TETHER_HOME: home, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_CLAUDE_BIN: claudeBin(), TETHER_CODEX_BIN: codexBin() };

    const sent = await runTether(['send', runner.sessionId, 'hello', 'from the shell'], env);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^queued [0-9a-f-]{36} \(queued\)/);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('shell reply')), { what: 'reply to tether send' });
    const user = phone.messages().find((m) => m.role === 'user')!;
    expect(chatText(user)).toBe('hello from the shell');
    expect(user.promptId).not.toBeNull();

    const human = await runTether(['chat', runner.sessionId], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('[user] hello from the shell');
    expect(human.stdout).toContain('[assistant] shell reply');
    const json = await runTether(['chat', runner.sessionId, '--json'], env);
    const lines = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { role: string; seq: number });
    expect(lines.map((l) => l.role)).toEqual(['user', 'assistant']);

    const bad = await runTether(['send', crypto.randomUUID(), 'nobody home'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('hub refused the message');

    const doctor = await runTether(['doctor'], env);
    // Inside the tested range for the pinned versions; `claude:check` runs this with a newer one,
    // which doctor must call newer and still pass (a warning with its fix, not a failure).
    const standing = claudeVersions.standing(claudeVersions.read(claudeBin()));
    expect(doctor.stdout).toMatch(standing === 'newer' ? /ok {3}claude \d+\.\d+\.\d+ .*outside the tested .* range\n\s+fix: .*claude:check/ : /claude \d+\.\d+\.\d+ .*inside the tested/);
    const codexStanding = codexVersions.standing(codexVersions.read(codexBin()));
    expect(doctor.stdout).toMatch(codexStanding === 'newer' ? /ok {3}codex {2}codex-cli \d+\.\d+\.\d+ .*outside the tested .* range\n\s+fix: .*codex:check/ : /ok {3}codex {2}\d+\.\d+\.\d+ .*inside the tested/);
    expect(doctor.stdout).not.toContain('FAIL');
    expect(doctor.code).toBe(0);
  }, 60_000);

  it('doctor: Codex missing is said, not failed; a Codex outside its range is a warning there and one line before `tether codex`', async () => {
    const hub = await startHub();
    defer(() => hub.stop());
    const dir = mkdtempSync(join(tmpdir(), 'tether-cli-codex-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const env = { TETHER_HOME: join(dir, 'home'), TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_CLAUDE_BIN: claudeBin() };

    // No pin and no codex anywhere on PATH: claude is the main agent, so doctor still passes.
    const noCodexPath = (process.env.PATH ?? '').split(delimiter).filter((d) => d && !existsSync(join(d, 'codex'))).join(delimiter);
    const without = await runTether(['doctor'], { ...env, TETHER_CODEX_BIN: '', PATH: noCodexPath });
    expect(without.stdout).toMatch(/^ok {3}codex {2}not installed \(optional\): npm install -g @openai\/codex$/m);
    expect(without.stdout).not.toContain('FAIL');
    expect(without.code).toBe(0);

    // A pin that points at nothing is the user's explicit choice gone wrong: a failure, with its fix.
    const broken = await runTether(['doctor'], { ...env, TETHER_CODEX_BIN: join(dir, 'no-such-codex') });
    expect(broken.stdout).toMatch(/^FAIL codex {2}not found\n\s+fix: TETHER_CODEX_BIN points at .*no-such-codex, which is not an executable file/m);
    expect(broken.code).toBe(1);

    // A Codex newer than the range (a stand-in that answers --version as Codex does, then exits 3).
    const newer = join(dir, 'codex');
    writeFileSync(newer, '#!/bin/sh\nif [ "$1" = --version ]; then echo "codex-cli 99.0.0"; exit 0; fi\necho "stand-in codex ran"\nexit 3\n');
    chmodSync(newer, 0o755);
    const range = `${SUPPORTED_CODEX.floor}–${SUPPORTED_CODEX.current}`;
    const warning = `tether: codex 99.0.0 is newer than tether is tested with (${range}); it usually works, and \`bun run codex:check\` tries it`;
    const doctor = await runTether(['doctor'], { ...env, TETHER_CODEX_BIN: newer });
    expect(doctor.stdout).toContain(`ok   codex  codex-cli 99.0.0 (${newer}), outside the tested ${range} range\n       fix: ${warning}\n`);
    expect(doctor.code).toBe(0);

    // `tether codex` says so once, before Codex takes the terminal, and still runs it (no hub here).
    const session = await runTether(['codex'], { TETHER_HOME: join(dir, 'home-run'), TETHER_HUB_URL: '', TETHER_TOKEN: '', TETHER_CODEX_BIN: newer });
    expect(session.stderr.split('\n')[0]).toBe(warning);
    expect(session.stderr.split(warning).length).toBe(2);
    expect(session.stdout + session.stderr).toContain('stand-in codex ran');
    expect(session.code).toBe(3);
  }, 60_000);

  it('set-model from the hub types /model at an idle prompt and confirms it', async () => {
    const { runner, phone } = await startWorld(defer);
    // The phone hears that the command finished, after the model it set (the chip's spinner ends then).
    const finished = new Promise<{ fact: unknown; modelThen: string | null | undefined }>((resolve) => {
      phone.socket.on('session:command-finished', (fact: { sessionId: string }) => {
        if (fact.sessionId === runner.sessionId) resolve({ fact, modelThen: phone.session()?.model });
      });
    });
    const ack = await phone.emit('session:set-model', { sessionId: runner.sessionId, model: 'sonnet' });
    expect(ack.ok).toBe(true);
    await phone.waitFor(() => phone.session()?.model === 'sonnet', { what: 'model confirmed' });
    await runner.waitForScreen(/Set model to/i);
    expect(await finished).toEqual({ fact: { sessionId: runner.sessionId, command: '/model', args: 'sonnet', outcome: 'applied' }, modelThen: 'sonnet' });
  }, 60_000);

  it('/model typed at the desk while the Stop hooks still run: the session follows the model that answers the next turn', async () => {
    // claude 2.1.331 queues a command typed before its Stop hooks end, switches the model, and writes
    // neither the command nor its output (2.1.197 writes both). A Stop hook of the user's own that
    // takes 3 s holds the turn open; the cache is warm, so claude asks "Switch model?" first.
    const warm = (reply: string) => ({ ...text(reply), cacheReadTokens: 50_000 });
    const stage = await startStage(defer, { script: [warm('first answer'), warm('second answer')] });
    writeFileSync(join(stage.sandbox.configDir, 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sleep 3' }] }] } }));
    const runner = stage.startRunner();
    const phone = await stage.startWatch(runner.sessionId);
    await runner.waitForScreen(DESK_READY);
    const typeLine = async (line: string) => {
      runner.write(line);
      await runner.waitForScreen(line);
      runner.write('\r');
    };
    await typeLine('hello');
    await runner.waitForScreen(/● first answer/, { timeoutMs: 30_000 });
    const before = await phone.waitFor(() => phone.session()?.model, { what: 'the model of the first turn' });
    expect(before).not.toMatch(/sonnet/);
    await typeLine('/model sonnet');
    await runner.waitForScreen(/Switch model\?/, { timeoutMs: 30_000 });
    runner.write('\r');
    await runner.waitForScreen(/Set model to/, { timeoutMs: 30_000 });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the switch' });
    await typeLine('again');
    await runner.waitForScreen(/● second answer/, { timeoutMs: 30_000 });
    const asked = stage.fake.mainRequests().at(-1)?.model;
    expect(asked).toMatch(/sonnet/);
    await phone.waitFor(() => phone.session()?.model === asked, { what: `the model that answered (${asked})`, timeoutMs: 15_000 });
  }, 90_000);

  it('effort: read from claude’s footer; the phone and `tether effort` change it through claude’s own /effort', async () => {
    const { hub, runner, phone, tempDir } = await startWorld(defer);
    // Whatever claude starts with (2.1.197: high, 2.1.330: medium), the session shows it.
    await phone.waitFor(() => phone.session()?.effort, { what: 'effort read from the footer' });
    const ack = await phone.emit('session:set-effort', { sessionId: runner.sessionId, level: 'low' });
    expect(ack.ok).toBe(true);
    await phone.waitFor(() => phone.session()?.effort === 'low', { what: 'effort low' });
    await runner.waitForScreen(/low · \/effort/);
    const env = { TETHER_HOME: tempDir('tether-cli-home-'), TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };
    const shown = await runTether(['effort', runner.sessionId], env);
    expect(shown).toMatchObject({ code: 0, stdout: 'low\n' });
    const set = await runTether(['effort', runner.sessionId, 'max'], env);
    expect(set.code).toBe(0);
    await phone.waitFor(() => phone.session()?.effort === 'max', { what: 'effort max' });
    const bad = await runTether(['effort', runner.sessionId, 'turbo'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown effort level "turbo"');
  }, 60_000);

  it('`tether model`: reads the session\'s model, switches it as the phone does (claude\'s /model), refuses what is no model name', async () => {
    const { hub, runner, phone, tempDir } = await startWorld(defer);
    const env = { TETHER_HOME: tempDir('tether-cli-home-'), TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };
    const set = await runTether(['model', runner.sessionId, 'sonnet', '--json'], env);
    expect(set).toMatchObject({ code: 0, stdout: `${JSON.stringify({ sessionId: runner.sessionId, requested: 'sonnet' })}\n` });
    await phone.waitFor(() => phone.session()?.model === 'sonnet', { what: 'model sonnet' });
    await runner.waitForScreen(/Set model to/i);
    expect(await runTether(['model', runner.sessionId, '--json'], env)).toMatchObject({ code: 0, stdout: `${JSON.stringify({ sessionId: runner.sessionId, model: 'sonnet' })}\n` });
    expect(await runTether(['model', runner.sessionId], env)).toMatchObject({ code: 0, stdout: 'sonnet\n' });
    const bad = await runTether(['model', runner.sessionId, 'x'.repeat(201)], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a model name');
  }, 60_000);

  it('permission mode: the phone and `tether mode` switch it as the desk does (Shift+Tab); the session follows claude’s footer', async () => {
    const { hub, runner, phone, tempDir } = await startWorld(defer);
    const env = { TETHER_HOME: tempDir('tether-cli-home-'), TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };
    await phone.waitFor(() => phone.session()?.permissionMode === 'default', { what: 'manual mode read from the footer' });
    expect((await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'plan' })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.permissionMode === 'plan', { what: 'plan mode' });
    await runner.waitForScreen(/plan mode on/);
    // A mode this session was not started allowing is refused, and nothing changes.
    expect((await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'bypassPermissions' })).ok).toBe(true);
    expect((await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'default' })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.permissionMode === 'default', { what: 'back to manual mode' });
    expect(runner.screenText()).not.toMatch(/bypass permissions on/);
    // The CLI asks as the phone does, and reads back what the footer says.
    expect(await runTether(['mode', runner.sessionId, 'acceptEdits'], env)).toMatchObject({ code: 0, stdout: 'asked for acceptEdits mode: the agent switches at its next idle prompt\n' });
    await phone.waitFor(() => phone.session()?.permissionMode === 'acceptEdits', { what: 'accept-edits mode' });
    await runner.waitForScreen(/accept edits on/);
    expect(await runTether(['mode', runner.sessionId], env)).toMatchObject({ code: 0, stdout: 'acceptEdits\n' });
    const bad = await runTether(['mode', runner.sessionId, 'yolo'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown permission mode "yolo"');
  }, 60_000);
});
