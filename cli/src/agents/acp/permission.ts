// permission.ts: an ACP `session/request_permission` as a question to a person, and the person's
// answer as one of the options the agent offered.
//
//   toolCall {title, kind, content: diff|text, locations} ─► {toolName, toolInput} the phone draws
//     execute ─► Bash {command: rawInput.command or title}     edit with a diff ─► Write {file_path, content} or
//     Edit {file_path, old_string, new_string}     anything else ─► its title, as the agent named it
//   verdict ─► outcome: allow ─► the `allow_once` option (`allow_always` only when the person chose a
//     rule); deny, an edit, nobody to ask ─► the `reject_once` option (never a standing rejection),
//     or `cancelled` when the agent offered none
//
// ACP's outcome carries no message, so a deny's reason (and why an edited call was refused) is
// returned as `tell`: the transport says it to the model as the turn's next input.
import type { Verdict } from '../verdict.ts';

type Json = Record<string, unknown>;

export type PermissionOption = { optionId: string; kind: string; name: string };
export type PermissionOutcome = { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string };

const EDITED = 'The person edited this call before allowing it, and tether cannot run an edited call here: ask again with the call as they want it.';

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The options the agent offered, the malformed ones left out. */
export function permissionOptions(value: unknown): PermissionOption[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((option) => {
    if (!isObject(option) || typeof option.optionId !== 'string' || typeof option.kind !== 'string') return [];
    return [{ optionId: option.optionId, kind: option.kind, name: str(option.name) ?? option.optionId }];
  });
}

/** The call the agent asks about, in the words the phone draws (claude's tool names where one fits). */
export function permissionQuestion(toolCall: unknown): { toolName: string; toolInput: Json; toolUseId: string | null } {
  const call = isObject(toolCall) ? toolCall : {};
  const title = str(call.title) ?? '';
  const toolUseId = str(call.toolCallId);
  const content = Array.isArray(call.content) ? call.content.filter(isObject) : [];
  const diff = content.find((c) => c.type === 'diff' && typeof c.path === 'string');
  const said = content.flatMap((c) => (c.type === 'content' && isObject(c.content) && typeof c.content.text === 'string' ? [c.content.text] : [])).join('\n');
  const description = said ? { description: said } : {};
  // The command as the agent ran it: its raw input's (opencode 1.17 titles the call "bash"), else the title.
  const raw = isObject(call.rawInput) ? call.rawInput : {};
  if (call.kind === 'execute') return { toolName: 'Bash', toolInput: { command: str(raw.command) ?? title, ...(said ? description : typeof raw.description === 'string' ? { description: raw.description } : {}) }, toolUseId };
  if (diff) {
    const oldText = str(diff.oldText);
    const newText = str(diff.newText) ?? '';
    if (!oldText) return { toolName: 'Write', toolInput: { file_path: diff.path, content: newText }, toolUseId };
    return { toolName: 'Edit', toolInput: { file_path: diff.path, old_string: oldText, new_string: newText }, toolUseId };
  }
  const locations = Array.isArray(call.locations) ? call.locations.flatMap((l) => (isObject(l) && typeof l.path === 'string' ? [l.path] : [])) : [];
  return { toolName: title || 'a tool', toolInput: { ...(typeof call.kind === 'string' ? { kind: call.kind } : {}), ...description, ...(locations.length ? { locations } : {}) }, toolUseId };
}

/** The person's answer as an option the agent offered; `tell`: what the model should read after. */
export function permissionOutcome(options: PermissionOption[], verdict: Verdict | null): { outcome: PermissionOutcome; tell: string | null } {
  const pick = (kind: string): PermissionOutcome | null => {
    const option = options.find((o) => o.kind === kind);
    return option ? { outcome: 'selected', optionId: option.optionId } : null;
  };
  const reject = (tell: string | null) => ({ outcome: pick('reject_once') ?? { outcome: 'cancelled' as const }, tell });
  if (!verdict) return reject(null);
  if (verdict.behavior === 'deny') return reject(verdict.message || null);
  if (verdict.updatedInput) return reject(EDITED);
  const always = verdict.updatedPermissions?.length ? pick('allow_always') : null;
  const once = always ?? pick('allow_once');
  // An agent that offers no way to allow once: no (fail closed) rather than a rule nobody chose.
  return once ? { outcome: once, tell: null } : reject(null);
}

/** The raw input of each tool call the agent announced (session/update `tool_call` and its updates),
 *  until it ends. An agent may ask about a call with less than it announced (opencode's permission
 *  carries the shell command but not the description its `bash` call gave): the question is filled
 *  from what was announced, the permission's own input winning. */
export function createCallInputs(): { update(update: unknown): void; fill(toolCall: unknown): unknown } {
  const inputs = new Map<string, Json>();
  return {
    update(update) {
      if (!isObject(update) || (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update')) return;
      const id = str(update.toolCallId);
      if (!id) return;
      if (update.status === 'completed' || update.status === 'failed') return void inputs.delete(id);
      if (isObject(update.rawInput)) inputs.set(id, { ...inputs.get(id), ...update.rawInput });
    },
    fill(toolCall) {
      if (!isObject(toolCall)) return toolCall;
      const known = inputs.get(str(toolCall.toolCallId) ?? '');
      if (!known) return toolCall;
      return { ...toolCall, rawInput: { ...known, ...(isObject(toolCall.rawInput) ? toolCall.rawInput : {}) } };
    },
  };
}
