// resume-state.ts: which tether session a claude session id belongs to, and how far its transcript
// was mirrored. `tether claude --resume <id>` reuses that tether session (same chat on the hub)
// and continues the transcript from the saved offset, so nothing is sent twice; the tokens the
// session used up to that offset are kept too, so the totals go on rather than restart.
// Stored as TETHER_HOME/claude-sessions/<claude session id>.json (0600).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAgentSessionId, SessionUsageSchema, type SessionUsage } from '@tether/shared';

export type ResumeState = {
  sessionId: string;
  transcriptPath: string;
  offset: number;
  /** The hub title and where it came from (session/title.ts), so a resumed runner keeps it. */
  title?: string;
  titleSource?: 'cwd' | 'prompt' | 'ai';
  /** Subagent transcript offsets by file name (subagents.ts). */
  subagentOffsets?: Record<string, number>;
  /** The session's token usage as read up to `offset` (and the subagent offsets). */
  usage?: SessionUsage | null;
};

/** Only an agent session id names a file here (letters, digits, `-` and `_`: no path). */
function fileFor(home: string, agentSessionId: string): string | null {
  return isAgentSessionId(agentSessionId) ? join(home, 'claude-sessions', `${agentSessionId}.json`) : null;
}

export function loadResumeState(options: { home: string; agentSessionId: string }): ResumeState | null {
  const file = fileFor(options.home, options.agentSessionId);
  if (!file) return null;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ResumeState>;
    if (typeof parsed.sessionId !== 'string' || typeof parsed.transcriptPath !== 'string' || typeof parsed.offset !== 'number') return null;
    return {
      sessionId: parsed.sessionId,
      transcriptPath: parsed.transcriptPath,
      offset: parsed.offset,
      ...(typeof parsed.title === 'string' ? { title: parsed.title } : {}),
      ...(parsed.titleSource === 'cwd' || parsed.titleSource === 'prompt' || parsed.titleSource === 'ai' ? { titleSource: parsed.titleSource } : {}),
      ...(parsed.subagentOffsets && typeof parsed.subagentOffsets === 'object' ? { subagentOffsets: parsed.subagentOffsets } : {}),
      usage: SessionUsageSchema.nullable().catch(null).parse(parsed.usage ?? null),
    };
  } catch {
    return null;
  }
}

export function saveResumeState(options: { home: string; agentSessionId: string; state: ResumeState }): void {
  const file = fileFor(options.home, options.agentSessionId);
  if (!file) return;
  mkdirSync(join(options.home, 'claude-sessions'), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(options.state), { mode: 0o600 });
}
