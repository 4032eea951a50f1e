import { describe, expect, it } from 'vitest';
import type { Approvals } from '../requests/approvals.ts';
import { createHeadlessAsking } from './asking.ts';

/** Approvals whose ask waits until the test answers it, or until its signal aborts (then null). */
function fakeApprovals() {
  const asked: Array<{ toolName: string; signal: AbortSignal; answer: (verdict: Awaited<ReturnType<Approvals['ask']>>) => void }> = [];
  const approvals = {
    ask: ({ toolName, signal }) =>
      new Promise((resolve) => {
        asked.push({ toolName, signal, answer: resolve });
        signal.addEventListener('abort', () => resolve(null));
      }),
  } as Pick<Approvals, 'ask'> as Approvals;
  return { approvals, asked };
}

function setup() {
  const cleanups: Array<() => void> = [];
  const { approvals, asked } = fakeApprovals();
  const asking = createHeadlessAsking({ core: { onCleanup: (fn: () => void) => cleanups.push(fn) }, approvals, elicitations: { form: async () => null } });
  return { asking, asked, cleanup: () => cleanups.forEach((fn) => fn()) };
}

const request = (id: string) => ({ id, toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null });

describe('a headless agent asking a person (runner/headless/asking.ts)', () => {
  // The session's status while it waits is the request registry's (session/status.test.ts).
  it('waits while the question is open and hands the transport the answer', async () => {
    const t = setup();
    let settled = false;
    const pending = t.asking.ask(request('r1')).finally(() => (settled = true));
    await expect.poll(() => t.asked.length).toBe(1);
    expect(t.asked[0]!.toolName).toBe('Bash');
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    t.asked[0]!.answer({ behavior: 'deny', message: 'no' });
    expect(await pending).toEqual({ behavior: 'deny', message: 'no' });
    expect(t.asked[0]!.signal.aborted).toBe(false);
  });

  it('says withdrawn, not no, when the agent stopped waiting or the session ended: the transport then answers nothing', async () => {
    const t = setup();
    const first = t.asking.ask(request('a'));
    const second = t.asking.ask(request('b'));
    await expect.poll(() => t.asked.length).toBe(2);
    t.asking.withdraw('a');
    t.asking.withdraw('nobody');
    expect(await first).toBe('withdrawn');
    t.cleanup();
    expect(await second).toBe('withdrawn');
    // Each question was taken back from the person it was put to.
    expect(t.asked.map((a) => a.signal.aborted)).toEqual([true, true]);
  });

  it('passes on null (nobody could be asked) for the transport to refuse, fail closed', async () => {
    const t = setup();
    const pending = t.asking.ask(request('n'));
    await expect.poll(() => t.asked.length).toBe(1);
    t.asked[0]!.answer(null);
    expect(await pending).toBeNull();
  });
});

describe('a headless agent’s MCP form (runner/headless/asking.ts)', () => {
  it('goes to the session’s elicitations; withdrawn when the agent stops waiting', async () => {
    const answers: Array<(answer: { action: 'decline' } | null) => void> = [];
    const asking = createHeadlessAsking({
      core: { onCleanup: () => undefined },
      approvals: fakeApprovals().approvals,
      elicitations: {
        form: ({ signal }) =>
          new Promise((resolve) => {
            answers.push(resolve);
            signal.addEventListener('abort', () => resolve(null));
          }),
      },
    });
    const input = { serverName: 's', message: 'm', requestedSchema: { type: 'object' as const, properties: {} } };
    const first = asking.elicit({ id: 'e1', input });
    await expect.poll(() => answers.length).toBe(1);
    answers[0]!({ action: 'decline' });
    expect(await first).toEqual({ action: 'decline' });
    const second = asking.elicit({ id: 'e2', input });
    asking.withdraw('e2');
    expect(await second).toBe('withdrawn');
  });
});
