// live-commands.test.ts: session:set-model, set-effort and set-mode against a real hub on port 0 with
// real socket.io clients. What a session takes is what its runner stated (its capabilities), in its
// launch kind; a level the agent lacks is asked as the one it maps to; a runner that stated nothing
// (older than capabilities) has nothing switched. The hub never looks at the agent's name.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AgentCapabilities } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

/** An agent that switches model and effort in a headless session only, with no modes (Codex's shape). */
const TURN_SWITCHED: AgentCapabilities = {
  displayName: 'Turny',
  description: '',
  models: { offered: [], typed: true, example: null, switchableIn: ['headless'] },
  effort: { levels: ['low', 'medium', 'high', 'xhigh'], maps: { max: 'xhigh' }, switchableIn: ['headless'] },
  modes: { values: [], switchableIn: [] },
  resumeCommand: 'turny resume {id}',
  relays: { requests: ['permission'], editedInput: false, sessionRules: false },
};
/** One that offers named models only and two modes, in both launch kinds. */
const NAMED: AgentCapabilities = {
  ...TURN_SWITCHED,
  displayName: 'Named',
  models: { offered: ['small', 'large'], typed: false, example: null, switchableIn: ['pty', 'headless'] },
  effort: { levels: [], maps: {}, switchableIn: [] },
  modes: { values: ['default', 'plan'], switchableIn: ['pty', 'headless'] },
};

const live = hubUnderTest({ home: 'tether-live-commands-', label: 'phone-token' });
const { connect, ack } = live;

/** A runner socket registered with `capabilities` (omitted: an older runner's registration), and what it is sent. */
async function runner(options: { launchKind: 'pty' | 'headless'; capabilities?: AgentCapabilities }) {
  const socket = await connect({ nsp: '/cli' });
  const id = randomUUID();
  const heard: Array<{ event: string; payload: Record<string, unknown> }> = [];
  // The commands only (a runner hears terminal:viewers and others too).
  socket.onAny((event: string, payload: Record<string, unknown>) => event.startsWith('session:') && heard.push({ event, payload }));
  const registration = { id, launchKind: options.launchKind, agent: 'codex', status: 'idle', ...(options.capabilities ? { capabilities: options.capabilities } : {}) };
  expect((await live.register(socket, registration)).ok).toBe(true);
  return { id, heard };
}

async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !check(); ) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('live commands follow the session\'s capabilities', () => {
  it('forwards what the agent takes in its launch kind, asking a level it lacks as the one it maps to', async () => {
    const { id, heard } = await runner({ launchKind: 'headless', capabilities: TURN_SWITCHED });
    const phone = await connect({ nsp: '/web' });
    expect(await ack(phone, 'session:set-model', { sessionId: id, model: 'gpt-fake' })).toMatchObject({ ok: true });
    expect(await ack(phone, 'session:set-effort', { sessionId: id, level: 'max' })).toMatchObject({ ok: true });
    await until(() => heard.length >= 2);
    expect(heard).toEqual([
      { event: 'session:set-model', payload: { sessionId: id, model: 'gpt-fake' } },
      { event: 'session:set-effort', payload: { sessionId: id, level: 'xhigh' } },
    ]);
    expect(await ack(phone, 'session:set-mode', { sessionId: id, mode: 'plan' })).toEqual({ ok: false, code: 'bad_request', error: 'Turny sessions do not switch mode from here' });
  });

  it('refuses a switch in the other launch kind, a level it has not, a mode or a model it does not offer', async () => {
    const pty = await runner({ launchKind: 'pty', capabilities: TURN_SWITCHED });
    const named = await runner({ launchKind: 'pty', capabilities: NAMED });
    const phone = await connect({ nsp: '/web' });
    expect(await ack(phone, 'session:set-model', { sessionId: pty.id, model: 'gpt-fake' })).toEqual({ ok: false, code: 'bad_request', error: 'Turny switches model from here in a headless session only' });
    expect(await ack(phone, 'session:set-effort', { sessionId: pty.id, level: 'low' })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await ack(phone, 'session:set-model', { sessionId: named.id, model: 'huge' })).toEqual({ ok: false, code: 'bad_request', error: 'Named takes only these models: small, large' });
    expect(await ack(phone, 'session:set-mode', { sessionId: named.id, mode: 'acceptEdits' })).toEqual({ ok: false, code: 'bad_request', error: 'Named has no permission mode acceptEdits' });
    expect(await ack(phone, 'session:set-model', { sessionId: named.id, model: 'large' })).toMatchObject({ ok: true });
    expect(await ack(phone, 'session:set-mode', { sessionId: named.id, mode: 'plan' })).toMatchObject({ ok: true });
    await until(() => named.heard.length >= 2);
    expect(named.heard.map((h) => h.event)).toEqual(['session:set-model', 'session:set-mode']);
    expect(pty.heard).toEqual([]);
  });

  it('switches nothing for a session whose runner stated no capabilities (older than them), and still aborts', async () => {
    const { id, heard } = await runner({ launchKind: 'pty' });
    const phone = await connect({ nsp: '/web' });
    // Its record says so to the web, which then offers no picker.
    expect(await ack(phone, 'session:watch', { sessionId: id })).toMatchObject({ ok: true, session: { id, capabilities: null } });
    for (const [event, payload] of [
      ['session:set-model', { sessionId: id, model: 'opus' }],
      ['session:set-effort', { sessionId: id, level: 'low' }],
      ['session:set-mode', { sessionId: id, mode: 'plan' }],
    ] as const) {
      expect(await ack(phone, event, payload)).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('its runner stated no capabilities') });
    }
    expect(await ack(phone, 'session:abort', { sessionId: id })).toMatchObject({ ok: true });
    await until(() => heard.length >= 1);
    expect(heard.map((h) => h.event)).toEqual(['session:abort']);
  });

  it('refuses a registration whose capabilities break the schema, storing nothing', async () => {
    const socket = await connect({ nsp: '/cli' });
    const id = randomUUID();
    const capabilities = { ...TURN_SWITCHED, models: { ...TURN_SWITCHED.models, offered: Array.from({ length: 50 }, (_, i) => `m${i}`) } };
    expect(await ack(socket, 'session:register', { id, cwd: '/work', launchKind: 'headless', status: 'idle', capabilities })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await live.hub.store.getSession({ namespace: 'alpha', sessionId: id })).toBeNull();
  });
});
