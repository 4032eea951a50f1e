// A PTY Codex's model and effort switched from the phone (the real Codex TUI against the fake
// Responses API, a real hub): the runner drives Codex's `/model` picker key by key
// (agents/codex/model-picker.ts), the session says the new model and effort, and the next request
// Codex sends names them. "This session only": the user's config.toml is not written. A model Codex
// does not list is refused at the picker and the phone hears the old one is kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionCommandFinished } from '@tether/shared';
import { text } from '../fixtures/fake-openai/index.ts';
import { CODEX_READY } from '../harness/codex.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexWorld } from '../harness/codex-world.ts';

const defer = useCleanups();
/** Listed by both pinned versions' pickers (0.169.0 fourth, 0.171.0 seventh): the arrows walk there. */
const LISTED = 'gpt-6-luna';

describe('tether codex: model and effort from the phone (PTY)', () => {
  it('the phone switches model, then effort; the next request names both; config.toml untouched', async () => {
    const { fake, runner, phone, sandbox } = await startCodexWorld(defer, { script: [text('switched reply')] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    expect(phone.session()?.capabilities?.models.switchableIn).toContain('pty');
    const config = readFileSync(join(sandbox.codexHome, 'config.toml'), 'utf8');
    const finished: SessionCommandFinished[] = [];
    phone.socket.on('session:command-finished', (fact: SessionCommandFinished) => {
      finished.push(fact);
      phone.changed();
    });

    expect(await phone.emit('session:set-model', { sessionId: runner.sessionId, model: LISTED })).toMatchObject({ ok: true });
    await phone.waitFor(() => finished.find((f) => f.args === LISTED), { what: 'the model switch finished', timeoutMs: 30_000 });
    expect(finished).toEqual([expect.objectContaining({ command: '/model', args: LISTED, outcome: 'applied' })]);
    await phone.waitFor(() => phone.session()?.model === LISTED, { what: 'the session names the new model' });

    expect(await phone.emit('session:set-effort', { sessionId: runner.sessionId, level: 'high' })).toMatchObject({ ok: true });
    await phone.waitFor(() => phone.session()?.effort === 'high', { what: 'the session names the new effort', timeoutMs: 30_000 });
    expect(phone.session()?.model).toBe(LISTED);
    await runner.waitForScreen(CODEX_READY);

    const sent = await phone.send('which model are you?');
    expect(sent.ok).toBe(true);
    const request = await fake.waitForRequest((r) => r.body?.model === LISTED && (r.body as { reasoning?: { effort?: string } }).reasoning?.effort === 'high', { timeoutMs: 30_000 });
    expect(JSON.stringify(request.body)).toContain('which model are you?');
    expect(readFileSync(join(sandbox.codexHome, 'config.toml'), 'utf8')).toBe(config);
    // Nothing of the picker reached the phone as a dialog to answer.
    expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]);
  });

  it('a model Codex does not list is refused at its picker: the phone hears it kept, and Codex goes on', async () => {
    const { runner, phone } = await startCodexWorld(defer, { script: [text('still here')] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    const finished: SessionCommandFinished[] = [];
    phone.socket.on('session:command-finished', (fact: SessionCommandFinished) => {
      finished.push(fact);
      phone.changed();
    });
    const before = phone.session()?.model;
    expect(await phone.emit('session:set-model', { sessionId: runner.sessionId, model: 'gpt-not-listed' })).toMatchObject({ ok: true });
    await phone.waitFor(() => finished.length > 0, { what: 'the switch finished', timeoutMs: 30_000 });
    expect(finished).toEqual([expect.objectContaining({ args: 'gpt-not-listed', outcome: 'kept' })]);
    expect(phone.session()?.model).toBe(before);
    await runner.waitForScreen(CODEX_READY);
    const sent = await phone.send('are you there?');
    expect(sent.ok).toBe(true);
    await runner.waitForScreen('still here');
  });
});
