// A Gemini CLI session started from the phone on a machine running `tether daemon`: the daemon reports
// the agents it found installed (claude and Gemini here) with what each can do, the phone asks for Gemini
// (in a PTY, with a model: `-m`), the session is ready and answers, and it ends from the phone.
import { describe, expect, it } from 'vitest';
import type { Machine } from '@tether/shared';
import { lastUserText, text } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startGeminiDaemonWorld } from '../harness/gemini-world.ts';
import { emitAck } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { agentFor } from '../../cli/src/agents/index.ts';

const defer = useCleanups();

describe('Gemini from the phone', () => {
  it('the daemon lists Gemini; a PTY Gemini session starts from the phone, answers, and ends from it', async () => {
    const { hub, daemon, phone, spawn, fake } = await startGeminiDaemonWorld(defer, { script: [(request) => text(`gemini from afar: ${lastUserText(request)}`)] });
    const listed = (await (await fetch(`${hub.url}/api/machines`, { headers: { authorization: `Bearer ${hub.token}` } })).json()) as { machines: Machine[] };
    const machine = listed.machines.find((m) => m.id === daemon.machineId());
    expect(machine?.agents).toContain('gemini');
    expect(machine?.capabilities?.gemini).toEqual(agentFor('gemini').capabilities);

    const { session, watch } = await spawn({ model: 'gemini-phone-choice' });
    expect(session).toMatchObject({ agent: 'gemini', launchKind: 'pty', machineId: daemon.machineId() });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle', timeoutMs: 60_000 });
    expect(watch.session()?.capabilities).toEqual(agentFor('gemini').capabilities);
    // Idle means its SessionStart hook ran too (the runner's start gate): the prompt goes at once.
    await watch.send('hello over there');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'gemini from afar: hello over there'), { what: 'the reply' });
    // The model the phone asked for went on Gemini's command line (a name no Gemini version aliases:
    // 0.58.0 maps gemini-2.5-flash to gemini-3.5-flash itself).
    expect(fake.requests.find((r) => r.kind === 'main')?.path).toContain('/models/gemini-phone-choice:');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn' });
    expect((await emitAck(phone, 'session:stop', { sessionId: session.id }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
  }, 120_000);
});
