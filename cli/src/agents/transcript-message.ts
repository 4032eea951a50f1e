// transcript-message.ts: one chat message as an agent's transcript reader gives it to the hub, from
// what a line of that transcript said (Codex's rollout, Gemini's session file). Bounded the same way
// for every agent: an id the hub takes (at most 128 characters), a time the line stated or now.
import type { ChatMessageInput, ContentBlock } from '@tether/shared';

/** What a reader knows of one message from its transcript line. */
export type TranscriptMessageFields = {
  id: string;
  role: ChatMessageInput['role'];
  content: ContentBlock[];
  /** The line's own timestamp (ISO text); anything else reads as now. */
  at: unknown;
  promptId?: string | null;
};

export function transcriptMessage(fields: TranscriptMessageFields & { agentSessionId: string | null }): ChatMessageInput {
  const stated = typeof fields.at === 'string' ? Date.parse(fields.at) : Number.NaN;
  return {
    id: fields.id.slice(0, 128),
    role: fields.role,
    content: fields.content,
    createdAt: Number.isNaN(stated) ? Date.now() : stated,
    promptId: fields.promptId ?? null,
    agentSessionId: fields.agentSessionId,
  };
}
