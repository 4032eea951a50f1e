// conversations.ts: claude's saved conversations for the daemon's outside index (agents/conversations.ts):
// `<config>/projects/<folder key>/<session id>.jsonl` (CLAUDE-CODE.md §5), plain `claude` and
// `claude -p` alike. Its title is claude's own (a `custom-title` or `summary` line) or the first
// prompt typed; its folder the `cwd` its lines carry (the folder key cannot be turned back into a
// path). A live claude names its session in `<config>/sessions/<pid>.json` while it runs.
import { join } from 'node:path';
import { isUuid } from '@tether/shared';
import { headObjects, textParts, titleOf, type ConversationSource } from '../conversations.ts';
import { claudeConfigDir } from './env.ts';
import { liveClaudeWriters } from './status-file.ts';

/** Words claude writes as a "user" line that nobody typed (a slash command's echo, its caveat). */
const NOT_TYPED = /^\s*(<command-|<local-command-|Caveat: )/;

function ownTitle(line: Record<string, unknown>): string | null {
  if (line.type === 'custom-title' && typeof line.customTitle === 'string') return line.customTitle;
  if (line.type === 'summary' && typeof line.summary === 'string') return line.summary;
  return null;
}

function typedPrompt(line: Record<string, unknown>): string | null {
  if (line.type !== 'user' || line.isMeta === true || line.isSidechain === true) return null;
  const message = line.message as { role?: unknown; content?: unknown } | undefined;
  const text = textParts(message?.content, 'text');
  return text.trim() && !NOT_TYPED.test(text) ? text : null;
}

export const claudeConversations: ConversationSource = {
  roots: (env) => [join(claudeConfigDir(env), 'projects')],
  depth: 1,
  isConversation: (name) => name.endsWith('.jsonl') && isUuid(name.slice(0, -'.jsonl'.length)),
  headBytes: 64 * 1024,
  readHead({ path, head }) {
    const name = path.slice(path.lastIndexOf('/') + 1, -'.jsonl'.length);
    let folder: string | null = null;
    let own: string | null = null;
    let prompt: string | null = null;
    let sessionId: string | null = null;
    for (const line of headObjects(head)) {
      if (!folder && typeof line.cwd === 'string' && line.cwd) folder = line.cwd;
      if (!sessionId && typeof line.sessionId === 'string') sessionId = line.sessionId;
      own ??= ownTitle(line);
      prompt ??= typedPrompt(line);
    }
    // A file whose lines name another session is a copy claude made (a fork's start): the name is its id.
    if (!folder || (sessionId !== null && !isUuid(sessionId))) return null;
    return { agentSessionId: name, folder, title: titleOf(own ?? prompt ?? '') };
  },
  liveWriters: {
    dir: (env) => join(claudeConfigDir(env), 'sessions'),
    ids: (env) => liveClaudeWriters(claudeConfigDir(env)),
  },
};
