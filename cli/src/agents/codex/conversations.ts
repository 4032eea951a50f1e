// conversations.ts: Codex's saved conversations for the daemon's outside index (agents/conversations.ts):
// its rollouts, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<thread id>.jsonl` (AGENT-CLIS.md), the
// TUI's and `codex exec`'s alike. The first line (session_meta) names the thread and its cwd; the
// title is the first message the person sent (an item_completed UserMessage, or an older
// user_message event), never Codex's own context messages.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isUuid } from '@tether/shared';
import { headObjects, textParts, titleOf, type ConversationSource } from '../conversations.ts';

function personSaid(line: Record<string, unknown>): string | null {
  if (line.type !== 'event_msg') return null;
  const payload = line.payload as { type?: unknown; message?: unknown; item?: { type?: unknown; content?: unknown } } | undefined;
  if (payload?.type === 'user_message' && typeof payload.message === 'string') return payload.message;
  if (payload?.type === 'item_completed' && payload.item?.type === 'UserMessage') return textParts(payload.item.content, 'text') || null;
  return null;
}

export const codexConversations: ConversationSource = {
  roots: (env) => [join(env.CODEX_HOME || join(env.HOME || homedir(), '.codex'), 'sessions')],
  depth: 3,
  isConversation: (name) => name.startsWith('rollout-') && name.endsWith('.jsonl'),
  // session_meta carries Codex's whole base instructions (tens of KB).
  headBytes: 256 * 1024,
  readHead({ head }) {
    let thread: string | null = null;
    let folder: string | null = null;
    let said: string | null = null;
    for (const line of headObjects(head)) {
      const payload = line.payload as { id?: unknown; cwd?: unknown } | undefined;
      if (line.type === 'session_meta' && !thread && typeof payload?.id === 'string' && typeof payload.cwd === 'string') {
        thread = payload.id;
        folder = payload.cwd;
      }
      said ??= personSaid(line);
    }
    if (!thread || !folder || !isUuid(thread)) return null;
    return { agentSessionId: thread, folder, title: titleOf(said ?? '') };
  },
};
