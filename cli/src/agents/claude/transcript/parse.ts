// parse.ts: turns lines of claude's JSONL transcript into shared chat messages.
// In: a raw line (string or already-parsed object). Out: 0 or 1 ChatMessageInput, id = the line's `uuid`
// (parseTranscriptLines does a tailer batch and fixes claude's first-flush order, see there).
// Invariant: pure and total. It never throws; a line it cannot use gives [] (and `onBadLine` says why,
// so the caller can count it), an unknown line type is ignored silently, and every message it returns
// passes ChatMessageInputSchema and fits the hub's payload cap (size-caps.ts).
//
// Line shapes (claude 2.1.197, the team's CLAUDE-CODE.md §5; real lines in fixtures/real-*.jsonl):
//   user      prompt (string or text blocks), tool_result blocks (+ `toolUseResult`), interrupt text
//   assistant ONE content block per line: text | thinking | tool_use; model "<synthetic>" after Esc,
//             and "No response requested." (hidden) when a resume follows a stopped turn
//   system    subtype local_command holds desk slash commands in newer builds; other subtypes ignored
//   anything else (attachment, file-history-snapshot, last-prompt, mode, queue-operation, …) ignored
import {
  type ChatMessageInput,
  type ChatRole,
  type ContentBlock,
  MAX_PROMPT_CHARS,
  MessageIdSchema,
  type PromptId,
} from '@tether/shared';
import { clipText, clipToolInput, fitsJsonBudget } from '../../../transcript/size-caps.ts';

export interface TranscriptParseContext {
  /** Clock for lines without a usable timestamp. Default Date.now. */
  now?: () => number;
  /**
   * The runner's queue of prompts typed from the hub: given the text of a human user line, return the
   * remote prompt's id when this line is that prompt (so the hub confirms it instead of adding a duplicate).
   */
  matchPrompt?: (text: string) => PromptId | null;
  /** Called when a line is malformed (not JSON, no uuid, …), not for ignored line types. */
  onBadLine?: (reason: string) => void;
}

type Rec = Record<string, unknown>;

/** claude's interrupt markers, written as user text after Esc or a rejected tool call. */
const INTERRUPT_RE = /^\[Request interrupted by user(?: for tool use)?\]$/;
/** The filler reply claude writes (model "<synthetic>") when a resumed history ends with a user line
 *  (a turn stopped mid-way): its own UI draws nothing for it, so neither does the chat. */
const NO_RESPONSE_FILLER = 'No response requested.';
const SYSTEM_REMINDER_RE = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
const COMMAND_NAME_RE = /<command-name>([\s\S]*?)<\/command-name>/;
const COMMAND_ARGS_RE = /<command-args>([\s\S]*?)<\/command-args>/;
const BASH_INPUT_RE = /^<bash-input>([\s\S]*?)<\/bash-input>$/;
/** Output of desk-local commands (`/model`, `!ls`) that claude records as user lines: not a prompt. */
const COMMAND_OUTPUT_RE = /^<(local-command-stdout|local-command-stderr|local-command-caveat|bash-stdout|bash-stderr|task-notification)>/;
/** What claude 2.1 writes for a tool call refused in its own permission dialog (or Esc there):
 *  `toolUseResult` "User rejected tool use", and this text as the tool_result. */
const REJECTED_STRUCTURED = 'User rejected tool use';
const REJECTED_TEXT = "The user doesn't want to proceed with this tool use.";

/** Whether a tool result says the user refused the call in claude's own dialog (not a failed run). */
export function isRejectedToolResult(block: { isError: boolean; content: string; structured?: unknown }): boolean {
  return block.isError && (block.structured === REJECTED_STRUCTURED || block.content.startsWith(REJECTED_TEXT));
}

/** ContentBlockSchema allows at most this many blocks per message. */
const MAX_BLOCKS = 100;
/** Limits of the shared schema (ids, agentId, agentSessionId ≤ 128; tool names ≤ 200): a longer
 *  value is not something claude writes, so the field is dropped rather than failing the message. */
const MAX_ID_CHARS = 128;
const MAX_TOOL_NAME_CHARS = 200;

export function parseTranscriptLine(line: string | object, ctx: TranscriptParseContext = {}): ChatMessageInput[] {
  let rec: unknown = line;
  if (typeof line === 'string') {
    if (line.trim() === '') return [];
    try {
      rec = JSON.parse(line);
    } catch {
      return bad(ctx, 'not JSON');
    }
  }
  if (!isRec(rec)) return bad(ctx, 'not an object');
  try {
    switch (rec.type) {
      case 'user':
        return parseUser(rec, ctx);
      case 'assistant':
        return parseAssistant(rec, ctx);
      case 'system':
        return parseSystem(rec, ctx);
      default:
        return [];
    }
  } catch (err) {
    return bad(ctx, `parse error: ${String(err)}`);
  }
}

