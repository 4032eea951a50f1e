// decide.ts: the pure permission policy the runner applies to every PreToolUse call.
// In: the tool call, the permission mode, the session's rules, whether the hub is connected.
// Out: allow now, ask the hub (a person decides), or defer to claude's own dialog at the desk.
//
// Rules, in order (questions skip the first four: they always need a person's answer):
//   - read-only tools are allowed without asking, in every mode;
//   - a session rule ("allow for this session": the tool, an exact Bash command, a `prefix:*`) allows;
//   - bypassPermissions allows, but only when the user asked for it when starting the session
//     (`bypassAllowed`); a mode claude reports without that request is treated as default;
//   - acceptEdits allows Edit/Write/MultiEdit/NotebookEdit on files inside the session's cwd;
//   - plan and default ask (claude itself keeps plan mode read-only; a write it still tries is asked);
//   - otherwise, with the hub connected, a person decides (hub and desk); without it, claude shows
//     its own dialog at the desk (`{}`), so nothing is allowed silently.
import type { PermissionMode } from '@tether/shared';
import { isAbsolute, relative, resolve } from 'node:path';
import type { SessionRules } from './rules.ts';

/** Tools that only read (files, search, the task list) and never change the machine. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'TodoWrite',
  'TodoRead',
  'TaskList',
  'TaskGet',
  'TaskCreate',
  'TaskUpdate',
  'TaskOutput',
  'CronList',
  'ToolSearch',
]);

/** Tools acceptEdits mode lets through. */
const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/** Tools that are questions to the user rather than actions: always a person's answer. */
const QUESTION_TOOLS: ReadonlySet<string> = new Set(['AskUserQuestion', 'ExitPlanMode']);

export type ToolDecision =
  | { kind: 'allow'; reason: string }
  | { kind: 'ask-hub' }
  | { kind: 'defer' };

/** The file an edit tool writes, when it names one. */
function editTarget(toolInput: Record<string, unknown>): string | null {
  for (const key of ['file_path', 'notebook_path', 'path']) {
    const value = toolInput[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return null;
}

/** True when `path` is `cwd` or below it (no `..` escape); relative paths are taken from cwd. */
export function isInsideDir(options: { path: string; dir: string }): boolean {
  const rel = relative(resolve(options.dir), resolve(options.dir, options.path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export function decideToolUse(options: {
  toolName: string;
  toolInput: Record<string, unknown>;
  permissionMode: PermissionMode;
  rules: SessionRules;
  hubConnected: boolean;
  /** The session's working directory (acceptEdits only allows edits inside it). */
  cwd?: string;
  /** The user started the session asking for bypass (`--dangerously-skip-permissions`, …). */
  bypassAllowed?: boolean;
}): ToolDecision {
  const { toolName, toolInput, permissionMode } = options;
  const question = QUESTION_TOOLS.has(toolName);
  if (!question) {
    if (READ_ONLY_TOOLS.has(toolName)) return { kind: 'allow', reason: 'read-only tool' };
    if (options.rules.matches({ toolName, toolInput })) return { kind: 'allow', reason: 'allowed for this session' };
    if (permissionMode === 'bypassPermissions' && options.bypassAllowed) return { kind: 'allow', reason: 'bypass permissions (asked for by the user)' };
    if (permissionMode === 'acceptEdits' && EDIT_TOOLS.has(toolName) && options.cwd) {
      const target = editTarget(toolInput);
      if (target && isInsideDir({ path: target, dir: options.cwd })) return { kind: 'allow', reason: 'accept edits mode (inside the working directory)' };
    }
  }
  return options.hubConnected ? { kind: 'ask-hub' } : { kind: 'defer' };
}
