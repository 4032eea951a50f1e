// conversations.ts: Gemini's saved sessions for the daemon's outside index (agents/conversations.ts):
// `<.gemini>/tmp/<project slug>/chats/session-<ts>-<id8>.jsonl` (AGENT-CLIS.md). The header line
// names the session; the folder is the project `projects.json` maps to the slug, else the first
// workspace directory of the session context Gemini writes first; the title is the first prompt the
// person typed (the context is Gemini's, not theirs).
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isUuid } from '@tether/shared';
import { headObjects, textParts, titleOf, type ConversationSource } from '../conversations.ts';
import { userGeminiDir } from './home.ts';

const CONTEXT = '<session_context>';
const WORKSPACE_DIR = /Workspace Directories:\*\*\s*\n\s*- (\S[^\n]*)/;

/** slug → project folder, from `<.gemini>/projects.json` (`{ projects: { <path>: <slug> } }`). */
function projectOf(env: NodeJS.ProcessEnv, slug: string): string | null {
  try {
    const parsed = JSON.parse(readFileSync(join(userGeminiDir(env), 'projects.json'), 'utf8')) as { projects?: Record<string, unknown> };
    for (const [path, value] of Object.entries(parsed.projects ?? {})) if (value === slug) return path;
  } catch {
    // none yet, or being written: the session context says it too
  }
  return null;
}

/** The user records of a head: plain lines, and the messages a `$set` line lays down. */
function userTexts(lines: Record<string, unknown>[]): string[] {
  const records = lines.flatMap((line) => {
    const set = line.$set as { messages?: unknown } | undefined;
    return Array.isArray(set?.messages) ? (set.messages as Record<string, unknown>[]) : [line];
  });
  return records.filter((r) => r && r.type === 'user').map((r) => textParts(r.content));
}

export const geminiConversations: ConversationSource = {
  roots: (env) => [join(userGeminiDir(env), 'tmp')],
  depth: 2,
  isConversation: (name) => name.startsWith('session-') && name.endsWith('.jsonl'),
  headBytes: 64 * 1024,
  readHead({ path, head, env }) {
    const lines = headObjects(head);
    const header = lines[0];
    if (!header || typeof header.sessionId !== 'string' || !isUuid(header.sessionId) || header.kind === 'subagent') return null;
    const texts = userTexts(lines);
    const context = texts.find((t) => t.startsWith(CONTEXT));
    const folder = projectOf(env, basename(dirname(dirname(path)))) ?? context?.match(WORKSPACE_DIR)?.[1]?.trim() ?? null;
    if (!folder) return null;
    return { agentSessionId: header.sessionId, folder, title: titleOf(texts.find((t) => !t.startsWith(CONTEXT)) ?? '') };
  },
};
