// approvals.ts: a question claude itself decided to ask (a tool permission, AskUserQuestion, a plan)
// forwarded to the hub, where the first answer wins: a phone, a tab, `tether answer`, or the desk in
// claude's own dialog.
//
//   PTY:      claude ──PermissionRequest (HTTP hook)──► ask() ──approval:request──► hub
//             claude draws its own dialog at the desk at the same time.
//   headless: claude ──stream-json can_use_tool──► ask() (no desk: the hub is the only one asked)
//
//   first of:  hub approval:answered ─► claude's decision (allow + updatedInput/updatedPermissions, deny + message)
//              the desk answered claude's dialog ─► approval:desk-answer (answer null: "Claude's dialog"),
//                  then approval:dialog-outcome once the transcript says what was chosen
//              the caller went away (claude exited) ─► approval:withdraw
//
// claude's modes and the user's settings rules decide *when* anyone is asked; nothing here re-decides
// that. Invariant: never allow silently. When the hub cannot take a request, ask() returns null: in a
// PTY claude's own dialog stays at the desk; headless, the caller denies (nobody else could answer).
import { hostname } from 'node:os';
import { requestKindForTool, type Answer, type PendingRequest, type RequestKind, type SessionRule } from '@tether/shared';
import type { HubLink } from '../hub-link/link.ts';
import type { PromptState } from '../screen/prompt-state.ts';

/** claude's permission-update entry (its hooks reference: `updatedPermissions`). */
export type AddRulesUpdate = { type: 'addRules'; rules: Array<{ toolName: string; ruleContent?: string }>; behavior: 'allow'; destination: 'session' };
export type PermissionUpdate = AddRulesUpdate | { type: 'setMode'; mode: 'acceptEdits' | 'default'; destination: 'session' };

/** What claude is told: the same shape for the PermissionRequest hook's `decision` and for a
 *  stream-json `can_use_tool` response. */
export type Verdict =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
  | { behavior: 'deny'; message: string };

export type Approvals = {
  /** PreToolUse: the call's id, which a PermissionRequest payload lacks (matched by tool and input). */
  toolStarted(payload: Record<string, unknown>): void;
  /** Asks the hub; resolves with claude's decision, or null when nobody but claude's own UI can answer. */
  ask(options: { toolName: string; toolInput: Record<string, unknown>; toolUseId?: string | null; signal: AbortSignal }): Promise<Verdict | null>;
  answered(options: { requestId: string; answer: Answer }): void;
  /** The hub link came back: re-send what still waits (the hub may have withdrawn it meanwhile). */
  reconnected(): void;
  /** A tool's result (transcript, PostToolUse): settles a request the desk answered in claude's dialog. */
  toolResult(options: { toolUseId: string; rejected: boolean }): void;
  /** The PTY screen's state: a dialog that gives way to the input box while a request waits was
   *  answered at the desk. Not called for headless sessions (no desk). */
  screen(kind: PromptState['kind']): void;
  /** A request waits for its answer, or was answered a moment ago: claude draws its own dialog or
   *  picker for it meanwhile, and keeps drawing it a little after the hook's answer. */
  open(): boolean;
  /** A person at the desk pressed a key while the agent draws no dialog of its own for a waiting
   *  request (Codex shows only "Running hook"): every waiting request is withdrawn without an
   *  answer, so the agent draws its own dialog at the desk, where the dialog relay asks the phone
   *  again. True when there was one to hand over. */
  handToDesk(): boolean;
  stop(): void;
};

type Outcome = { from: 'hub'; answer: Answer } | { from: 'desk'; decision: 'allow' | 'deny' | null } | { from: 'cancel' } | { from: 'handoff' };

type Waiting = { request: PendingRequest; settle: (outcome: Outcome) => void; sawDialog: boolean };

const DEFAULT_DENY: Record<RequestKind, string> = {
  permission: 'The user denied this tool call.',
  question: 'The user declined to answer.',
  plan: 'The user wants to keep planning.',
  dialog: 'The user declined.',
  elicitation: 'The user declined.',
};
/** claude drops its hook request when the desk presses Esc in the dialog, a moment before the
 *  transcript records the rejection: this long the runner waits for that record before it takes the
 *  drop for claude going away (withdrawn). */
const CANCEL_GRACE_MS = 1_500;
const CANCEL_POLL_MS = 50;
/** claude 2.1.330 kept its permission dialog on screen more than 150 ms after the hook's answer (an
 *  e2e run caught the dialog relay raising it): for this long after a request closed, what is on
 *  screen still counts as that request's dialog. */
