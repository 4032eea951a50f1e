// hook-dialect.ts: Codex's hook payloads in the words the runner reads (Agent.hookDialect; its
// verdicts are claude's, so only payloads are read). A patch is the one difference: its
// PermissionRequest and PreToolUse hooks name the tool `apply_patch` with the patch text as
// `tool_input.command` (0.160.0 and 0.171.0, seen when the sandbox refuses the write), which the
// phone would show as raw text. It becomes the neutral FileChanges (file-changes.ts), so the approval
// sheet draws its files and diffs as for a headless Codex's patch; both hooks read it alike, so the
// approval still finds its call. A patch tether cannot read stays as Codex named it.
import { FILE_CHANGES_TOOL_NAME } from '@tether/shared';
import type { HookDialect } from '../agent.ts';
import { fileChangesQuestion, fromApplyPatchText } from './file-changes.ts';

export const codexHookDialect: HookDialect = {
  payload(event, p) {
    if ((event !== 'permission-request' && event !== 'pre-tool-use') || p.tool_name !== 'apply_patch') return p;
    const input = p.tool_input && typeof p.tool_input === 'object' ? (p.tool_input as { command?: unknown }) : {};
    const changes = typeof input.command === 'string' ? fromApplyPatchText(input.command) : [];
    if (changes.length === 0) return p;
    const question = fileChangesQuestion(changes, null);
    return { ...p, tool_name: FILE_CHANGES_TOOL_NAME, tool_input: question.toolInput };
  },
};
