// rollout.ts: Codex's transcript (the rollout JSONL it names in every hook payload,
// `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl`) → the same chat model claude's becomes.
// Lines are `{timestamp, type, payload}`; read here (0.160.0 and 0.169.0 alike):
//
//   event_msg item_completed UserMessage      what the person typed (not Codex's own context messages,
//                                             which are `response_item` user messages too; without the
//                                             composer's "[Image #1]" placeholders), and an `[image]`
//                                             for each image sent with it
//   response_item message (assistant)         the reply's text
//   response_item reasoning                   its summary, as thinking
//   response_item function_call               a tool call: exec_command reads as Bash {command, description},
//                                             or as its files and diffs when it runs apply_patch
//   response_item custom_tool_call            a freeform tool call, input as given; apply_patch's as
//                                             its files and diffs (file-changes.ts)
//   response_item *_call_output               the tool's result; a non-zero "Process exited with code N" is an error
//   event_msg turn_aborted                    the turn was interrupted (Esc)
//   event_msg task_complete, turn_aborted     the turn is over (its Stop hook runs a moment before)
//
//   event_msg token_count                     the session's token totals (usage.ts), not chat
//
// Everything else (session_meta, turn_context, world state) is not chat. Ids come from
// Codex's own item ids, so a re-read (a resume) yields the same messages and the hub drops the copies.
import { FILE_CHANGES_TOOL_NAME, type ChatMessageInput, type ContentBlock } from '@tether/shared';
import { fromApplyPatchText, patchOfCommand } from './file-changes.ts';
import type { SessionUsage } from '@tether/shared';
import type { TranscriptReader } from '../agent.ts';
import { transcriptMessage, type TranscriptMessageFields } from '../transcript-message.ts';
import { codexUsageOf, sameCodexUsage } from './usage.ts';
import { createCodexLimit } from './usage-limit.ts';

const MAX_TEXT_CHARS = 100_000;
const EXIT_CODE = /Process exited with code (-?\d+)/;
/** A user message's image inputs, as Codex records them (a file, or a URL). */
const IMAGE_INPUTS = new Set(['local_image', 'image']);

type Line = { timestamp?: unknown; type?: unknown; payload?: Record<string, unknown> };

const textOf = (content: unknown, type: string): string =>
  Array.isArray(content)
    ? content
        .flatMap((part: { type?: unknown; text?: unknown }) => (part && part.type === type && typeof part.text === 'string' ? [part.text] : []))
        .join('\n')
    : '';

/** A user message's text without the placeholders its composer put in for attachments ("[Image #1]",
 *  its `text_elements`: UTF-8 byte ranges): the chat shows each image as `[image]`, and the prompt
 *  the phone sent is matched by its own text. */
function typedText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: { type?: unknown; text?: unknown; text_elements?: unknown }) => {
      if (!part || part.type !== 'text' || typeof part.text !== 'string') return [];
      let bytes = Buffer.from(part.text, 'utf8');
      const elements = Array.isArray(part.text_elements) ? (part.text_elements as Array<{ byte_range?: { start?: unknown; end?: unknown }; placeholder?: unknown }>) : [];
      // From the last, so earlier ranges still point where they did.
      for (const element of [...elements].sort((a, b) => Number(b.byte_range?.start) - Number(a.byte_range?.start))) {
        const { start, end } = element.byte_range ?? {};
        if (typeof element.placeholder !== 'string' || typeof start !== 'number' || typeof end !== 'number') continue;
        if (bytes.subarray(start, end).toString('utf8') !== element.placeholder) continue;
        bytes = Buffer.concat([bytes.subarray(0, start), bytes.subarray(end)]);
      }
      return [bytes.toString('utf8').replace(/^ +/, '')];
    })
    .join('\n');
}

/** exec_command's arguments as the chat's Bash card shows them. */
function toolInput(name: string, raw: unknown): { name: string; input: unknown } {
  let args: unknown = raw;
  if (typeof raw === 'string') {
    try {
      args = JSON.parse(raw);
    } catch {
      args = { arguments: raw };
    }
  }
  if (name === 'exec_command' && args && typeof args === 'object') {
    const a = args as { cmd?: unknown; justification?: unknown };
    const command = Array.isArray(a.cmd) ? a.cmd.join(' ') : a.cmd;
    const patch = typeof command === 'string' ? patchOfCommand(command) : null;
    const changes = patch ? fromApplyPatchText(patch) : [];
    if (changes.length > 0) return { name: FILE_CHANGES_TOOL_NAME, input: { changes } };
    return { name: 'Bash', input: { command, ...(typeof a.justification === 'string' ? { description: a.justification } : {}) } };
  }
  if (name === 'apply_patch' && typeof (args as { input?: unknown } | null)?.input === 'string') {
    const changes = fromApplyPatchText((args as { input: string }).input);
    if (changes.length > 0) return { name: FILE_CHANGES_TOOL_NAME, input: { changes } };
  }
  return { name, input: args };
}

