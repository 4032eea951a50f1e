// events.ts: the hook events tether registers, by the path segment the runner's hook server routes
// and the name claude's settings use. Shared by settings.ts (runner side), server.ts and client.ts
// (the one hook that is still a process), and kept dependency-free so that process loads nothing else.

export const HOOK_EVENTS = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  stop: 'Stop',
  // A turn that ended on an API error (a usage limit, an overload): claude sends no Stop for it.
  'stop-failure': 'StopFailure',
  notification: 'Notification',
  'pre-tool-use': 'PreToolUse',
  'post-tool-use': 'PostToolUse',
  'permission-request': 'PermissionRequest',
  elicitation: 'Elicitation',
} as const;
export type HookEventArg = keyof typeof HOOK_EVENTS;
export type HookEventName = (typeof HOOK_EVENTS)[HookEventArg];

export function isHookEventArg(value: string): value is HookEventArg {
  return Object.hasOwn(HOOK_EVENTS, value);
}

/** Env var naming the 0600 file with the runner's hook port and secret (see settings.ts). */
export const HOOK_FILE_ENV = 'TETHER_HOOK_FILE';
/** Env var holding what `tether hook` prints when the runner gives no answer (unreachable, wedged):
 *  an agent whose silence would allow (Gemini under yolo) names its "ask at the desk" here. */
export const HOOK_UNANSWERED_ENV = 'TETHER_HOOK_UNANSWERED';
/** Header carrying the per-session secret on every hook request. */
export const HOOK_SECRET_HEADER = 'x-tether-hook-secret';
/** Header with the id a hook process gives its request. */
export const HOOK_REQUEST_ID_HEADER = 'x-tether-hook-request';

export type HookEndpoint = { port: number; secret: string };
