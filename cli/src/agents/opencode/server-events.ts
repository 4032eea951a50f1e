// server-events.ts: opencode's own server events (its SSE `/event`, which its TUI is a client of) read
// into what tether does with them in a PTY session: the chat log's lines (acp/chat-log.ts's format,
// the runner tails that file), the turn's start and end, and the permission requests it asks.
//
//   session.created {info}                   ─► the session the TUI works in (a root one: no parentID)
//   message.updated {info: role}             ─► the role of a message's parts; an assistant's completed
//   message.part.updated {part} / .delta     ─► user text: a prompt (turn starts); assistant text and
//                                               reasoning: written once their message completes
//   tool part, status completed | error      ─► a tool line and its result
//   session.idle / session.status idle       ─► the turn is over (what is under way is written)
//   permission.asked {id, permission, …}     ─► a request to the person
//   permission.replied {requestID}           ─► answered (at the desk or by tether): withdrawn
//
// Invariant: only the session the TUI works in counts (a sub-agent's session and the title request's
// are not the chat); every line's id is opencode's own (part ids), so a re-read drops as copies.
import type { ChatLogLine } from '../acp/chat-log.ts';
import { opencodeEditQuestion } from './edit-request.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export type OpencodeAsk = { id: string; sessionId: string; toolName: string; toolInput: Json };

export type OpencodeAction =
  | { kind: 'session'; sessionId: string }
  | { kind: 'prompt'; sessionId: string; text: string }
  | { kind: 'line'; line: ChatLogLine }
  | { kind: 'turn-ended'; sessionId: string }
  | { kind: 'ask'; ask: OpencodeAsk }
  | { kind: 'replied'; id: string };

type Part = { id: string; messageId: string; type: string; text: string; written: boolean };

/** A permission request in the words the phone draws (claude's tool names where one fits). */
export function opencodeAsk(p: Json): OpencodeAsk | null {
  const id = str(p.id);
  const sessionId = str(p.sessionID);
  // 1.x names the tool's permission `permission`; older servers said `type`.
  const permission = str(p.permission) ?? str(p.type);
  if (!id || !sessionId || !permission) return null;
  const meta = isObject(p.metadata) ? p.metadata : {};
  const patterns = Array.isArray(p.patterns) ? p.patterns.filter((x): x is string => typeof x === 'string') : [];
  if (permission === 'bash') {
    const command = str(meta.command) ?? patterns.join(' && ');
    return { id, sessionId, toolName: 'Bash', toolInput: { command, ...(str(meta.description) ? { description: meta.description } : {}) } };
  }
  // Its edit, write and apply_patch: the files and their diffs (edit-request.ts).
  const edit = permission === 'edit' ? opencodeEditQuestion(meta) : null;
  if (edit) return { id, sessionId, ...edit };
  return { id, sessionId, toolName: permission, toolInput: { ...(patterns.length ? { patterns } : {}) } };
}

/** A finished tool part as the chat's tool line and result (null while it runs). */
export function toolLines(part: Json, at: string): ChatLogLine[] {
  const state = isObject(part.state) ? part.state : {};
  if (state.status !== 'completed' && state.status !== 'error') return [];
  const id = str(part.callID) ?? str(part.id);
  const tool = str(part.tool) ?? 'tool';
  if (!id) return [];
  const input = isObject(state.input) ? state.input : {};
  const named = chatTool(tool, input);
  const output = state.status === 'error' ? (str(state.error) ?? '') : (str(state.output) ?? '');
  return [
    { t: 'tool', id, at, name: named.name, input: named.input },
    { t: 'result', id, at, output, isError: state.status === 'error' },
  ];
}

function chatTool(tool: string, input: Json): { name: string; input: Json } {
  const file = str(input.filePath);
  if (tool === 'bash') return { name: 'Bash', input: { command: str(input.command) ?? '', ...(str(input.description) ? { description: input.description } : {}) } };
  if (tool === 'edit' && file) return { name: 'Edit', input: { file_path: file, old_string: str(input.oldString) ?? '', new_string: str(input.newString) ?? '' } };
  if (tool === 'write' && file) return { name: 'Write', input: { file_path: file, content: str(input.content) ?? '' } };
  if (tool === 'read' && file) return { name: 'Read', input: { file_path: file } };
  return { name: tool, input };
}

export type OpencodeEventReader = { read(event: unknown): OpencodeAction[]; sessionId(): string | null };

/** `opened`: the session its TUI was told to open (`--session <id>`), a root session whose first
 *  prompt comes before any event names it (its session.updated follows the user message). */
