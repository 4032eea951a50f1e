// Who is in control (real hub, real runner with a desk TTY, real claude against the fake API):
// keystrokes at the desk make the desk the controller, a terminal's automatic replies do not; a
// prompt from the phone, an approval answered on the phone and the phone's terminal input make it
// remote. deskAttached is true while `tether claude` runs with a TTY.
import { describe, expect, it } from 'vitest';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { DESK_READY, startWorld } from '../harness/world.ts';

const defer = useCleanups();

describe('controller', () => {
  it('desk typing → desk; phone prompt, remote approval and phone terminal input → remote', async () => {
    const { runner: desk, phone } = await startWorld(defer, {
      script: [
        when(userSays(/from the desk/), text('desk answer')),
        when(userSays(/from the phone/), text('phone answer')),
        when(userSays(/run it/), toolUse('Bash', { command: 'touch controller-ok.txt', description: 'a file claude asks about' })),
        when(hasToolResult({ isError: false }), text('ran it')),
      ],
      ready: false,
    });

    await desk.waitForScreen(DESK_READY);
    expect(phone.session()?.deskAttached).toBe(true);
    expect(phone.session()?.controller).toBeNull();
    // Focus-in and a cursor report are the terminal talking, not a person: no controller yet.
    desk.write('\x1b[I\x1b[5;1R');
    desk.write('from the desk');
    await desk.waitForScreen('from the desk');
    desk.write('\r');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m) === 'desk answer'), { what: 'desk answer' });
    await phone.waitFor(() => phone.session()?.controller === 'desk', { what: 'controller desk' });

    await phone.send('from the phone');
    await phone.waitFor(() => phone.session()?.controller === 'remote', { what: 'controller remote after a phone prompt' });
    await phone.waitFor(() => phone.messages().find((m) => chatText(m) === 'phone answer'), { what: 'phone answer' });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle' });

    // The desk asks for a tool; the phone approves it.
    await desk.waitForScreen(DESK_READY);
    desk.write('run it');
    await desk.waitForScreen('run it');
    desk.write('\r');
    await phone.waitFor(() => phone.session()?.controller === 'desk', { what: 'controller desk again' });
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'Bash approval request', timeoutMs: 20_000 });
    const answered = await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    expect(answered.ok).toBe(true);
    await phone.waitFor(() => phone.session()?.controller === 'remote', { what: 'controller remote after a remote approval' });
    await phone.waitFor(() => phone.messages().find((m) => chatText(m) === 'ran it'), { what: 'tool ran' });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the tool' });

    // Desk keystroke, then the phone types into the terminal.
    await desk.waitForScreen(DESK_READY);
    desk.write('x');
    await phone.waitFor(() => phone.session()?.controller === 'desk', { what: 'controller desk after a keystroke' });
    expect((await phone.emit('terminal:subscribe', { sessionId: desk.sessionId })).ok).toBe(true);
    expect((await phone.emit('terminal:input', { sessionId: desk.sessionId, data: '\x7f' })).ok).toBe(true);
    await phone.waitFor(() => phone.session()?.controller === 'remote', { what: 'controller remote after phone terminal input' });
    expect(phone.session()?.deskAttached).toBe(true);
  }, 90_000);
});
