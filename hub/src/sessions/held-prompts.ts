// held-prompts.ts: the phone's edit and withdrawal of a prompt the hub still holds (queued while no
// runner of its session was there). The store refuses once the prompt was handed over; every tab
// hears the change as prompt.updated.
//
//   client ─prompt:edit / prompt:withdraw─► here ─► store.changeHeldPrompt ─► facts (prompt.updated)
import { ackError, type Ack, type Namespace, type Prompt, type PromptEdit, type PromptWithdraw, type WebAcks } from '@tether/shared';
import type { FactBus } from '../facts/facts.ts';
import type { HeldPromptChange, Store } from '../store/store.ts';
import { changeHeldPrompt } from './prompt-delivery.ts';

/** Why a prompt can no longer be changed, in the words its status allows. */
function tooLate(prompt: Prompt): string {
  if (prompt.status === 'queued') return 'the prompt was already handed to the runner: it can no longer be edited or withdrawn';
  return `the prompt is no longer queued (${prompt.status}${prompt.reason ? `: ${prompt.reason}` : ''})`;
}

export function createHeldPrompts(deps: { store: Store; facts: FactBus }) {
  const change = async (ns: Namespace, ref: PromptWithdraw, what: HeldPromptChange): Promise<Ack<{ prompt: Prompt }>> => {
    const result = await changeHeldPrompt({ store: deps.store, namespace: ns, sessionId: ref.sessionId, promptId: ref.promptId, change: what });
    if (result.kind === 'not_found') return ackError('not_found', 'no such prompt');
    if (result.kind === 'empty') return ackError('bad_request', 'a prompt needs text or an attachment');
    if (result.kind === 'handed') return ackError('conflict', tooLate(result.prompt));
    deps.facts.publish('prompt.updated', { namespace: ns, prompt: result.prompt });
    return { ok: true, prompt: result.prompt };
  };
  return {
    /** What a tab that (re)opens a session's chat is given of its prompts: those still queued. */
    queuedPrompts: (ns: Namespace, sessionId: string): Promise<Prompt[]> => deps.store.listPrompts({ namespace: ns, sessionId, status: 'queued' }),
    editPrompt: (ns: Namespace, edit: PromptEdit): Promise<Ack<WebAcks['prompt:edit']>> => change(ns, edit, { kind: 'edit', text: edit.text }),
    withdrawPrompt: (ns: Namespace, ref: PromptWithdraw): Promise<Ack<WebAcks['prompt:withdraw']>> => change(ns, ref, { kind: 'withdraw' }),
  };
}
