// verdict.ts: the shape of what an agent is told for a person's answer (runner/verdict.ts makes it
// from the phone's answer). Here, beside the Agent record, because an agent's headless transport
// translates it into its own protocol, and agents import nothing from the runner.
import type { HookEventArg } from '../hooks/events.ts';

/** claude's permission-update entry (its hooks reference: `updatedPermissions`): `session` for
 *  "allow for this session", `localSettings` for a rule the person accepted (the project's
 *  `.claude/settings.local.json`, which claude writes itself). */
export type AddRulesUpdate = { type: 'addRules'; rules: Array<{ toolName: string; ruleContent?: string }>; behavior: 'allow'; destination: 'session' | 'localSettings' };
export type PermissionUpdate = AddRulesUpdate | { type: 'setMode'; mode: 'acceptEdits' | 'default'; destination: 'session' };

/** What claude is told: the same shape for the PermissionRequest hook's `decision` and for a
 *  stream-json `can_use_tool` response. */
export type Verdict =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
  | { behavior: 'deny'; message: string };

/** Hooks that speak another dialect than claude's (Gemini's BeforeTool, Codex's patch;
 *  Agent.hookDialect): each payload read into claude's words, and a permission's verdict written in
 *  the agent's own (null: nobody answered, so the agent's own dialog must ask at the desk; no
 *  `permission`: the agent reads claude's words). */
export type HookDialect = {
  payload(event: HookEventArg, payload: Record<string, unknown>): Record<string, unknown>;
  permission?(verdict: Verdict | null): Record<string, unknown>;
};
