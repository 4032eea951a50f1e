// A Codex session started from the phone on a machine running `tether daemon`: the daemon reports
// the agents it found installed (claude and Codex here) with what each can do, the phone asks for Codex in a PTY, the
// session is ready and answers, and it ends from the phone. (Headless Codex: codex-headless.test.ts.)
import { describe, expect, it } from 'vitest';
import type { Machine } from '@tether/shared';
import { lastUserText, text } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexDaemonWorld } from '../harness/codex-world.ts';
import { emitAck } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { agentFor, installedCapabilities } from '../../cli/src/agents/index.ts';

const defer = useCleanups();

describe('Codex from the phone', () => {
  it('the daemon lists Codex; a PTY Codex session starts from the phone, answers, and ends from it', async () => {
    const { hub, daemon, phone, spawn } = await startCodexDaemonWorld(defer, { script: [(request) => text(`codex from afar: ${lastUserText(request)}`)] });

    const listed = (await (await fetch(`${hub.url}/api/machines`, { headers: { authorization: `Bearer ${hub.token}` } })).json()) as { machines: Machine[] };
    const machine = listed.machines.find((m) => m.id === daemon.machineId());
    // claude and Codex, and any other agent the machine has installed (npm test installs Gemini too).
    expect(machine?.agents).toEqual(expect.arrayContaining(['claude', 'codex']));
    // What each can do from the phone, as each agent's room states it (the new-session form's choices).
    // Each as its installed version has it (installedCapabilities).
    expect(machine?.capabilities).toEqual(Object.fromEntries((machine?.agents ?? []).map((kind) => [kind, installedCapabilities({ agent: agentFor(kind), env: process.env })])));

    const { session, watch } = await spawn('pty');
    expect(session).toMatchObject({ agent: 'codex', launchKind: 'pty', machineId: daemon.machineId() });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
    // Its runner registered Codex's capabilities with the session.
    expect(watch.session()?.capabilities).toEqual(agentFor('codex').capabilities);
    await watch.send('hello over there');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'codex from afar: hello over there'), { what: 'the reply' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn' });
    expect((await emitAck(phone, 'session:stop', { sessionId: session.id }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
  }, 90_000);
});
