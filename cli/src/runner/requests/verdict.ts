// verdict.ts: what claude is told for an answer from the hub. One shape serves the PermissionRequest
// hook's `decision` and a stream-json `can_use_tool` response, so a phone's answer means the same to
// a PTY session and a headless one. A deny always carries a message the model reads.
import type { Answer, PendingRequest, RequestKind, SessionRule } from '@tether/shared';
import type { AddRulesUpdate, PermissionUpdate, Verdict } from '../../agents/verdict.ts';

export type { AddRulesUpdate, PermissionUpdate, Verdict };

const DEFAULT_DENY: Record<RequestKind, string> = {
  permission: 'The user denied this tool call.',
  question: 'The user declined to answer.',
  plan: 'The user wants to keep planning.',
  dialog: 'The user declined.',
  elicitation: 'The user declined.',
};

/** claude's rule for "allow for this session": the tool, one exact Bash command, or `prefix:*`. */
export function sessionRuleUpdate(options: { rule: SessionRule; toolName: string; toolInput: Record<string, unknown> }): AddRulesUpdate[] {
  const { rule, toolName, toolInput } = options;
  const command = typeof toolInput.command === 'string' ? toolInput.command.trim() : '';
  const entry = (() => {
    switch (rule.kind) {
      case 'tool':
        return { toolName };
      case 'bash-exact':
        return command ? { toolName: 'Bash', ruleContent: command } : null;
      case 'bash-prefix':
        return { toolName: 'Bash', ruleContent: `${rule.prefix.replace(/:\*$/, '').trim()}:*` };
      default: {
        const never: never = rule;
        return never;
      }
    }
  })();
  return entry ? [{ type: 'addRules', rules: [entry], behavior: 'allow', destination: 'session' }] : [];
}

/** The verdict an answer from the hub stands for. */
export function verdictFor(options: { request: PendingRequest; answer: Answer }): Verdict {
  const { request, answer } = options;
  if (answer.decision === 'deny') return { behavior: 'deny', message: answer.reason?.trim() || DEFAULT_DENY[request.kind] };
  // An edited input is taken for a permission only: a question's input is its answers, and a plan's
  // or an elicitation's is not the person's to rewrite.
  const edited = request.kind === 'permission' && answer.updatedInput ? { ...request.toolInput, ...answer.updatedInput } : null;
  return {
    behavior: 'allow',
    ...(answer.answers ? { updatedInput: { ...request.toolInput, answers: answer.answers } } : {}),
    ...(edited ? { updatedInput: edited } : {}),
    ...(answer.sessionRule ? { updatedPermissions: sessionRuleUpdate({ rule: answer.sessionRule, toolName: request.toolName, toolInput: request.toolInput }) } : {}),
    ...(request.kind === 'plan' && answer.planMode ? { updatedPermissions: [{ type: 'setMode', mode: answer.planMode, destination: 'session' }] } : {}),
  };
}
