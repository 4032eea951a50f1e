// chat-ingest.ts: chat messages from a runner's transcript tailer into the store. Idempotent by
// message id (the transcript uuid): a resend after a reconnect stores nothing and reports the seq
// the hub already has, so the runner's outbox can simply resend until acked.
import type { ChatMessage, Namespace, Session } from '@tether/shared';
import type { ChatMessageRecordInput, Store } from '../store/store.ts';

export type IngestResult = { added: ChatMessage[]; lastSeq: number; session: Session };

export async function ingestChatMessages(options: {
  store: Store;
  namespace: Namespace;
  sessionId: string;
  messages: readonly ChatMessageRecordInput[];
}): Promise<IngestResult | null> {
  const result = await options.store.appendMessages(options);
  if (!result) return null;
  const session = await options.store.getSession({ namespace: options.namespace, sessionId: options.sessionId });
  if (!session) return null;
  return { added: result.added, lastSeq: result.lastSeq, session };
}
