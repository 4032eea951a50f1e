// transcript.ts: Gemini CLI's session file (`~/.gemini/tmp/<project>/chats/session-<ts>-<id8>.jsonl`,
// named in every hook payload as transcript_path) → the same chat model claude's becomes. Read here
// (0.58.0 and 0.61.0 alike):
//
//   {sessionId, projectHash, startTime, kind}        the header: the session's id
//   {id, timestamp, type: "user", content: [parts]}  a prompt (text parts), or tool responses
//                                                    (functionResponse parts: read from toolCalls below)
//   {id, type: "gemini", content, thoughts, tokens,  a reply; written again with the same id when its
//    model, toolCalls?: [{id, name, args, result,    tool calls ran (toolCalls with their result and
//    status, …}]}                                    status); `tokens` is that request's usage
//   {id, type: "info" | "error" | "warning", …}      Gemini's own notes ("Request cancelled.")
//   {"$set": {…}}                                    a patch of the session record: lastUpdated, or
//                                                    `messages` (the whole list: the first context
//                                                    message, or the history again): never chat
//
// A record is read each time it is written; what it yields is keyed (its text, each tool call, each
// result) so a rewrite adds only what is new, and the ids are Gemini's own, so a re-read (a resume)
// yields the same messages and the hub drops the copies. After a cancel ("Request cancelled.")
// Gemini writes the whole history again as new records under new ids, every one stamped with the
// same timestamp (a millisecond after the cancel), starting with its context message (the
// `<session_context>` text, with the first prompt in the same record), then a `$set.messages`: a
// context record and every record stamped like it are not read.
import type { ChatMessageInput, SessionUsage } from '@tether/shared';
import type { TranscriptReader } from '../agent.ts';
import { transcriptMessage, type TranscriptMessageFields } from '../transcript-message.ts';

const MAX_TEXT_CHARS = 100_000;
/** What Gemini appends to a prompt that names files with @path (their text, or nothing for an image
 *  it sends as inline data). */
const REFERENCED_FILES = /\n*--- Content from referenced files ---[\s\S]*--- End of content ---\s*$/;
/** A file of the attachments folder as Gemini writes it, relative to that folder (one of its
 *  workspace folders, `--include-directories`): `@<prompt id>/<n>-<name>`. */
const RELATIVE_ATTACHMENT = /(^|\s)@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/\d+-\S+)/g;

/** A prompt as it was typed: without the files' content Gemini appended, and with the attachments'
 *  full paths, so the runner recognises its prompt and the chat shows its files as files. */
export function typedText(text: string, attachmentsFolder: string | null): string {
  const own = text.replace(REFERENCED_FILES, '');
  if (own === text || attachmentsFolder === null) return own;
  return own.replace(RELATIVE_ATTACHMENT, (_all, space: string, path: string) => `${space}@${attachmentsFolder}/${path}`);
}

/** Gemini's first user message: the context it sets up, not the person's words. */
const CONTEXT_MESSAGE = /^<session_context>/;

type Part = { text?: unknown; thought?: unknown; functionResponse?: unknown };
type ToolCall = { id?: unknown; name?: unknown; args?: unknown; result?: unknown; status?: unknown; resultDisplay?: unknown };
type Record_ = { id?: unknown; timestamp?: unknown; type?: unknown; content?: unknown; thoughts?: unknown; toolCalls?: unknown; tokens?: unknown; model?: unknown };

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.flatMap((p: Part) => (p && typeof p.text === 'string' && p.thought !== true ? [p.text] : [])).join('\n')
      : '';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Gemini's tool names and arguments as the chat's cards show them (claude's names where they mean
 *  the same: the hook's tool_name is mapped the same way, agent.ts). */
export function chatTool(name: string, args: unknown): { name: string; input: unknown } {
  const a = isObject(args) ? args : {};
  switch (name) {
    case 'run_shell_command':
      return { name: 'Bash', input: { command: a.command, ...(typeof a.description === 'string' ? { description: a.description } : {}) } };
    case 'write_file':
      return { name: 'Write', input: { file_path: a.file_path, content: a.content } };
    case 'replace':
      return { name: 'Edit', input: { file_path: a.file_path, old_string: a.old_string, new_string: a.new_string } };
    case 'read_file':
      return { name: 'Read', input: { file_path: a.file_path } };
    default:
      return { name, input: args ?? {} };
  }
}

/** The text a tool call's result carries for the model (functionResponse output or error). */
function resultText(call: ToolCall): string {
  const parts = Array.isArray(call.result) ? call.result : [];
  const out = parts.flatMap((p: { functionResponse?: { response?: Record<string, unknown> } }) => {
    const response = p?.functionResponse?.response;
    if (!response) return [];
    const value = response.output ?? response.error ?? response;
    return [typeof value === 'string' ? value : JSON.stringify(value)];
  });
  if (out.length > 0) return out.join('\n');
  return typeof call.resultDisplay === 'string' ? call.resultDisplay : '';
}

const tokens = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0);

