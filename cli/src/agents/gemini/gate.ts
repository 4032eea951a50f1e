// gate.ts: tether's BeforeTool gate in a PTY Gemini, and its policy, which is the session's mode.
//
// Gemini runs in yolo (launch.ts: an `allow` from its hook would not skip its own dialog otherwise),
// so nothing but this gate stands between a call and its running. The hook is registered for every
// tool but Gemini's read-only ones (GATED_TOOLS_MATCHER), whatever the mode, so the mode can change
// under a running Gemini (the phone, `tether mode`, the desk's Shift+Tab read back); what a call gets
// is decided per call from the mode at that moment (docs/decisions/agents.md, "Gemini's mode"):
//
//   plan               every gated call refused (writes, shell, fetches, MCP and unknown tools): fail closed
//   bypassPermissions  every call runs
//   acceptEdits        edits run (Gemini's write.toml: write_file, replace, web_fetch); the rest asked
//   default            asked
//   in every mode but plan, a tool the user allowed by name (settings tools.allowed) runs
//
// "Asked" is the phone (the runner's approvals), unless the desk took Gemini out of yolo: its own
// policy would then ask again after an allow, so the call goes to its own dialog instead, which the
// dialog bridge puts to the phone (one question, not two).
import type { GateAnswer, HookGate } from '../agent.ts';

/** Tools that never ask in any mode (Gemini's read-only.toml and agents.toml, the same in 0.58.0 and
 *  0.61.0), and ask_user (its own question, drawn by Gemini even in yolo). Never gated: reading is
 *  what plan mode is for. */
const NEVER_ASK = [
  'glob', 'grep_search', 'list_directory', 'read_file', 'google_web_search', 'codebase_investigator', 'cli_help', 'get_internal_docs',
  'tracker_create_task', 'tracker_update_task', 'tracker_get_task', 'tracker_list_tasks', 'tracker_add_dependency', 'tracker_visualize',
  'update_topic', 'complete_task', 'read_mcp_resource', 'list_mcp_resources', 'invoke_agent', 'ask_user',
];
/** Allowed without asking in auto_edit (write.toml's autoEdit rules). */
const EDITS = new Set(['write_file', 'replace', 'web_fetch']);

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The BeforeTool matcher: every tool name but the read-only ones. */
export const GATED_TOOLS_MATCHER = `^(?!(?:${NEVER_ASK.map(escapeRegex).join('|')})$).*`;

export const PLAN_DENIED =
  'tether: this session is in plan mode (read-only). Reading and searching are allowed; every write, shell command, fetch and other tool is refused. Say what you would change instead.';

/** The gate for one launch. `allowed`: tool names the user allowed outright (settings
 *  `tools.allowed`); an allow with arguments (`run_shell_command(git)`) still asks. */
export function createGeminiGate(o: { allowed: readonly string[] }): HookGate {
  const allowed = new Set(o.allowed.filter((name) => /^[\w-]+$/.test(name)));
  return ({ mode, payload, agentAsksToo }): GateAnswer => {
    // No tool name is no call this gate can judge: refused in plan, asked otherwise.
    const tool = typeof payload.tool_name === 'string' ? payload.tool_name : '';
    if (mode === 'plan') return { behavior: 'deny', message: PLAN_DENIED };
    if (mode === 'bypassPermissions') return { behavior: 'allow' };
    if (tool !== '' && allowed.has(tool)) return { behavior: 'allow' };
    if (mode === 'acceptEdits' && EDITS.has(tool)) return { behavior: 'allow' };
    return agentAsksToo ? { behavior: 'ask-agent' } : { behavior: 'ask-person' };
  };
}