export function createOpencodeEventReader(o: { now?: () => string; opened?: string | null } = {}): OpencodeEventReader {
  const now = o.now ?? (() => new Date().toISOString());
  let session: string | null = null;
  const roots = new Set<string>(o.opened ? [o.opened] : []);
  const roles = new Map<string, string>();
  const parts = new Map<string, Part>();
  const prompted = new Set<string>();
  /** A turn is under way: its end is told once (it says idle twice, session.status and session.idle). */
  let busy = false;
  const ended = (sessionId: string | null): OpencodeAction[] => {
    if (!ours(sessionId) || !busy) return [];
    busy = false;
    return [...writeParts(null), { kind: 'turn-ended', sessionId }];
  };

  /** The text and reasoning of one message (or of all) not written yet, in the order they came. */
  const writeParts = (messageId: string | null): OpencodeAction[] =>
    [...parts.values()].flatMap((part) => {
      if (part.written || (messageId !== null && part.messageId !== messageId)) return [];
      if (roles.get(part.messageId) !== 'assistant' || !part.text.trim()) return [];
      part.written = true;
      return [{ kind: 'line' as const, line: { t: part.type === 'reasoning' ? ('thought' as const) : ('assistant' as const), id: part.id, at: now(), text: part.text } }];
    });

  const ours = (sessionId: string | null): sessionId is string => sessionId !== null && sessionId === session;

  const onPart = (part: Json): OpencodeAction[] => {
    const id = str(part.id);
    const messageId = str(part.messageID);
    const type = str(part.type);
    if (!id || !messageId || !type || !ours(str(part.sessionID))) return [];
    if (type === 'tool') return toolLines(part, now()).map((line) => ({ kind: 'line' as const, line }));
    if (type !== 'text' && type !== 'reasoning') return [];
    const text = str(part.text) ?? '';
    const known = parts.get(id);
    parts.set(id, { id, messageId, type, text, written: known?.written ?? false });
    // A person's words come whole; the synthetic ones (a file's contents it added) are not theirs.
    if (roles.get(messageId) !== 'user' || type !== 'text' || part.synthetic === true || prompted.has(id) || !text.trim()) return [];
    prompted.add(id);
    busy = true;
    return [{ kind: 'prompt', sessionId: session!, text }, { kind: 'line', line: { t: 'user', id, at: now(), text } }];
  };

  const take = (sessionId: string | null): OpencodeAction[] => {
    // The TUI's own session: the first root session that shows; a new root one (its /new) replaces it.
    if (!sessionId || sessionId === session || !roots.has(sessionId)) return [];
    session = sessionId;
    return [{ kind: 'session', sessionId }];
  };

  return {
    sessionId: () => session,
    read(event) {
      if (!isObject(event) || typeof event.type !== 'string') return [];
      const p = isObject(event.properties) ? event.properties : {};
      switch (event.type) {
        case 'session.created':
        case 'session.updated': {
          const info = isObject(p.info) ? p.info : {};
          const id = str(info.id);
          if (id && !info.parentID) roots.add(id);
          return [];
        }
        case 'message.updated': {
          const info = isObject(p.info) ? p.info : {};
          const id = str(info.id);
          const role = str(info.role);
          if (!id || !role) return [];
          const started = role === 'user' ? take(str(info.sessionID)) : [];
          if (!ours(str(info.sessionID))) return started;
          roles.set(id, role);
          const time = isObject(info.time) ? info.time : {};
          return [...started, ...(role === 'assistant' && time.completed ? writeParts(id) : [])];
        }
        case 'message.part.updated':
          return isObject(p.part) ? onPart(p.part) : [];
        case 'message.part.delta': {
          const part = parts.get(str(p.partID) ?? '');
          if (part && p.field === 'text' && typeof p.delta === 'string') part.text += p.delta;
          return [];
        }
        case 'session.status': {
          const status = isObject(p.status) ? p.status : {};
          if (status.type === 'busy' && ours(str(p.sessionID))) busy = true;
          return status.type === 'idle' ? ended(str(p.sessionID)) : [];
        }
        case 'session.idle':
          return ended(str(p.sessionID));
        case 'permission.asked':
        case 'permission.updated': {
          const ask = opencodeAsk(p);
          return ask && ours(ask.sessionId) ? [{ kind: 'ask', ask }] : [];
        }
        case 'permission.replied': {
          const id = str(p.requestID) ?? str(p.permissionID);
          return id ? [{ kind: 'replied', id }] : [];
        }
        default:
          return [];
      }
    },
  };
}