/** `options.usage` is not needed: Codex's own totals already go on across a resume (usage.ts). */
export function createRolloutReader(): TranscriptReader {
  let agentSessionId: string | null = null;
  let usage: SessionUsage | null = null;
  const limit = createCodexLimit();
  const message = (fields: TranscriptMessageFields): ChatMessageInput => transcriptMessage({ ...fields, agentSessionId });
  const readLine = (line: Line, index: number, context: Parameters<TranscriptReader['read']>[1]): ChatMessageInput | null => {
    const p = line.payload;
    if (!p || typeof p !== 'object') return null;
    const at = line.timestamp;
    const fallbackId = `codex-${String(at)}-${index}`;
    const id = typeof p.id === 'string' ? p.id : fallbackId;
    if (line.type === 'session_meta' && typeof p.id === 'string') agentSessionId = p.id;
    if (line.type === 'event_msg' && p.type === 'item_completed') {
      const item = p.item as { type?: unknown; id?: unknown; content?: unknown } | undefined;
      if (item?.type !== 'UserMessage') return null;
      const text = typedText(item.content).slice(0, MAX_TEXT_CHARS);
      // An image sent with the prompt shows as `[image]` (as in claude's chat); the prompt is matched
      // by its text alone.
      const images = Array.isArray(item.content) ? item.content.filter((c) => c && typeof c === 'object' && IMAGE_INPUTS.has(String((c as { type?: unknown }).type))).length : 0;
      const content: ContentBlock[] = [{ type: 'text', text }, ...Array.from({ length: images }, (): ContentBlock => ({ type: 'text', text: '[image]' }))];
      return message({ id: `user-${String(item.id ?? fallbackId)}`, role: 'user', content, at, promptId: context.matchPrompt?.(text) ?? null });
    }
    if (line.type === 'event_msg' && p.type === 'turn_aborted') {
      return message({ id: `aborted-${String(p.turn_id ?? fallbackId)}`, role: 'user', content: [{ type: 'interrupt', text: 'Interrupted' }], at });
    }
    if (line.type !== 'response_item') return null;
    switch (p.type) {
      case 'message':
        if (p.role !== 'assistant') return null;
        return message({ id, role: 'assistant', content: [{ type: 'text', text: textOf(p.content, 'output_text').slice(0, MAX_TEXT_CHARS) }], at });
      case 'reasoning': {
        const text = textOf(p.summary, 'summary_text');
        return text ? message({ id, role: 'assistant', content: [{ type: 'thinking', text: text.slice(0, MAX_TEXT_CHARS) }], at }) : null;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const callId = typeof p.call_id === 'string' ? p.call_id : id;
        const { name, input } = toolInput(String(p.name ?? 'tool'), p.type === 'function_call' ? p.arguments : { input: p.input });
        return message({ id, role: 'assistant', content: [{ type: 'tool_use', id: callId.slice(0, 128), name: name.slice(0, 200), input }], at });
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '');
        const code = EXIT_CODE.exec(output);
        return message({
          id: `result-${String(p.call_id ?? id)}`,
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: String(p.call_id ?? '').slice(0, 128), content: output.slice(0, MAX_TEXT_CHARS), isError: code !== null && code[1] !== '0' }],
          at,
        });
      }
      default:
        return null;
    }
  };
  return {
    read(lines, context) {
      const messages: ChatMessageInput[] = [];
      let turnEnded = false;
      let changed = false;
      const parsedLines: Line[] = [];
      lines.forEach((raw, index) => {
        let line: Line;
        try {
          line = JSON.parse(raw) as Line;
        } catch {
          context.onBadLine?.(`not JSON: ${raw.slice(0, 80)}`);
          return;
        }
        parsedLines.push(line);
        const kind = line.type === 'event_msg' ? (line.payload as { type?: unknown } | undefined)?.type : undefined;
        if (kind === 'task_complete' || kind === 'turn_aborted') turnEnded = true;
        const stated = kind === 'token_count' ? codexUsageOf(line) : null;
        if (stated && !sameCodexUsage(usage, stated)) {
          usage = stated;
          changed = true;
        }
        const parsed = readLine(line, index, context);
        if (parsed) messages.push(parsed);
      });
      const limited = limit.take(parsedLines);
      return { messages, model: null, planFile: null, commands: [], turnEnded, ...(changed && usage ? { usage } : {}), ...(limited !== undefined ? { limit: limited } : {}) };
    },
  };
}
