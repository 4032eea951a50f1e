// decide.ts: the pure permission policy the runner applies to every PreToolUse call.
// In: the tool call, the permission mode, the session's rules, whether the hub is connected.
// Out: allow now, ask the hub (a person decides), or defer to claude's own dialog at the desk.
//
// This rules (the approvals issue refines them):
//   - read-only tools are allowed without asking;
//   - a session rule ("allow for this session") allows;
//   - bypassPermissions (only ever set when the user asked for it) allows;
//   - acceptEdits allows file edits;
//   - otherwise, with the hub connected, a person decides through the hub; without it, claude
//     shows its own dialog at the desk (`{}`), so nothing is allowed silently.
import type { PermissionMode } from '@tether/shared';
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

export function decideToolUse(options: {
  toolName: string;
  toolInput: Record<string, unknown>;
  permissionMode: PermissionMode;
  rules: SessionRules;
  hubConnected: boolean;
}): ToolDecision {
  const { toolName, toolInput, permissionMode } = options;
  const question = QUESTION_TOOLS.has(toolName);
  if (!question) {
    if (READ_ONLY_TOOLS.has(toolName)) return { kind: 'allow', reason: 'read-only tool' };
    if (options.rules.matches({ toolName, toolInput })) return { kind: 'allow', reason: 'allowed for this session' };
    if (permissionMode === 'bypassPermissions') return { kind: 'allow', reason: 'bypass permissions (asked for by the user)' };
    if (permissionMode === 'acceptEdits' && EDIT_TOOLS.has(toolName)) return { kind: 'allow', reason: 'accept edits mode' };
  }
  return options.hubConnected ? { kind: 'ask-hub' } : { kind: 'defer' };
}
