// Subagent activity and the session title (real hub, real runner, real claude against the fake API).
// claude runs an Agent tool call offline: the subagent sends its own Messages requests (they carry
// tools, so the script answers them) and writes <project>/<session>/subagents/agent-*.jsonl. Those
// lines reach the chat as sidechain messages with their agentId. claude's ai-title line (the fake
// answers the title side request with SIDE_REPLY_TITLE) becomes the session title on the hub; a
// claude that asks for no title (2.1.330 against a local API) leaves the first prompt as the title.
//
// An agent runs in the foreground (the main thread waits for its result) or in the background (the
// default since 2.1.3xx: the main thread gets "Async agent launched" at once, and claude sends it a
// task notification when the agent is done). In the background the subagent's and the main
// thread's requests race, so their turns are an anyOrder group. claude 2.1.332 launches even a
// `run_in_background: false` call in the background (observed: its tool_dispatch_end ~100 ms after
// the start, the subagent's request and the main thread's ~10 ms apart), 2.1.197 waits for it: the
// first test's script answers both ways, and which one ran does not matter to what it checks.
import { describe, expect, it } from 'vitest';
import { anyOrder, hasToolResult, SIDE_REPLY_TITLE, text, toolUse, userSays, when, type RequestMatcher, type ScriptTurn } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { DESK_READY, startWorld } from '../harness/world.ts';
import type { PendingRequest } from '@tether/shared';

const defer = useCleanups();

const delegate = (options: { background: boolean }) =>
  when(
    userSays(/please delegate/),
    toolUse('Agent', { description: 'Say hello', prompt: 'SUBAGENT-TASK: say hello', subagent_type: 'general-purpose', run_in_background: options.background }),
  );

/** claude tells the main thread a background agent finished (a system-notification message). */
const notified: RequestMatcher = (request) => {
  const answered = request.messages.findLastIndex((message) => message.role === 'assistant');
  return JSON.stringify(request.messages.slice(answered + 1)).includes('<task-notification>');
};

async function startDelegating(script: ScriptTurn[]) {
  const world = await startWorld(defer, { script, ready: false });
  // The phone allows whatever is asked (the Agent call).
  world.phone.socket.on('approval:requested', (r: PendingRequest) => {
    void world.phone.emit('approval:answer', { requestId: r.id, answer: { decision: 'allow' } });
  });
  await world.runner.waitForScreen(DESK_READY);
  return world;
}

describe('subagents and title', () => {
  it('a subagent’s lines reach the chat as sidechain messages; the ai-title names the session', async () => {
    const { hub, runner: desk, phone, fake } = await startDelegating([
      delegate({ background: false }),
      // Foreground: the subagent asks first, then the main thread with the agent's result. Launched
      // in the background anyway: the two race, and a notification follows.
      anyOrder(
        when(userSays(/SUBAGENT-TASK/), text('sub-hello from the agent')),
        when(hasToolResult({ isError: false }), text('the agent said hello')),
      ),
      when(notified, text('noted')),
    ]);
    const folderTitle = phone.session()?.title;

    await phone.send('please delegate this');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m) === 'the agent said hello'), { what: 'main reply after the agent', timeoutMs: 30_000 });
    const sub = await phone.waitFor(() => phone.messages().find((m) => m.sidechain && chatText(m) === 'sub-hello from the agent'), {
      what: 'subagent reply in the chat',
    });
    expect(sub.agentId).toBeTruthy();
    // The subagent's own prompt is a sidechain user line of the same agent, never a main-thread prompt.
    const subPrompt = phone.messages().find((m) => m.sidechain && m.role === 'user' && chatText(m).includes('SUBAGENT-TASK'));
    expect(subPrompt?.agentId).toBe(sub.agentId);
    expect(phone.messages().filter((m) => !m.sidechain && m.role === 'user').map(chatText).filter((t) => t)).toEqual(['please delegate this']);
    expect(phone.duplicates()).toBe(0);

    // claude 2.1.197 asks the API for a title (a tool-less side request the fake answers); 2.1.330
    // asks for none against a local API, and then the first prompt stands in.
    const expected = fake.requests.some((r) => r.kind === 'side') ? SIDE_REPLY_TITLE : 'please delegate this';
    await phone.waitFor(() => phone.session()?.title === expected, { what: `title "${expected}" on the hub` });
    expect(folderTitle).not.toBe(expected);
    expect((await hub.store.getSession({ namespace: hub.namespace, sessionId: desk.sessionId }))?.title).toBe(expected);
  }, 90_000);

  it('a background agent: the main turn ends at once, the agent’s lines arrive later, and its completion notice is no prompt of the user', async () => {
    const { phone, fake } = await startDelegating([
      delegate({ background: true }),
      anyOrder(
        // The subagent answers late, so the main thread's turn ends before the agent does.
        when(userSays(/SUBAGENT-TASK/), { ...text('sub-hello from the agent'), delayMs: 3_000 }),
        when(hasToolResult({ isError: false }), text('the agent is on it')),
      ),
      when(notified, text('the agent said hello')),
    ]);

    await phone.send('please delegate this');
    await phone.waitFor(() => phone.messages().find((m) => !m.sidechain && chatText(m) === 'the agent is on it'), { what: 'main reply while the agent works', timeoutMs: 30_000 });
    await phone.waitFor(() => phone.messages().find((m) => m.sidechain && chatText(m) === 'sub-hello from the agent'), { what: 'subagent reply in the chat', timeoutMs: 30_000 });
    await phone.waitFor(() => phone.messages().find((m) => !m.sidechain && chatText(m) === 'the agent said hello'), { what: 'main reply to the notification', timeoutMs: 30_000 });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the notified turn' });

    expect(fake.requests.find((r) => r.turnIndex === 2)?.reply).toBeDefined();
    // Only what the person typed is a user prompt in the chat: the task notification is claude's.
    expect(phone.messages().filter((m) => !m.sidechain && m.role === 'user').map(chatText).filter((t) => t)).toEqual(['please delegate this']);
    expect(phone.messages().some((m) => chatText(m).includes('task-notification'))).toBe(false);
    expect(phone.duplicates()).toBe(0);
  }, 90_000);
});
