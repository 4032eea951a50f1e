// chat-log-reader.ts: tether's chat log of an ACP agent (chat-log.ts) → the chat the hub shows, as
// any agent's transcript reader gives it (agents/agent.ts TranscriptReader). A user line is the
// prompt tether sent: matchPrompt names the phone's prompt it confirms. A usage line adds its turn's
// tokens to what the session had used (`usage`, when the runner reads the log again on a resume).
import type { ChatMessageInput, SessionUsage } from '@tether/shared';
import type { TranscriptReader } from '../agent.ts';
import { transcriptMessage } from '../transcript-message.ts';
import type { ChatLogLine } from './chat-log.ts';

const MAX_TEXT_CHARS = 100_000;
const cut = (text: string) => (text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}…` : text);

export function createChatLogReader(options: { usage?: SessionUsage | null } = {}): TranscriptReader {
  let usage = options.usage ?? null;
  const counted = new Set<string>();
  const add = (line: Extract<ChatLogLine, { t: 'usage' }>): boolean => {
    if (typeof line.id !== 'string' || counted.has(line.id)) return false;
    counted.add(line.id);
    const before = usage ?? { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, contextTokens: 0, contextWindow: null };
    // The turn's input is what its context held: the session's context now.
    usage = { inputTokens: before.inputTokens + line.input, cachedInputTokens: before.cachedInputTokens + line.cachedInput, outputTokens: before.outputTokens + line.output, contextTokens: line.input, contextWindow: before.contextWindow };
    return true;
  };
  return {
    read(lines, context) {
      const messages: ChatMessageInput[] = [];
      let changed = false;
      for (const raw of lines) {
        let line: ChatLogLine;
        try {
          line = JSON.parse(raw) as ChatLogLine;
        } catch {
          context.onBadLine?.('not JSON');
          continue;
        }
        if (line?.t === 'usage') {
          changed = add(line) || changed;
          continue;
        }
        const message = messageOf(line, context.matchPrompt);
        if (message) messages.push(message);
        else context.onBadLine?.(`not a chat log line: ${String((line as { t?: unknown }).t)}`);
      }
      return { messages, model: null, planFile: null, commands: [], ...(changed && usage ? { usage } : {}) };
    },
  };
}

function messageOf(line: ChatLogLine, matchPrompt?: (text: string) => string | null): ChatMessageInput | null {
  if (!line || typeof line.id !== 'string') return null;
  const base = { id: line.id, at: line.at, agentSessionId: null };
  switch (line.t) {
    case 'user':
      return transcriptMessage({ ...base, role: 'user', content: [{ type: 'text', text: cut(line.text) }], promptId: matchPrompt?.(line.text) ?? null });
    case 'assistant':
      return transcriptMessage({ ...base, role: 'assistant', content: [{ type: 'text', text: cut(line.text) }] });
    case 'thought':
      return transcriptMessage({ ...base, role: 'assistant', content: [{ type: 'thinking', text: cut(line.text) }] });
    case 'tool':
      return transcriptMessage({ ...base, id: `${line.id}:use`, role: 'assistant', content: [{ type: 'tool_use', id: line.id, name: line.name.slice(0, 200), input: line.input }] });
    case 'result':
      return transcriptMessage({ ...base, id: `${line.id}:result`, role: 'user', content: [{ type: 'tool_result', toolUseId: line.id, content: cut(line.output), isError: line.isError }] });
    default:
      return null;
  }
}