const CLOSED_DIALOG_GRACE_MS = 2_000;
/** PreToolUse calls remembered for matching a PermissionRequest to its tool_use_id. */
const MAX_RECENT_CALLS = 64;

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

function callKey(toolName: string, toolInput: unknown): string {
  return `${toolName}\u0000${JSON.stringify(toolInput)}`;
}

export function createApprovals(options: {
  /** Getters: a `--continue` runner learns its session (and opens its link) only at SessionStart. */
  sessionId: () => string;
  link: () => HubLink | null;
  log?: (line: string) => void;
  /** A plan was approved: claude may still draw its own "Exit plan mode?" dialog (plan-dialog.ts). */
  onPlanApproved?: (options: { planMode: Answer['planMode'] }) => void;
  /** What the phone is shown for a call, when claude's payload leaves something out (2.1.330's
   *  ExitPlanMode carries no plan: it is in the transcript or the plan file). Claude still gets its
   *  own input back; this only fills the hub request. */
  describe?: (options: { toolName: string; toolInput: Record<string, unknown>; toolUseId: string | null }) => Promise<Record<string, unknown>>;
}): Approvals {
  const waiting = new Map<string, Waiting>();
  /** When the last request stopped waiting (see CLOSED_DIALOG_GRACE_MS). */
  let lastClosedAt = 0;
  /** Requests the desk answered in claude's dialog, by tool_use id, until their result says how. */
  const inDialog = new Map<string, string>();
  const recentCalls = new Map<string, string>();
  /** Tool results seen lately, by tool_use id: one can arrive while a desk answer is being reported. */
  const recentResults = new Map<string, 'allow' | 'deny'>();
  const device = `desk@${hostname()}`.slice(0, 100);
  const log = options.log ?? (() => {});
  let stopped = false;

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

  const reportDialogOutcome = (requestId: string, decision: 'allow' | 'deny') => {
    log(`approval ${requestId}: answered in claude's dialog at the desk: ${decision}`);
    // Best effort: the audit keeps "Claude's dialog" without the choice if the hub is away now.
    void options.link()?.request('approval:dialog-outcome', { sessionId: options.sessionId(), requestId, decision });
  };

  const settleDesk = (entry: Waiting, decision: 'allow' | 'deny' | null) => entry.settle({ from: 'desk', decision });
  /** The tool result of `toolUseId` once the transcript has it, or null after `ms`. */
  const resultWithin = async (o: { toolUseId: string; ms: number }): Promise<'allow' | 'deny' | null> => {
    const deadline = Date.now() + o.ms;
    for (;;) {
      const seen = recentResults.get(o.toolUseId);
      if (seen || Date.now() >= deadline || stopped) return seen ?? null;
      await new Promise((resolve) => setTimeout(resolve, CANCEL_POLL_MS));
    }
  };

  return {
    toolStarted: (payload) => {
      if (typeof payload.tool_name !== 'string' || typeof payload.tool_use_id !== 'string') return;
      const key = callKey(payload.tool_name, payload.tool_input ?? {});
      recentCalls.delete(key);
      recentCalls.set(key, payload.tool_use_id);
      if (recentCalls.size > MAX_RECENT_CALLS) recentCalls.delete(recentCalls.keys().next().value!);
    },

    ask: async ({ toolName, toolInput, toolUseId, signal }) => {
      const link = options.link();
      if (!link) return null;
      let settle!: (outcome: Outcome) => void;
      const settled = new Promise<Outcome>((resolve) => {
        let done = false;
        settle = (outcome) => {
          if (done) return;
          done = true;
          resolve(outcome);
        };
      });
      const callId = toolUseId ?? recentCalls.get(callKey(toolName, toolInput)) ?? null;
      const shown = options.describe ? await options.describe({ toolName, toolInput, toolUseId: callId }) : toolInput;
      const entry: Waiting = {
        request: {
          id: crypto.randomUUID(),
          sessionId: options.sessionId(),
          kind: requestKindForTool(toolName),
          toolName,
          toolInput: shown,
          toolUseId: callId,
          createdAt: Date.now(),
        },
        settle,
        sawDialog: false,
      };
      // Waiting before it is sent, so a desk answer given meanwhile is seen.
      waiting.set(entry.request.id, entry);
      const onCancel = () => settle({ from: 'cancel' });
      if (signal.aborted) onCancel();
      signal.addEventListener('abort', onCancel);
      const sent = await send(link, entry);
      if (!sent) {
        signal.removeEventListener('abort', onCancel);
        waiting.delete(entry.request.id);
        lastClosedAt = Date.now();
        log(`approval for ${toolName}: the hub did not take it; claude's own prompt decides`);
        return null;
      }
      let outcome = await settled;
      signal.removeEventListener('abort', onCancel);
      if (outcome.from === 'cancel' && entry.request.toolUseId) {
        const decided = await resultWithin({ toolUseId: entry.request.toolUseId, ms: CANCEL_GRACE_MS });
        if (decided) outcome = { from: 'desk', decision: decided };
      }
      waiting.delete(entry.request.id);
      // Handed to the desk: the agent's dialog comes next and is the relay's to raise, at once.
      lastClosedAt = outcome.from === 'handoff' ? 0 : Date.now();
      const { request } = entry;

      log(`approval ${request.id} (${request.toolName}): ${outcome.from === 'hub' ? `answered on the hub: ${outcome.answer.decision}` : outcome.from === 'desk' ? 'answered at the desk' : outcome.from === 'handoff' ? 'handed to the desk' : 'claude stopped waiting'}`);
      switch (outcome.from) {
        case 'handoff':
          void link.request('approval:withdraw', { sessionId: options.sessionId(), requestId: request.id, reason: 'the desk took it: the agent asks in its own dialog' });
          return null;
        case 'cancel':
          void link.request('approval:withdraw', { sessionId: options.sessionId(), requestId: request.id, reason: 'claude stopped waiting' });
          return null;
        case 'hub': {
          const verdict = verdictFor({ request: { ...request, toolInput }, answer: outcome.answer });
          if (request.kind === 'plan' && verdict.behavior === 'allow') options.onPlanApproved?.({ planMode: outcome.answer.planMode });
          return verdict;
        }
        case 'desk': {
          // claude already acted on the desk's answer and ignores ours: clear every phone now, and
          // fill in the choice once it is known.
          const ack = await link.request('approval:desk-answer', { sessionId: options.sessionId(), requestId: request.id, answer: null, device });
          if (ack?.ok && !ack.won) log(`approval ${request.id}: ${ack.resolution.answeredBy ?? 'the hub'} answered as the desk did; claude took the desk's answer`);
          if (ack?.ok && ack.won) {
            const decision = outcome.decision ?? (request.toolUseId ? recentResults.get(request.toolUseId) : undefined);
            if (decision) reportDialogOutcome(request.id, decision);
            else if (request.toolUseId) inDialog.set(request.toolUseId, request.id);
          }
          return null;
        }
        default: {
          const never: never = outcome;
          return never;
        }
      }
    },

    answered: ({ requestId, answer }) => waiting.get(requestId)?.settle({ from: 'hub', answer }),

    toolResult: ({ toolUseId, rejected }) => {
      const decision = rejected ? 'deny' : 'allow';
      recentResults.set(toolUseId, decision);
      if (recentResults.size > MAX_RECENT_CALLS) recentResults.delete(recentResults.keys().next().value!);
      for (const entry of waiting.values()) {
        if (entry.request.toolUseId === toolUseId) settleDesk(entry, decision);
      }
      const requestId = inDialog.get(toolUseId);
      if (!requestId) return;
      inDialog.delete(toolUseId);
      reportDialogOutcome(requestId, decision);
    },

    screen: (kind) => {
      for (const entry of waiting.values()) {
        if (kind === 'dialog') entry.sawDialog = true;
        else if (entry.sawDialog && (kind === 'busy' || kind === 'ready')) settleDesk(entry, null);
      }
    },

    open: () => waiting.size > 0 || Date.now() - lastClosedAt < CLOSED_DIALOG_GRACE_MS,

    handToDesk: () => {
      const permissions = [...waiting.values()].filter((entry) => entry.request.kind === 'permission');
      for (const entry of permissions) entry.settle({ from: 'handoff' });
      return permissions.length > 0;
    },

    reconnected: () => {
      const link = options.link();
      if (!link) return;
      for (const entry of [...waiting.values()]) void send(link, entry);
    },

    stop: () => {
      stopped = true;
      for (const entry of waiting.values()) entry.settle({ from: 'cancel' });
      waiting.clear();
    },
  };
}