/**
 * Parses one batch of lines (one `onLines` call of the tailer) and orders the messages by time.
 * Why: when claude first creates the file it flushes its buffered lines, and with a fast model the
 * reply's assistant lines land in the file BEFORE the user prompt that caused them (observed in real
 * 2.1.197 captures: fixtures/real-thinking-text.jsonl). Timestamps are right, and such a flush arrives
 * as one append, so a stable sort by createdAt inside the batch restores prompt → reply order.
 */
export function parseTranscriptLines(lines: readonly (string | object)[], ctx: TranscriptParseContext = {}): ChatMessageInput[] {
  const messages = lines.flatMap((line) => parseTranscriptLine(line, ctx));
  for (let i = 1; i < messages.length; i++) {
    if ((messages[i]?.createdAt ?? 0) < (messages[i - 1]?.createdAt ?? 0)) {
      return messages.sort((a, b) => a.createdAt - b.createdAt); // Array.prototype.sort is stable
    }
  }
  return messages;
}

function parseUser(rec: Rec, ctx: TranscriptParseContext): ChatMessageInput[] {
  // isMeta: text claude injects itself (caveats, skill bodies, hook context); never shown as typed.
  if (rec.isMeta === true) return [];
  const message = isRec(rec.message) ? rec.message : null;
  if (!message) return bad(ctx, 'user line without message');
  const raw = message.content;
  if (message.model === '<synthetic>' && isFiller(raw)) return [];
  const items: unknown[] = typeof raw === 'string' ? [{ type: 'text', text: raw }] : Array.isArray(raw) ? raw : [];

  const toolResults = items.filter((b) => isRec(b) && b.type === 'tool_result').length;
  const content: ContentBlock[] = [];
  /** `[image]` / `[document]` stand-ins: shown in the chat, but not part of the text a prompt sent
   *  with attachments is matched by (a headless prompt's files go as their own blocks). */
  const placeholders = new Set<ContentBlock>();
  for (const item of items) {
    if (!isRec(item)) continue;
    if (item.type === 'tool_result') {
      const toolUseId = typeof item.tool_use_id === 'string' ? item.tool_use_id : '';
      if (!toolUseId || toolUseId.length > MAX_ID_CHARS) continue;
      const block: ContentBlock = {
        type: 'tool_result',
        toolUseId,
        content: clipText(flattenToolResult(item.content)),
        isError: item.is_error === true,
      };
      // `toolUseResult` describes the line's one tool call; with several results it is ambiguous.
      // Large ones (Read, Bash) only repeat the output, and would push the message past the hub's cap.
      const structured = rec.toolUseResult;
      if (toolResults === 1 && structured !== undefined && fitsJsonBudget(structured)) block.structured = structured;
      content.push(block);
    } else if (item.type === 'text' && typeof item.text === 'string') {
      const block = userTextBlock(item.text);
      if (block) content.push(block);
    } else if (item.type === 'image' || item.type === 'document') {
      const block: ContentBlock = { type: 'text', text: item.type === 'image' ? '[image]' : '[document]' };
      placeholders.add(block);
      content.push(block);
    }
  }
  if (content.length === 0) return [];

  const compacted = rec.isCompactSummary === true;
  const human = !compacted && content.every((b) => b.type === 'text');
  return toMessage(rec, ctx, {
    role: compacted ? 'system' : 'user',
    content,
    matchText: human ? joinText(content.filter((b) => !placeholders.has(b))) : null,
  });
}

function parseAssistant(rec: Rec, ctx: TranscriptParseContext): ChatMessageInput[] {
  const message = isRec(rec.message) ? rec.message : null;
  if (!message) return bad(ctx, 'assistant line without message');
  const raw = message.content;
  if (message.model === '<synthetic>' && isFiller(raw)) return [];
  const items: unknown[] = typeof raw === 'string' ? [{ type: 'text', text: raw }] : Array.isArray(raw) ? raw : [];
  const content: ContentBlock[] = [];
  for (const item of items) {
    if (!isRec(item)) continue;
    switch (item.type) {
      case 'text':
        // Partial text of an interrupted reply (model "<synthetic>") is kept: it was on screen.
        if (typeof item.text === 'string' && item.text !== '') content.push({ type: 'text', text: clipText(item.text) });
        break;
      case 'thinking':
        if (typeof item.thinking === 'string' && item.thinking !== '') {
          content.push({ type: 'thinking', text: clipText(item.thinking) });
        }
        break;
      case 'tool_use':
      case 'server_tool_use': {
        const { id, name } = item;
        if (typeof id !== 'string' || id === '' || id.length > MAX_ID_CHARS) break;
        if (typeof name !== 'string' || name.length > MAX_TOOL_NAME_CHARS) break;
        content.push({ type: 'tool_use', id, name, input: clipToolInput(item.input ?? {}) });
        break;
      }
      default:
        break; // redacted_thinking, web_search_tool_result, …: nothing a reader can use
    }
  }
  if (content.length === 0) return [];
  return toMessage(rec, ctx, { role: 'assistant', content, matchText: null });
}

