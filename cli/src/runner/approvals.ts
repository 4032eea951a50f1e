// approvals.ts: one PreToolUse call turned into a hub approval and back into claude's decision JSON.
//
//   hook ──► decideToolUse ──allow──► {"permissionDecision":"allow"}
//                          ──defer──► {} (claude's own dialog at the desk)
//                          ──ask-hub──► approval:request ─► … approval:answered ─► allow/deny JSON
//   hook cancelled (Esc / killed) ──► approval:withdraw on the hub
//
// This version: the hub decides when connected; without the hub claude asks at the desk.
// The approvals issue adds answering from the desk while the hub waits.
import { requestKindForTool, type Answer, type PermissionMode } from '@tether/shared';
import { decideToolUse } from '../policy/decide.ts';
import type { SessionRules } from '../policy/rules.ts';
import type { HubLink } from '../hub-link/link.ts';

export type Approvals = {
  decide(options: { payload: Record<string, unknown>; signal: AbortSignal }): Promise<Record<string, unknown>>;
  answered(options: { requestId: string; answer: Answer }): void;
  stop(): void;
};

function decision(kind: 'allow' | 'deny', reason: string, updatedInput?: Record<string, unknown>): Record<string, unknown> {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: kind,
      permissionDecisionReason: reason,
      ...(updatedInput ? { updatedInput } : {}),
    },
  };
}

export function createApprovals(options: {
  sessionId: string;
  link: HubLink | null;
  rules: SessionRules;
  permissionMode: () => PermissionMode;
}): Approvals {
  const waiting = new Map<string, (answer: Answer | null) => void>();
  return {
    decide: async ({ payload, signal }) => {
      const toolName = typeof payload.tool_name === 'string' ? payload.tool_name : '';
      const toolInput = payload.tool_input && typeof payload.tool_input === 'object' ? (payload.tool_input as Record<string, unknown>) : {};
      const mode = typeof payload.permission_mode === 'string' ? (payload.permission_mode as PermissionMode) : options.permissionMode();
      const link = options.link;
      const verdict = decideToolUse({ toolName, toolInput, permissionMode: mode, rules: options.rules, hubConnected: !!link?.connected() });
      if (verdict.kind === 'allow') return decision('allow', `tether: ${verdict.reason}`);
      if (verdict.kind === 'defer' || !link) return {};
      const requestId = crypto.randomUUID();
      const answer = new Promise<Answer | null>((resolve) => waiting.set(requestId, resolve));
      const ack = await link.request('approval:request', {
        id: requestId,
        sessionId: options.sessionId,
        kind: requestKindForTool(toolName),
        toolName,
        toolInput,
        toolUseId: typeof payload.tool_use_id === 'string' ? payload.tool_use_id : null,
        createdAt: Date.now(),
      });
      if (!ack || !ack.ok) {
        waiting.delete(requestId);
        return {}; // the hub could not take it: claude asks at the desk
      }
      const onCancel = () => waiting.get(requestId)?.(null);
      signal.addEventListener('abort', onCancel);
      const result = await answer;
      signal.removeEventListener('abort', onCancel);
      waiting.delete(requestId);
      if (!result) {
        void link.request('approval:withdraw', { sessionId: options.sessionId, requestId, reason: 'cancelled at the desk' });
        return decision('deny', 'tether: the request was cancelled');
      }
      if (result.decision === 'deny') return decision('deny', result.reason ?? 'denied from tether');
      if (result.sessionRule) options.rules.addFromAnswer({ rule: result.sessionRule, toolName, toolInput });
      const updatedInput = result.answers ? { ...toolInput, answers: result.answers } : undefined;
      return decision('allow', result.reason ?? 'allowed from tether', updatedInput);
    },
    answered: ({ requestId, answer }) => waiting.get(requestId)?.(answer),
    stop: () => {
      for (const resolve of waiting.values()) resolve(null);
      waiting.clear();
    },
  };
}
