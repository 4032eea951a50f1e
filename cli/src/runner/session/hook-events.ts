// hook-events.ts: what each hook event the agent calls means for the session. The hook server
// (hooks/server.ts) receives them; this turns them into the session's facts (status, the agent's
// session id, model, mode, effort, transcript path), approvals and MCP forms, and hands the runner
// what differs per launch kind (SessionHooks).
import { isAgentSessionId, notificationNeedsPerson, type AskedBy, type PermissionMode, type SessionPatch, type SessionStatus } from '@tether/shared';
import type { GateAnswer, HookGate } from '../../agents/agent.ts';
import type { HookRequest } from '../../hooks/server.ts';
import type { HubLink } from '../../hub-link/link.ts';
import type { Approvals, Verdict } from '../requests/approvals.ts';
import type { HookDialect } from '../../agents/verdict.ts';
import type { Elicitations } from '../requests/elicitation.ts';
import type { StatusTracker } from './status.ts';

/** What differs per runner in the agent's hook events; the rest is handled here. */
export type SessionHooks = {
  /** SessionStart, before its session id, model and transcript path are taken. */
  onSessionStart?: (payload: Record<string, unknown>) => void;
  /** SessionStart named the transcript (`source`: startup, resume, clear, compact, fork), or a
   *  fork's first prompt did (`fork`). */
  onTranscript: (path: string, source: string) => void;
  onStop?: () => void;
  /** SessionStart named the agent's session: who tells the hub (default: at once). A headless
   *  session tells it only once the transcript has a line (session/core nameUnwrittenSession). */
  nameSession?: (id: string) => void;
  /** PreToolUse (`start`) and PostToolUse (`end`) of any tool call. */
  onToolEvent?: (event: { phase: 'start' | 'end'; payload: Record<string, unknown> }) => void;
};

/** The verdict the agent is told. `plain`: the agent takes only allow or deny with a message; an
 *  edited input it cannot run is refused (never run as first asked). */
function toldVerdict(verdict: Verdict, plain: boolean): Verdict {
  if (!plain || verdict.behavior !== 'allow') return verdict;
  return verdict.updatedInput
    ? { behavior: 'deny', message: 'The person edited this call before allowing it, and this agent cannot run an edited call: ask again with the call as they want it.' }
    : { behavior: 'allow' };
}

/** The PermissionRequest hook's answer (claude's shape, Codex's too) for a verdict. */
function permissionDecision(verdict: Verdict): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: verdict } };
}

/** What the agent is told for a gate's own answer: no person is asked (`ask-agent`: its own dialog). */
function gateAnswer(answer: Exclude<GateAnswer, { behavior: 'ask-person' }>, dialect: HookDialect | undefined): Record<string, unknown> {
  const verdict: Verdict | null = answer.behavior === 'ask-agent' ? null : answer.behavior === 'deny' ? { behavior: 'deny', message: answer.message } : { behavior: 'allow' };
  if (dialect?.permission) return dialect.permission(verdict);
  return verdict ? permissionDecision(verdict) : {};
}

