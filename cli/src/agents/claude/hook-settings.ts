// settings.ts: the `--settings` file that registers tether's hooks with claude, and the private
// directory it lives in (with the 0600 endpoint file the one command hook reads).
//
//   claude ──HTTP POST 127.0.0.1:<port>/hook/<event>, secret header──► runner's hook server
//          (UserPromptSubmit, Stop, StopFailure, Notification, PreToolUse, PostToolUse, PermissionRequest, Elicitation)
//   claude ──/bin/sh -c "TETHER_HOOK_FILE=… <tether> hook session-start"──► hook client ──► same server
//          (SessionStart: claude runs only command hooks for it)
//
// No process starts per tool call. PermissionRequest is the approval hook: claude calls it only
// when it would show its own permission dialog (its mode and the user's rules decide), so tether
// never re-decides a policy. Headless sessions get their permission questions over stream-json
// (`can_use_tool`) instead, so they register no PermissionRequest hook (`permissionHook: false`).
// Invariant: nothing is written outside the private dir (0700, files 0600); remove() deletes all of it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_EVENTS, HOOK_SECRET_HEADER, type HookEndpoint, type HookEventArg } from '../../hooks/events.ts';
import { hookCommand, writeHookEndpoint } from '../../hooks/endpoint-file.ts';

/** claude (2.1.197 and 2.1.330, checked) calls HTTP hooks for every event tether uses but
 *  SessionStart, which only runs command hooks: that one stays a `tether hook` process, once per
 *  start, resume or /clear. Every other event is a POST with no process (CLAUDE-CODE.md §10). */
const COMMAND_HOOK_EVENTS: ReadonlySet<HookEventArg> = new Set(['session-start']);

/** PermissionRequest and Elicitation wait for a person; one day only bounds a human's thinking
 *  time. Claude's own permission dialog stays at the desk meanwhile; its elicitation form is drawn
 *  only once the hook gave no answer (see runner/elicitation.ts). */
const PERSON_TIMEOUT_S = 86_400;
const WAITS_FOR_PERSON: ReadonlySet<HookEventArg> = new Set(['permission-request', 'elicitation']);
/** The other hooks only post a fact to the loopback runner; 30 s is generous for that. */
const FACT_HOOK_TIMEOUT_S = 30;
/** Tools that only read. claude spends ~20 ms on each HTTP hook call, even one answered at once
 *  (measured: 2.1.197 and 2.1.330), and a session runs many reads, so PreToolUse/PostToolUse skip
 *  them. That is not a permission decision: PermissionRequest still matches every tool, so a read
 *  that claude does ask about (a file outside the project) still reaches the phone. */
const READ_ONLY_TOOLS = ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'TodoRead', 'TodoWrite', 'TaskList', 'TaskGet', 'TaskCreate', 'TaskUpdate', 'TaskOutput', 'CronList', 'ToolSearch'];
/** claude's matcher is a regular expression over the tool name; a tool added later is observed. */
export const OBSERVED_TOOLS_MATCHER = `^(?!(${READ_ONLY_TOOLS.join('|')})$).*`;
/** Events whose settings entry takes a tool matcher, and that matcher. */
const TOOL_MATCHERS: Partial<Record<HookEventArg, string>> = {
  'pre-tool-use': OBSERVED_TOOLS_MATCHER,
  'post-tool-use': OBSERVED_TOOLS_MATCHER,
  'permission-request': '*',
};

export type HookSettingsDir = {
  dir: string;
  settingsPath: string;
  endpointPath: string;
  remove(): void;
};

export { hookCommand };

export function buildHookSettings(options: {
  endpoint: HookEndpoint;
  endpointPath: string;
  /** Register the PermissionRequest hook (PTY sessions); headless asks over stream-json instead. */
  permissionHook?: boolean;
  tether?: string[];
}): Record<string, unknown> {
  const hooks: Record<string, unknown[]> = {};
  for (const [arg, name] of Object.entries(HOOK_EVENTS) as Array<[HookEventArg, string]>) {
    if (arg === 'permission-request' && options.permissionHook === false) continue;
    const timeout = WAITS_FOR_PERSON.has(arg) ? PERSON_TIMEOUT_S : FACT_HOOK_TIMEOUT_S;
    const entry = COMMAND_HOOK_EVENTS.has(arg)
      ? { type: 'command', command: hookCommand({ event: arg, endpointPath: options.endpointPath, ...(options.tether ? { tether: options.tether } : {}) }), timeout }
      : { type: 'http', url: `http://127.0.0.1:${options.endpoint.port}/hook/${arg}`, headers: { [HOOK_SECRET_HEADER]: options.endpoint.secret }, timeout };
    const matcher = TOOL_MATCHERS[arg];
    hooks[name] = matcher ? [{ matcher, hooks: [entry] }] : [{ hooks: [entry] }];
  }
  return { hooks };
}

/** Creates the private dir (0700) with settings.json and the endpoint file (0600). */
export function writeHookSettings(options: { endpoint: HookEndpoint; permissionHook?: boolean; tether?: string[] }): HookSettingsDir {
  const file = writeHookEndpoint({ endpoint: options.endpoint });
  const settingsPath = join(file.dir, 'settings.json');
  const settings = buildHookSettings({ ...options, endpointPath: file.endpointPath });
  writeFileSync(settingsPath, JSON.stringify(settings, null, 2), { mode: 0o600 });
  return { dir: file.dir, settingsPath, endpointPath: file.endpointPath, remove: file.remove };
}
