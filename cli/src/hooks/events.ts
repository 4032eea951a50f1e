// events.ts: the hook events tether registers, by the name `tether hook <name>` takes and the name
// claude's settings use. Shared by settings.ts (runner side) and client.ts (hook process side), and
// kept dependency-free so the hook process loads nothing else.

export const HOOK_EVENTS = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  stop: 'Stop',
  notification: 'Notification',
  'pre-tool-use': 'PreToolUse',
  'post-tool-use': 'PostToolUse',
} as const;
export type HookEventArg = keyof typeof HOOK_EVENTS;
export type HookEventName = (typeof HOOK_EVENTS)[HookEventArg];

export function isHookEventArg(value: string): value is HookEventArg {
  return Object.hasOwn(HOOK_EVENTS, value);
}

/** Env var naming the 0600 file with the runner's hook port and secret (see settings.ts). */
export const HOOK_FILE_ENV = 'TETHER_HOOK_FILE';
/** Header carrying the per-session secret on every hook request. */
export const HOOK_SECRET_HEADER = 'x-tether-hook-secret';
/** Header with the id a hook process gives its request, so it can cancel it. */
export const HOOK_REQUEST_ID_HEADER = 'x-tether-hook-request';

export type HookEndpoint = { port: number; secret: string };
