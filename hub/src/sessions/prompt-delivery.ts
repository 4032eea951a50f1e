// prompt-delivery.ts: prompts a remote client wants typed into claude. The hub stores each one as
// `queued` and hands it to the runner; the runner reports typing/delivered/returned/dropped.
// Until it is handed over (a runner of the session is there, or comes back) the hub holds it, and
// the phone may edit or withdraw it; hand-over and a change are one statement each in the store,
// so the runner never gets a withdrawn prompt or the text before an edit.
// A prompt's attachments must be this session's uploads; the prompt keeps their refs for the runner.
// Invariant: a prompt id is stored once (a resend returns the stored prompt); a prompt for an ended
// session is refused, never queued for nobody.
import { isFinalStatus, type AttachmentRef, type Namespace, type Prompt, type PromptSend, type PromptStatus } from '@tether/shared';
import type { HeldPromptChange } from '../store/store.ts';
import type { Store } from '../store/store.ts';
import { DROPPED_ON_END } from '../store/rules.ts';

export type QueuePromptResult =
  | { kind: 'queued'; prompt: Prompt; deliver: boolean }
  | { kind: 'not_found' }
  | { kind: 'ended' }
  /** An attachment id that is not this session's (missing, another session's or namespace's). */
  | { kind: 'bad_attachment'; id: string };

export async function queuePrompt(options: { store: Store; namespace: Namespace; send: PromptSend; creatorTokenId: string | null }): Promise<QueuePromptResult> {
  const { store, namespace, send } = options;
  const session = await store.getSession({ namespace, sessionId: send.sessionId });
  if (!session) return { kind: 'not_found' };
  const found = await store.findAttachments({ namespace, sessionId: send.sessionId, ids: send.attachments });
  const byId = new Map(found.map((a) => [a.id, a]));
  const attachments: AttachmentRef[] = [];
  for (const id of send.attachments) {
    const attachment = byId.get(id);
    if (!attachment) return { kind: 'bad_attachment', id };
    attachments.push({ id, name: attachment.name, mediaType: attachment.mediaType, size: attachment.size });
  }
  const now = Date.now();
  const prompt: Prompt = { id: send.promptId, sessionId: send.sessionId, text: send.text, attachments, status: 'queued', reason: null, createdAt: now, updatedAt: now, handedAt: null };
  const result = await store.addPrompt({ namespace, prompt, creatorTokenId: options.creatorTokenId });
  if (result.kind === 'not_found') return { kind: 'not_found' };
  if (result.kind === 'exists') return { kind: 'queued', prompt: result.prompt, deliver: result.prompt.status === 'queued' };
  if (isFinalStatus(session.status)) {
    // Keep the record honest: the sender sees it dropped rather than silently queued.
    const dropped = await store.updatePrompt({ namespace, sessionId: send.sessionId, promptId: send.promptId, ...DROPPED_ON_END, now });
    return dropped ? { kind: 'queued', prompt: dropped, deliver: false } : { kind: 'ended' };
  }
  return { kind: 'queued', prompt: result.prompt, deliver: true };
}

export function updatePromptStatus(options: {
  store: Store;
  namespace: Namespace;
  sessionId: string;
  promptId: string;
  status: PromptStatus;
  reason: string | null;
}): Promise<Prompt | null> {
  return options.store.updatePrompt({ ...options, now: Date.now() });
}

/** What the runner is sent for a prompt. */
export function deliveryOf(prompt: Prompt): { sessionId: string; promptId: string; text: string; attachments: AttachmentRef[] } {
  return { sessionId: prompt.sessionId, promptId: prompt.id, text: prompt.text, attachments: prompt.attachments };
}

/** The prompts to send a runner that is there now: the session's queued ones (or the one named),
 *  marked handed over first, with the text they have then (`all`; a runner that comes back gets
 *  again those it had not started: it ignores an id it has seen), and which of them this call
 *  handed (`newly`: tabs hear that they are no longer the phone's to change). */
export async function handOver(options: { store: Store; namespace: Namespace; sessionId: string; promptId?: string }): Promise<{ all: Prompt[]; newly: Prompt[] }> {
  const now = Date.now();
  const all = await options.store.handOverPrompts({ ...options, now });
  return { all, newly: all.filter((p) => p.handedAt === now) };
}

export type ChangeHeldResult = { kind: 'changed'; prompt: Prompt } | { kind: 'not_found' } | { kind: 'handed'; prompt: Prompt } | { kind: 'empty' };

/** An edit or withdrawal of a prompt the hub still holds. An edit may empty the text only of a
 *  prompt that carries attachments (as prompt:send allows). */
export async function changeHeldPrompt(options: { store: Store; namespace: Namespace; sessionId: string; promptId: string; change: HeldPromptChange }): Promise<ChangeHeldResult> {
  const { store, change } = options;
  if (change.kind === 'edit' && change.text.trim() === '') {
    const current = (await store.listPrompts(options)).find((p) => p.id === options.promptId);
    if (!current) return { kind: 'not_found' };
    if (current.attachments.length === 0) return { kind: 'empty' };
  }
  const result = await store.changeHeldPrompt({ ...options, now: Date.now() });
  return result.kind === 'not_held' ? { kind: 'handed', prompt: result.prompt } : result;
}
