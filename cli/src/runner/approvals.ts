// approvals.ts: one PreToolUse call turned into a decision, asked of the hub and the desk at once.
//
//   hook ──► decideToolUse ──allow──► {"permissionDecision":"allow"}
//                          ──defer──► {} (no hub: claude's own dialog at the desk, never a silent allow)
//                          ──ask-hub──► approval:request ─► first of:
//                                         hub approval:answered (phone, tether answer) ─► allow/deny JSON
//                                         desk panel key ─► approval:desk-answer (hub confirms who won)
//                                         desk [c] ─► claude's own dialog / picker (hub: answered at desk)
//                                         hook cancelled (Esc, killed) ─► approval:withdraw, deny
//
// Invariant: each request settles once, from one side; the other side is cleared at once (the
// panel closes; the hub broadcasts approval:resolved). When the desk and the phone answer at the
// same moment the hub's order decides, and the runner uses the hub's winner.
import { hostname } from 'node:os';
import { requestKindForTool, type Answer, type PendingRequest, type PermissionMode, type RequestKind } from '@tether/shared';
import { decideToolUse } from '../policy/decide.ts';
import type { SessionRules } from '../policy/rules.ts';
import type { HubLink } from '../hub-link/link.ts';
import type { DeskChoice, DeskPrompt } from './desk-prompt.ts';

export type Approvals = {
  decide(options: { payload: Record<string, unknown>; signal: AbortSignal }): Promise<Record<string, unknown>>;
  answered(options: { requestId: string; answer: Answer }): void;
  /** The hub link came back: re-send what still waits (the hub may have withdrawn it meanwhile). */
  reconnected(): void;
  /** A tool result from the transcript: for a request the desk took to claude's own dialog, it says
   *  how the dialog was answered, which the hub's audit then records. */
  toolResult(options: { toolUseId: string; rejected: boolean }): void;
  stop(): void;
};

type Outcome =
  | { from: 'hub'; answer: Answer }
  | { from: 'desk'; choice: DeskChoice }
  | { from: 'cancel' };

type Waiting = { request: PendingRequest; settle: (outcome: Outcome) => void };

const DEFAULT_DENY: Record<RequestKind, string> = {
  permission: 'The user denied this tool call.',
  question: 'The user declined to answer.',
  plan: 'The user wants to keep planning.',
};

function decision(kind: 'allow' | 'deny' | 'ask', reason: string, updatedInput?: Record<string, unknown>): Record<string, unknown> {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: kind,
      permissionDecisionReason: reason,
      ...(updatedInput ? { updatedInput } : {}),
    },
  };
}

/** The answer a desk key stands for; null = "use claude's own dialog". */
function deskAnswer(request: PendingRequest, choice: DeskChoice): Answer | null {
  switch (choice) {
    case 'allow':
      return { decision: 'allow', reason: 'allowed at the desk' };
    case 'allow-session':
      return { decision: 'allow', reason: 'allowed at the desk for this session', sessionRule: request.toolName === 'Bash' ? { kind: 'bash-exact' } : { kind: 'tool' } };
    case 'deny':
      return { decision: 'deny', reason: `${DEFAULT_DENY[request.kind]} (at the desk)` };
    case 'dialog':
      return null;
    default: {
      const never: never = choice;
      return never;
    }
  }
}