export function createGeminiTranscriptReader(options: { usage?: SessionUsage | null; attachmentsFolder?: string } = {}): TranscriptReader {
  let agentSessionId: string | null = null;
  /** Keys of what was already given (a record's text, a tool call, its result). */
  const given = new Set<string>();
  /** Each reply's usage, by record id: a rewrite states the same request again. */
  const counted = new Set<string>();
  let usage: SessionUsage | null = options.usage ?? null;
  const message = (fields: TranscriptMessageFields): ChatMessageInput => transcriptMessage({ ...fields, agentSessionId });
  const once = (key: string) => (given.has(key) ? false : (given.add(key), true));

  const countUsage = (id: string, stated: unknown): boolean => {
    if (!isObject(stated) || counted.has(id)) return false;
    counted.add(id);
    const input = tokens(stated.input);
    const before = usage ?? { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, contextTokens: 0, contextWindow: null };
    usage = {
      inputTokens: before.inputTokens + input,
      cachedInputTokens: before.cachedInputTokens + Math.min(tokens(stated.cached), input),
      outputTokens: before.outputTokens + tokens(stated.output) + tokens(stated.thoughts),
      contextTokens: input + tokens(stated.output),
      contextWindow: before.contextWindow,
    };
    return true;
  };

  /** The timestamp of the history written again (after a cancel): every record of it carries it. */
  let rewrittenAt: unknown = null;
  const readRecord = (r: Record_, context: Parameters<TranscriptReader['read']>[1], out: ChatMessageInput[]): boolean => {
    if (typeof r.id !== 'string') return false;
    const at = r.timestamp;
    if (rewrittenAt !== null && at === rewrittenAt) return false;
    if (r.type === 'user') {
      const text = typedText(textOf(r.content), options.attachmentsFolder ?? null);
      if (CONTEXT_MESSAGE.test(text)) {
        rewrittenAt = at;
        return false;
      }
      if (!text || !once(r.id)) return false;
      out.push(message({ id: r.id, role: 'user', content: [{ type: 'text', text: text.slice(0, MAX_TEXT_CHARS) }], at, promptId: context.matchPrompt?.(text) ?? null }));
      return false;
    }
    if (r.type === 'info' && textOf(r.content) === 'Request cancelled.' && once(r.id)) {
      out.push(message({ id: r.id, role: 'user', content: [{ type: 'interrupt', text: 'Interrupted' }], at }));
      return false;
    }
    if (r.type !== 'gemini') return false;
    const changed = countUsage(r.id, r.tokens);
    const thoughts = Array.isArray(r.thoughts) ? r.thoughts.flatMap((t: { subject?: unknown; description?: unknown }) => [t?.subject, t?.description].filter((s): s is string => typeof s === 'string' && s !== '')).join('\n') : '';
    if (thoughts && once(`${r.id}:thinking`)) out.push(message({ id: `${r.id}:thinking`, role: 'assistant', content: [{ type: 'thinking', text: thoughts.slice(0, MAX_TEXT_CHARS) }], at }));
    const text = textOf(r.content);
    if (text.trim() && once(`${r.id}:text`)) out.push(message({ id: r.id, role: 'assistant', content: [{ type: 'text', text: text.slice(0, MAX_TEXT_CHARS) }], at }));
    for (const call of Array.isArray(r.toolCalls) ? (r.toolCalls as ToolCall[]) : []) {
      if (typeof call?.id !== 'string') continue;
      const { name, input } = chatTool(String(call.name ?? 'tool'), call.args);
      if (once(`${call.id}:use`)) out.push(message({ id: call.id, role: 'assistant', content: [{ type: 'tool_use', id: call.id.slice(0, 128), name: name.slice(0, 200), input }], at }));
      const done = call.status === 'success' || call.status === 'error' || call.status === 'cancelled';
      if (done && once(`${call.id}:result`)) {
        out.push(message({ id: `result-${call.id}`, role: 'user', content: [{ type: 'tool_result', toolUseId: call.id.slice(0, 128), content: resultText(call).slice(0, MAX_TEXT_CHARS), isError: call.status !== 'success' }], at }));
      }
    }
    return changed;
  };

  return {
    read(lines, context) {
      const messages: ChatMessageInput[] = [];
      let changed = false;
      for (const raw of lines) {
        let line: unknown;
        try {
          line = JSON.parse(raw);
        } catch {
          context.onBadLine?.(`not JSON: ${raw.slice(0, 80)}`);
          continue;
        }
        if (!isObject(line)) continue;
        if (typeof line.sessionId === 'string' && line.id === undefined) agentSessionId = line.sessionId;
        if (line.$set !== undefined) continue;
        if (readRecord(line as Record_, context, messages)) changed = true;
      }
      return { messages, model: null, planFile: null, commands: [], ...(changed && usage ? { usage } : {}) };
    },
  };
}
