// hooks.ts: the hooks tether registers in Gemini CLI's settings (home.ts puts them in a private copy),
// and their dialect: Gemini's payloads read into claude's words for the runner, a verdict written
// back as Gemini's BeforeTool output.
//
//   SessionStart → session-start   BeforeAgent → user-prompt-submit   AfterAgent → stop
//   AfterTool → post-tool-use      Notification → notification (ToolPermission: its own dialog is up)
//   BeforeTool (matcher: every tool but the read-only ones, gate.ts) → permission-request
//
// Each is a command (`tether hook <event>`, the runner's endpoint in a 0600 file). The permission
// hook fails closed: with no answer from the runner it prints `{"decision":"ask"}` (Gemini's own
// dialog asks at the desk), and should the command itself fail (a non-zero exit is only a warning to
// Gemini, which would then run the call under yolo) the shell prints the same.
import { realpathSync } from 'node:fs';
import { HOOK_UNANSWERED_ENV, type HookEventArg } from '../../hooks/events.ts';
import type { HookDialect } from '../agent.ts';
import { resumedSessionFile } from './resumed-file.ts';
import { chatTool } from './transcript.ts';

const ASK = JSON.stringify({ decision: 'ask' });
/** A permission waits for a person (a day bounds their thinking time, in ms as Gemini takes it);
 *  facts are answered at once. */
const PERSON_TIMEOUT_MS = 86_400_000;
const FACT_TIMEOUT_MS = 30_000;

const FACT_HOOKS: Array<{ name: string; event: HookEventArg }> = [
  { name: 'SessionStart', event: 'session-start' },
  { name: 'BeforeAgent', event: 'user-prompt-submit' },
  { name: 'AfterAgent', event: 'stop' },
  { name: 'AfterTool', event: 'post-tool-use' },
  { name: 'Notification', event: 'notification' },
];

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** The `hooks` settings for one launch. `matcher`: the BeforeTool gate's tools (null: no gate). */
export function geminiHookSettings(o: { commandFor: (event: HookEventArg) => string; matcher: string | null; permissionHook: boolean }): Record<string, unknown[]> {
  const hook = (command: string, timeout: number, name: string) => ({ type: 'command', name, command, timeout });
  const settings: Record<string, unknown[]> = {};
  for (const { name, event } of FACT_HOOKS) settings[name] = [{ hooks: [hook(o.commandFor(event), FACT_TIMEOUT_MS, `tether ${event}`)] }];
  if (o.permissionHook && o.matcher !== null) {
    const command = `${HOOK_UNANSWERED_ENV}=${shellQuote(ASK)} ${o.commandFor('permission-request')} || echo ${shellQuote(ASK)}`;
    settings.BeforeTool = [{ matcher: o.matcher, hooks: [hook(command, PERSON_TIMEOUT_MS, 'tether permission')] }];
  }
  return settings;
}

const realPath = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

export const geminiHookDialect = {
  payload(event, p) {
    const out: Record<string, unknown> = { ...p };
    // The path as the user's `~/.gemini` has it, not through the launch's private home (gone after).
    if (typeof p.transcript_path === 'string') out.transcript_path = realPath(p.transcript_path);
    // A resume names a fresh recording; its turns go to the file it loaded (resumed-file.ts).
    if (event === 'session-start' && p.source === 'resume' && typeof out.transcript_path === 'string') out.transcript_path = resumedSessionFile(out.transcript_path);
    if (event === 'permission-request' && typeof p.tool_name === 'string') {
      const { name, input } = chatTool(p.tool_name, p.tool_input);
      out.tool_name = name;
      out.tool_input = input;
    }
    if (event === 'notification' && p.notification_type === 'ToolPermission') out.notification_type = 'permission_prompt';
    return out;
  },
  permission(verdict) {
    if (!verdict) return { decision: 'ask' };
    if (verdict.behavior === 'deny') return { decision: 'deny', reason: verdict.message };
    return { decision: 'allow' };
  },
} satisfies HookDialect;
