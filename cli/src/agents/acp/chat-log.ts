// chat-log.ts: the chat of an ACP agent whose own transcript tether cannot tail (opencode keeps its
// conversation in SQLite): the transport writes what was said over ACP to a JSONL file of tether's
// own, one whole message a line, and the runner tails that file like any transcript
// (chat-log-reader.ts reads it back). Lines:
//
//   {t:"user", id, at, text}                      a turn tether sent (it confirms the prompt)
//   {t:"assistant"|"thought", id, at, text}       the agent's message chunks of one messageId, joined
//   {t:"tool", id, at, name, input}               a tool call once it ran or failed (its last title,
//   {t:"result", id, at, output, isError}         kind and raw input), then its output
//   {t:"usage", id, at, input, cachedInput, output}  one turn's tokens (session/prompt's `usage`)
//
// Invariant: a line is written only when its message is whole (another update came, or the turn is
// over), so a reader never sees half a message; ids are the agent's own (messageId, toolCallId) or
// made once when written, so a re-read (a resume) yields the same messages and the hub drops copies.
// session/load's replay of the conversation is not written again (the transport stops recording).
import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentSessionIdSchema } from '@tether/shared';
import { permissionQuestion } from './permission.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

export type ChatLogLine =
  | { t: 'user' | 'assistant' | 'thought'; id: string; at: string; text: string }
  | { t: 'tool'; id: string; at: string; name: string; input: Json }
  | { t: 'result'; id: string; at: string; output: string; isError: boolean }
  | { t: 'usage'; id: string; at: string; input: number; cachedInput: number; output: number };

export type ChatLog = {
  path: string;
  /** A turn tether sent. */
  prompt(text: string): void;
  /** One session/update of the agent's. */
  update(update: unknown): void;
  /** The turn is over: what is still being said is whole now. */
  flush(): void;
  /** The turn's tokens as its session/prompt result states them (ACP's unstable `usage`). */
  usage(usage: unknown): void;
};

/** `<dir>/<agent>/<sessionId>.jsonl`, the folders 0700 and the file 0600 (prompts are private). */
export function chatLogPath(o: { dir: string; agent: string; sessionId: string }): string {
  // The id is the agent's: checked before it names a file (no `/`, no `..`).
  const id = AgentSessionIdSchema.parse(o.sessionId);
  return join(o.dir, o.agent, `${id}.jsonl`);
}

type Pending = { t: 'assistant' | 'thought'; id: string; at: string; text: string };
type Call = { title: string; kind: string | null; rawInput: Json; content: unknown[]; locations: unknown[] };

export function createChatLog(o: { dir: string; agent: string; sessionId: string }): ChatLog {
  const path = chatLogPath(o);
  mkdirSync(join(o.dir, o.agent), { recursive: true, mode: 0o700 });
  let created = false;
  const write = (line: ChatLogLine) => {
    appendFileSync(path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    if (!created) chmodSync(path, 0o600);
    created = true;
  };
  let pending: Pending | null = null;
  let part = 0;
  const calls = new Map<string, Call>();
  const flush = () => {
    if (pending && pending.text) write(pending);
    pending = null;
  };
  const chunk = (t: Pending['t'], update: Json) => {
    const content = isObject(update.content) ? update.content : {};
    if (content.type !== 'text' || typeof content.text !== 'string') return;
    const messageId = typeof update.messageId === 'string' ? update.messageId : null;
    // Chunks without a messageId belong to the message under way of the same kind.
    if (pending && (pending.t !== t || (messageId !== null && !pending.id.startsWith(`${messageId}:`)))) flush();
    pending ??= { t, id: `${messageId ?? crypto.randomUUID()}:${t}:${part++}`, at: new Date().toISOString(), text: '' };
    pending.text += content.text;
  };
  const toolUpdate = (update: Json) => {
    const id = typeof update.toolCallId === 'string' ? update.toolCallId : null;
    if (!id) return;
    const call = calls.get(id) ?? { title: '', kind: null, rawInput: {}, content: [], locations: [] };
    if (typeof update.title === 'string') call.title = update.title;
    if (typeof update.kind === 'string') call.kind = update.kind;
    if (isObject(update.rawInput)) call.rawInput = { ...call.rawInput, ...update.rawInput };
    if (Array.isArray(update.content)) call.content = update.content;
    if (Array.isArray(update.locations)) call.locations = update.locations;
    calls.set(id, call);
    if (update.status !== 'completed' && update.status !== 'failed') return;
    calls.delete(id);
    flush();
    const at = new Date().toISOString();
    // Named as a permission request names it (its diff, not its output, is what was asked about).
    const diffs = call.content.filter((c) => isObject(c) && c.type === 'diff');
    const asked = permissionQuestion({ toolCallId: id, title: call.title, kind: call.kind, content: diffs, locations: call.locations });
    const { command, description } = call.rawInput;
    const shell = asked.toolName === 'Bash' ? { ...(typeof command === 'string' ? { command } : {}), ...(typeof description === 'string' ? { description } : {}) } : {};
    write({ t: 'tool', id, at, name: asked.toolName, input: { ...asked.toolInput, ...shell } });
    write({ t: 'result', id, at, output: toolOutput(update), isError: update.status === 'failed' });
  };
  return {
    path,
    prompt: (text) => {
      flush();
      write({ t: 'user', id: crypto.randomUUID(), at: new Date().toISOString(), text });
    },
    update: (update) => {
      if (!isObject(update)) return;
      const kind = update.sessionUpdate;
      if (kind === 'agent_message_chunk') return chunk('assistant', update);
      if (kind === 'agent_thought_chunk') return chunk('thought', update);
      if (kind === 'tool_call' || kind === 'tool_call_update') return toolUpdate(update);
    },
    flush,
    usage: (usage) => {
      if (!isObject(usage)) return;
      const count = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0);
      // Its thought tokens are output it was billed for, as Gemini's are (gemini/transcript.ts).
      const output = count(usage.outputTokens) + count(usage.thoughtTokens);
      const cachedInput = count(usage.cachedReadTokens);
      const input = count(usage.inputTokens) + cachedInput;
      if (input === 0 && output === 0) return;
      write({ t: 'usage', id: crypto.randomUUID(), at: new Date().toISOString(), input, cachedInput, output });
    },
  };
}

/** A finished call's output: its text content, else the raw output's `output`. */
function toolOutput(update: Json): string {
  const content = Array.isArray(update.content) ? update.content.filter(isObject) : [];
  const said = content.flatMap((c) => (c.type === 'content' && isObject(c.content) && typeof c.content.text === 'string' ? [c.content.text] : []));
  if (said.length > 0) return said.join('\n');
  const raw = isObject(update.rawOutput) ? update.rawOutput : {};
  return typeof raw.output === 'string' ? raw.output : '';
}