function isFiller(raw: unknown): boolean {
  if (raw === NO_RESPONSE_FILLER) return true;
  if (!Array.isArray(raw) || raw.length !== 1) return false;
  const [only] = raw as unknown[];
  return isRec(only) && only.type === 'text' && only.text === NO_RESPONSE_FILLER;
}

function parseSystem(rec: Rec, ctx: TranscriptParseContext): ChatMessageInput[] {
  // Newer builds record a desk slash command as {type:"system", subtype:"local_command", content:"<command-name>…"}.
  if (rec.subtype !== 'local_command' || typeof rec.content !== 'string') return [];
  const text = slashCommandText(rec.content);
  if (text === null) return [];
  return toMessage(rec, ctx, { role: 'user', content: [{ type: 'text', text }], matchText: text });
}

/** A user text block: reminders stripped, interrupts recognised, slash commands made readable. */
function userTextBlock(raw: string): ContentBlock | null {
  let text = raw;
  if (text.includes('<system-reminder>')) text = text.replace(SYSTEM_REMINDER_RE, '').trim();
  if (text.trim() === '') return null;
  if (INTERRUPT_RE.test(text.trim())) return { type: 'interrupt', text: text.trim() };
  const head = text.trimStart();
  if (head.startsWith('<')) {
    if (COMMAND_OUTPUT_RE.test(head)) return null;
    const command = slashCommandText(head);
    if (command !== null) return { type: 'text', text: command };
    const bash = BASH_INPUT_RE.exec(head.trimEnd());
    if (bash) return { type: 'text', text: `! ${bash[1] ?? ''}` };
  }
  // Clipped only past the hub's own prompt cap, so a prompt sent from the hub is always matched whole.
  return { type: 'text', text: clipText(text, MAX_PROMPT_CHARS) };
}

/** `<command-name>/model</command-name>…<command-args>sonnet</command-args>` → "/model sonnet". */
function slashCommandText(text: string): string | null {
  if (!text.trimStart().startsWith('<command-')) return null;
  const name = COMMAND_NAME_RE.exec(text)?.[1]?.trim();
  if (!name) return null;
  const args = COMMAND_ARGS_RE.exec(text)?.[1]?.trim() ?? '';
  const command = name.startsWith('/') ? name : `/${name}`;
  return args ? `${command} ${args}` : command;
}

/** tool_result content is a string or an array of blocks; the chat shows one string. */
function flattenToolResult(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content);
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isRec(block) && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (isRec(block) && block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

function toMessage(
  rec: Rec,
  ctx: TranscriptParseContext,
  body: { role: ChatRole; content: ContentBlock[]; matchText: string | null },
): ChatMessageInput[] {
  const id = rec.uuid;
  if (typeof id !== 'string' || !MessageIdSchema.safeParse(id).success) return bad(ctx, 'missing or invalid uuid');
  const sidechain = rec.isSidechain === true;
  const parsedTime = typeof rec.timestamp === 'string' ? Date.parse(rec.timestamp) : Number.NaN;
  const createdAt = Number.isFinite(parsedTime) && parsedTime >= 0 ? parsedTime : Math.floor((ctx.now ?? Date.now)());
  // Only the main thread's human prompts can be prompts the hub sent; subagent "user" lines are the agent's.
  const promptId = !sidechain && body.matchText !== null && ctx.matchPrompt ? ctx.matchPrompt(body.matchText) : null;
  return [
    {
      id,
      role: body.role,
      content: body.content.slice(0, MAX_BLOCKS),
      createdAt,
      sidechain,
      agentId: shortString(rec.agentId),
      promptId: promptId ?? null,
      agentSessionId: shortString(rec.sessionId),
    },
  ];
}

function joinText(content: ContentBlock[]): string {
  return content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

function shortString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && value.length <= MAX_ID_CHARS ? value : null;
}

function isRec(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(ctx: TranscriptParseContext, reason: string): [] {
  ctx.onBadLine?.(reason);
  return [];
}