export function createApprovals(options: {
  /** Getters: a `--continue` runner learns its session (and opens its link) only at SessionStart. */
  sessionId: () => string;
  link: () => HubLink | null;
  rules: SessionRules;
  permissionMode: () => PermissionMode;
  /** The session's working directory (acceptEdits allows edits inside it). */
  cwd?: string;
  /** The user asked for permission bypass when starting the session. */
  bypassAllowed?: boolean;
  /** The desk panel, when a person sits at the terminal; null when headless. */
  desk?: DeskPrompt | null;
  log?: (line: string) => void;
  /** A plan was approved: claude still draws its own "Exit plan mode?" dialog (see plan-dialog.ts). */
  onPlanApproved?: () => void;
}): Approvals {
  const waiting = new Map<string, Waiting>();
  /** Requests the desk took to claude's own dialog, by tool_use id, until their tool result shows up. */
  const inDialog = new Map<string, string>();
  const device = `desk@${hostname()}`.slice(0, 100);
  const log = options.log ?? (() => {});

  /** Sends the request; a request the hub withdrew while we were away is re-asked under a new id. */
  const send = async (link: HubLink, entry: Waiting): Promise<boolean> => {
    const ack = await link.request('approval:request', entry.request);
    if (ack && !ack.ok && ack.code === 'gone') {
      const oldId = entry.request.id;
      entry.request = { ...entry.request, id: crypto.randomUUID() };
      waiting.delete(oldId);
      waiting.set(entry.request.id, entry);
      const again = await link.request('approval:request', entry.request);
      return !!again?.ok;
    }
    return !!ack?.ok;
  };

  const toDecision = (request: PendingRequest, answer: Answer | null, toolInput: Record<string, unknown>): Record<string, unknown> => {
    if (!answer) {
      // The desk chose claude's own UI: a permission dialog (ask) or the picker / plan dialog ({}).
      return request.kind === 'permission' ? decision('ask', 'tether: answer here at the desk') : {};
    }
    if (answer.decision === 'deny') return decision('deny', answer.reason?.trim() || DEFAULT_DENY[request.kind]);
    if (answer.sessionRule) options.rules.addFromAnswer({ rule: answer.sessionRule, toolName: request.toolName, toolInput });
    const updatedInput = answer.answers ? { ...toolInput, answers: answer.answers } : undefined;
    if (request.kind === 'plan') options.onPlanApproved?.();
    return decision('allow', answer.reason ?? 'allowed from tether', updatedInput);
  };

  return {
    decide: async ({ payload, signal }) => {
      const toolName = typeof payload.tool_name === 'string' ? payload.tool_name : '';
      const toolInput = payload.tool_input && typeof payload.tool_input === 'object' ? (payload.tool_input as Record<string, unknown>) : {};
      const mode = typeof payload.permission_mode === 'string' ? (payload.permission_mode as PermissionMode) : options.permissionMode();
      const cwd = typeof payload.cwd === 'string' ? payload.cwd : options.cwd;
      const link = options.link();
      const verdict = decideToolUse({
        toolName,
        toolInput,
        permissionMode: mode,
        rules: options.rules,
        hubConnected: !!link?.connected(),
        ...(cwd ? { cwd } : {}),
        bypassAllowed: options.bypassAllowed ?? false,
      });
      if (verdict.kind === 'allow') return decision('allow', `tether: ${verdict.reason}`);
      if (verdict.kind === 'defer' || !link) return {};

      let settle!: (outcome: Outcome) => void;
      const settled = new Promise<Outcome>((resolve) => {
        let done = false;
        settle = (outcome) => {
          if (done) return;
          done = true;
          resolve(outcome);
        };
      });
      const entry: Waiting = {
        request: {
          id: crypto.randomUUID(),
          sessionId: options.sessionId(),
          kind: requestKindForTool(toolName),
          toolName,
          toolInput,
          toolUseId: typeof payload.tool_use_id === 'string' ? payload.tool_use_id : null,
          createdAt: Date.now(),
        },
        settle,
      };
      waiting.set(entry.request.id, entry);
      if (!(await send(link, entry))) {
        waiting.delete(entry.request.id);
        return {}; // the hub could not take it: claude asks at the desk
      }
      const onCancel = () => settle({ from: 'cancel' });
      if (signal.aborted) onCancel();
      signal.addEventListener('abort', onCancel);
      const deskClosed = new AbortController();
      if (options.desk) {
        void options.desk.ask({ request: entry.request, signal: deskClosed.signal }).then((choice) => {
          if (choice) settle({ from: 'desk', choice });
        });
      }
      const outcome = await settled;
      deskClosed.abort(); // the panel clears at once, whoever answered
      signal.removeEventListener('abort', onCancel);
      waiting.delete(entry.request.id);
      const request = entry.request;

      switch (outcome.from) {
        case 'cancel':
          void link.request('approval:withdraw', { sessionId: options.sessionId(), requestId: request.id, reason: 'cancelled at the desk' });
          return decision('deny', 'tether: the request was cancelled');
        case 'hub':
          return toDecision(request, outcome.answer, toolInput);
        case 'desk': {
          const answer = deskAnswer(request, outcome.choice);
          const ack = await link.request('approval:desk-answer', { sessionId: options.sessionId(), requestId: request.id, answer, device });
          if (ack?.ok && !ack.won) {
            // Someone else answered first on the hub: theirs stands.
            const theirs = ack.resolution.answer;
            log(`approval ${request.id}: the desk answered after ${ack.resolution.answeredBy ?? 'the hub'}; using their answer`);
            if (ack.resolution.outcome === 'withdrawn' || !theirs) return decision('deny', 'tether: the request was withdrawn');
            return toDecision(request, theirs, toolInput);
          }
          if (!ack?.ok) log(`approval ${request.id}: hub did not confirm the desk answer (${ack ? ack.error : 'no ack'}); the desk decides`);
          if (ack?.ok && answer === null && request.toolUseId) inDialog.set(request.toolUseId, request.id);
          return toDecision(request, answer, toolInput);
        }
        default: {
          const never: never = outcome;
          return never;
        }
      }
    },
    answered: ({ requestId, answer }) => waiting.get(requestId)?.settle({ from: 'hub', answer }),
    toolResult: ({ toolUseId, rejected }) => {
      const requestId = inDialog.get(toolUseId);
      if (!requestId) return;
      inDialog.delete(toolUseId);
      const decision = rejected ? 'deny' : 'allow';
      log(`approval ${requestId}: answered in claude's dialog at the desk: ${decision}`);
      // Best effort: the audit keeps "claude's dialog" without the choice if the hub is away now.
      void options.link()?.request('approval:dialog-outcome', { sessionId: options.sessionId(), requestId, decision });
    },
    reconnected: () => {
      const link = options.link();
      if (!link) return;
      for (const entry of [...waiting.values()]) void send(link, entry);
    },
    stop: () => {
      for (const entry of waiting.values()) entry.settle({ from: 'cancel' });
      waiting.clear();
    },
  };
}
