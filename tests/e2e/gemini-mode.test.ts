// A PTY Gemini's mode from the phone and `tether mode` (issue 41), with the real Gemini TUI. Gemini runs
// in yolo behind tether's BeforeTool hook, so its mode is that gate's policy (agents/gemini/gate.ts):
// switched to plan from the hub, a write is refused without asking anyone (the model reads why, the
// file is not written); switched back to default with `tether mode`, the same write is asked on the
// phone. The desk's Shift+Tab is read back from Gemini's mode row, and a switch from the phone puts
// Gemini back in yolo (Ctrl+Y). Runs at the pin, and at the 0.58.0 floor with TETHER_GEMINI_BIN.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasToolResponse, lastToolResponses, text, userSays, when, writeFile } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { runTether, waitForRunnerLog } from '../harness/runner.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';
import { GEMINI_READY } from '../harness/gemini.ts';

const defer = useCleanups();

/** The project folder Gemini's context names (the fake writes there). */
const projectOf = (request: unknown) => String(JSON.stringify(request).match(/"(\/[^"]*project)\\n?/)?.[1] ?? '');

describe('tether gemini: its mode from the phone is its gate', () => {
  it('plan from the hub → a write is refused without asking; default from `tether mode` → asked on the phone; the desk’s Shift+Tab is read back', async () => {
    const { fake, runner, phone, sandbox, hub } = await startGeminiWorld(defer, {
      script: [
        when(userSays('plan write'), (request) => writeFile(join(projectOf(request), 'planned.txt'), 'no\n')),
        when(hasToolResponse(/plan mode/), text('refused in plan')),
        when(userSays('asked write'), (request) => writeFile(join(projectOf(request), 'asked.txt'), 'yes\n')),
        when(hasToolResponse(), text('written after asking')),
      ],
    });
    const env = { TETHER_HOME: join(sandbox.home, 'tether-cli'), TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };
    await phone.waitFor(() => phone.session()?.permissionMode === 'default', { what: 'default mode' });
    expect(phone.session()?.capabilities?.modes).toEqual({ values: ['default', 'acceptEdits', 'plan', 'bypassPermissions'], switchableIn: ['pty'] });

    expect((await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'plan' })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.permissionMode === 'plan', { what: 'plan mode' });
    // Gemini itself stays in yolo: the gate is the mode.
    expect(runner.screenText()).toMatch(/YOLO/);
    await phone.send('plan write');
    await runner.waitForScreen('refused in plan');
    const refused = fake.mainRequests().flatMap(lastToolResponses).find((o) => o.name === 'write_file');
    expect(refused?.output).toContain('plan mode (read-only)');
    expect(existsSync(join(sandbox.cwd, 'planned.txt'))).toBe(false);
    expect(phone.requested).toEqual([]);

    expect(await runTether(['mode', runner.sessionId, 'default'], env)).toMatchObject({ code: 0 });
    await phone.waitFor(() => phone.session()?.permissionMode === 'default', { what: 'back to default' });
    expect(await runTether(['mode', runner.sessionId], env)).toMatchObject({ code: 0, stdout: 'default\n' });
    await phone.send('asked write');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'permission'), { what: 'the write asked on the hub' });
    expect(request).toMatchObject({ toolName: 'Write' });
    expect((await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await runner.waitForScreen('written after asking');
    expect(existsSync(join(sandbox.cwd, 'asked.txt'))).toBe(true);
    // Asked once: Gemini drew no dialog of its own after the allow (it stayed in yolo).
    expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]);

    // The desk's Shift+Tab takes Gemini out of yolo into its auto-accept edits: read back.
    await runner.waitForScreen(GEMINI_READY);
    runner.write('\x1b[Z');
    await phone.waitFor(() => phone.session()?.permissionMode === 'acceptEdits', { what: 'the desk’s mode read back' });
    // A switch from the phone puts Gemini back in yolo (its own policy would ask again otherwise).
    expect((await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'plan' })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.permissionMode === 'plan', { what: 'plan again' });
    await runner.waitForScreen(/YOLO/);
  }, 150_000);

  it('a mode it does not offer is refused by the hub; bypass is refused by the runner unless started in yolo', async () => {
    const { runner, phone } = await startGeminiWorld(defer);
    const auto = await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'auto' });
    expect(auto).toMatchObject({ ok: false, error: 'Gemini has no permission mode auto' });
    expect((await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'bypassPermissions' })).ok).toBe(true);
    await waitForRunnerLog(runner, /mode switch to bypassPermissions refused: the session was not started allowing it/);
    expect(phone.session()?.permissionMode).toBe('default');
    expect((await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'acceptEdits' })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.permissionMode === 'acceptEdits', { what: 'accept edits' });
  }, 90_000);
});