export function createHookHandler(init: {
  hooks: SessionHooks;
  approvals: Approvals;
  elicitations: Elicitations;
  state: { id: string; status: SessionStatus; agentSessionId: string | null; model: string | null; permissionMode: PermissionMode; agentAsksToo?: boolean };
  patch: (p: SessionPatch) => void;
  /** Where what a hook says about the turn and the person is told (status.ts). */
  status: Pick<StatusTracker, 'publish'>;
  link: () => HubLink | null;
  /** Every payload: the hook fired (pace), and the mode and effort it names. */
  onAny: (payload: Record<string, unknown>) => void;
  /** The agent wrote to its transcript just before this hook: read it now. */
  readTranscriptSoon: () => void;
  /** The agent takes only plain allow/deny verdicts (Agent.plainVerdicts). */
  plainVerdicts?: boolean;
  /** Which sub-agent asks a permission request, read from its payload (Agent.askedBy). */
  askedBy?: (options: { payload: Record<string, unknown>; mainSessionId: string | null }) => AskedBy | null;
  /** The agent's hooks speak their own dialect (Agent.hookDialect). */
  dialect?: HookDialect;
  /** The conversation this session forks (LaunchPlan.fork): claude 2.1.197 names it at SessionStart
   *  (source resume) and names the fork only from the first prompt's hook on; 2.1.332 names the
   *  fork at SessionStart (source fork). */
  forkOf?: string | null;
  /** The agent's hook is its only gate, whose policy is the session's mode (HookInstall.gate). */
  gate?: () => HookGate | undefined;
}) {
  const { hooks, approvals, elicitations, state, patch, status } = init;
  /** A fork whose own session no hook has named yet. */
  let forkPending = Boolean(init.forkOf);
  /** The agent's session and transcript a hook names, taken. Only an agent session id's format
   *  (shared AgentSessionIdSchema: a UUID, or an agent's own id such as opencode's `ses_…`) is its
   *  session id (the hub refuses any other: a resume puts it on a command line). */
  const takeSession = (p: Record<string, unknown>, source: string) => {
    forkPending = false;
    if (typeof p.session_id === 'string' && isAgentSessionId(p.session_id) && p.session_id !== state.agentSessionId) {
      if (hooks.nameSession) hooks.nameSession(p.session_id);
      else {
        state.agentSessionId = p.session_id;
        patch({ agentSessionId: state.agentSessionId });
      }
    }
    if (typeof p.transcript_path === 'string') hooks.onTranscript(p.transcript_path, source);
  };
  return async (request: HookRequest): Promise<Record<string, unknown>> => {
    const p = init.dialect ? init.dialect.payload(request.event, request.payload) : request.payload;
    init.onAny(p);
    switch (request.event) {
      case 'session-start': {
        hooks.onSessionStart?.(p);
        // A fork's start at a claude before 2.1.332 names the conversation it forks (source resume),
        // not the fork: that one is not this session's; the fork's comes with its first prompt.
        if (!(forkPending && p.session_id === init.forkOf)) takeSession(p, String(p.source ?? 'startup'));
        if (typeof p.model === 'string' && !state.model) {
          state.model = p.model.replace(/\[[^\]]*\]$/, '');
          patch({ model: state.model });
        }
        return {};
      }
      case 'user-prompt-submit':
        if (forkPending && typeof p.session_id === 'string' && p.session_id !== init.forkOf) takeSession(p, 'fork');
        status.publish({ kind: 'turnStarted' });
        init.readTranscriptSoon();
        return {};
      case 'stop':
      case 'stop-failure':
        init.readTranscriptSoon();
        hooks.onStop?.();
        return {};
      case 'notification': {
        // Only "a person is needed" changes anything (an idle_prompt is the turn's end, known already).
        const type = typeof p.notification_type === 'string' ? p.notification_type.slice(0, 100) : '';
        if (!type || !notificationNeedsPerson(type)) return {};
        status.publish({ kind: 'agentWaiting' });
        const message = typeof p.message === 'string' ? p.message.slice(0, 1000) : '';
        // Best effort, not the outbox: a late "needs you" after a reconnect would be stale.
        void init.link()?.request('session:attention', { sessionId: state.id, notificationType: type, message });
        return {};
      }
      case 'elicitation':
        return elicitations.ask({ payload: p, signal: request.signal });
      case 'pre-tool-use':
        init.readTranscriptSoon(); // the assistant's text and tool_use lines come just before
        approvals.toolStarted(p);
        hooks.onToolEvent?.({ phase: 'start', payload: p });
        return {};
      case 'permission-request': {
        const toolName = typeof p.tool_name === 'string' ? p.tool_name : '';
        const toolInput = p.tool_input && typeof p.tool_input === 'object' && !Array.isArray(p.tool_input) ? (p.tool_input as Record<string, unknown>) : {};
        // The session waits on a person while the request is open (claude's Notification hook says
        // so only ~6 s later): the request registry tells the status (session/core.ts).
        const gated = init.gate?.()?.({ mode: state.permissionMode, payload: request.payload, agentAsksToo: state.agentAsksToo === true });
        if (gated && gated.behavior !== 'ask-person') return gateAnswer(gated, init.dialect);
        const askedBy = init.askedBy?.({ payload: p, mainSessionId: state.agentSessionId }) ?? null;
        const verdict = await approvals.ask({ toolName, toolInput, askedBy, signal: request.signal });
        // null: the agent's own dialog (already at the desk) decides; nothing is allowed silently.
        const told = verdict ? toldVerdict(verdict, init.plainVerdicts === true) : null;
        if (init.dialect?.permission) return init.dialect.permission(told);
        return told ? permissionDecision(told) : {};
      }
      case 'post-tool-use':
        status.publish({ kind: 'agentResumed' });
        if (typeof p.tool_use_id === 'string') approvals.toolResult({ toolUseId: p.tool_use_id, rejected: false });
        hooks.onToolEvent?.({ phase: 'end', payload: p });
        init.readTranscriptSoon();
        return {};
      default: {
        const never: never = request.event;
        return never;
      }
    }
  };
}
