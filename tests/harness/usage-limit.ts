// usage-limit.ts (harness): what the usage-limit e2e tests of every agent share: a script turn that
// answers the first prompt with the limit (reset a few seconds later, the time kept for the test),
// the phone's answer to the agent's own question at the limit after the reset, and the check that
// the session went on once after it.
import { expect } from 'vitest';
import { chatText, type SessionWatch } from './runner.ts';

/** The reset the fake announced, set when the limited turn is taken. */
export function limitClock(options: { inMs: number }) {
  let resetsAt = 0;
  return {
    /** Call from the script's turn: the reset from now on. */
    start: () => (resetsAt = Date.now() + options.inMs),
    resetsAt: () => resetsAt,
  };
}

/** After `after` (epoch ms), answer the dialog the agent raised at the limit with the option `pick`. */
export async function answerLimitDialog(phone: SessionWatch, o: { title: RegExp; pick: RegExp; after: number; what: string }): Promise<void> {
  const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog' && o.title.test(String(r.toolInput.title))), { what: o.what });
  await Bun.sleep(Math.max(0, o.after + 1_500 - Date.now()));
  const option = (dialog.toolInput.options as Array<{ key: string; label: string }>).find((x) => o.pick.test(x.label.trim()));
  expect((await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: option!.key } })).ok).toBe(true);
}

/** The session went on after the reset: its reply in the chat after `resetsAt`, the limit cleared,
 *  and a few quiet seconds later still exactly one model request after the limited one. */
export async function expectWentOnOnce(o: { phone: SessionWatch; reply: string; resetsAt: number; mainRequests: () => Array<{ receivedAt: number; headers?: Record<string, string>; outcome?: string; lastUserText?: string }> }): Promise<void> {
  const { phone } = o;
  const reply = await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes(o.reply)), { timeoutMs: 120_000, what: 'the session going on after the reset' });
  expect(reply.createdAt).toBeGreaterThanOrEqual(o.resetsAt);
  await phone.waitFor(() => phone.session()?.limit === null, { what: 'the limit cleared by the reply' });
  await Bun.sleep(3_000);
  // Said on failure: when each came and whether the client sent it again itself (a rehearsal saw 3).
  const seen = o.mainRequests().map((r) => `${r.receivedAt - o.resetsAt} ms after the reset, retry ${r.headers?.['x-stainless-retry-count'] ?? '-'}, ${r.outcome ?? 'open'}, last said ${JSON.stringify(r.lastUserText?.slice(0, 60))}`);
  expect(o.mainRequests(), seen.join('; ')).toHaveLength(2);
  expect(o.mainRequests()[1]!.receivedAt).toBeGreaterThanOrEqual(o.resetsAt);
}
