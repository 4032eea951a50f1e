// approvals.ts: a question claude itself decided to ask (a tool permission, AskUserQuestion, a plan)
// forwarded to the hub, where the first answer wins: a phone, a tab, `tether answer`, or the desk in
// claude's own dialog.
//
//   PTY:      claude ──PermissionRequest (HTTP hook)──► ask() ──approval:request──► hub
//             claude draws its own dialog at the desk at the same time.
//   headless: claude ──stream-json can_use_tool──► ask() (no desk: the hub is the only one asked)
//
//   first of:  hub approval:answered ─► claude's decision (verdict.ts: allow + updatedInput/updatedPermissions, deny + message)
//              the desk answered claude's dialog ─► approval:desk-answer (answer null: "Claude's dialog"),
//                  then approval:dialog-outcome once the transcript says what was chosen (desk-answer.ts)
//              the caller went away (claude exited) ─► approval:withdraw
//   before any: a rule the person accepted covers the call ─► allow + the rule, which claude writes
//              into the project's rule file (session/folder-rules.ts); nobody is asked
//
// claude's modes and the user's settings rules decide *when* anyone is asked; nothing here re-decides
// that. Invariant: never allow silently. When the hub cannot take a request, ask() returns null: in a
// PTY claude's own dialog stays at the desk; headless, the caller denies (nobody else could answer).
// The request itself (id, send, re-send, withdraw) is the session's request registry's
// (requests/registry.ts); what the answer becomes for the agent is verdict.ts.
import { requestKindForTool, type Answer, type AskedBy, type PendingRequest } from '@tether/shared';
import type { HubLink } from '../../hub-link/link.ts';
import { recordHookTiming, wallNow } from '../../hooks/bench-timings.ts';
import type { PromptState } from '../../screen/prompt-state.ts';
import { createDeskAnswers, type DeskAnswers } from './desk-answer.ts';
import { verdictFor, type PermissionUpdate, type Verdict } from './verdict.ts';
import { firstAnswer, type FirstAnswer } from './first-answer.ts';
import { createRequestRegistry, type RequestHandle, type RequestRegistry } from './registry.ts';

export type { AddRulesUpdate, PermissionUpdate, Verdict } from './verdict.ts';
export { sessionRuleUpdate, verdictFor } from './verdict.ts';

export type Approvals = {
  /** PreToolUse: the call's id, which a PermissionRequest payload lacks (matched by tool and input). */
  toolStarted(payload: Record<string, unknown>): void;
  /** Asks the hub; resolves with claude's decision, or null when nobody but claude's own UI can answer. */
  /** `askedBy`: a sub-agent of the agent asks, not the session's own (the phone says which). */
  ask(options: { toolName: string; toolInput: Record<string, unknown>; toolUseId?: string | null; askedBy?: AskedBy | null; signal: AbortSignal }): Promise<Verdict | null>;
  /** A hub answer (tests; a session routes answers through its registry). */
  answered(options: { requestId: string; answer: Answer }): void;
  /** A tool's result (transcript, PostToolUse): settles a request the desk answered in claude's dialog. */
  toolResult(options: { toolUseId: string; rejected: boolean }): void;
  /** The PTY screen's state: a dialog that gives way to the input box while a request waits was
   *  answered at the desk. Not called for headless sessions (no desk). */
  screen(kind: PromptState['kind']): void;
  /** A request waits for its answer: claude draws its own dialog or picker for it meanwhile. */
  open(): boolean;
  /** Nothing waits, but a request closed moments ago: claude may keep drawing its dialog a little
   *  after the hook's answer, and may as well draw a new question of its own ("Switch model?"). */
  closing(): boolean;
  /** A person at the desk pressed a key while the agent draws no dialog of its own for a waiting
   *  request (Codex shows only "Running hook"): every waiting request is withdrawn without an
   *  answer, so the agent draws its own dialog at the desk, where the dialog bridge asks the phone
   *  again. True when there was one to hand over. */
  handToDesk(): boolean;
  stop(): void;
};

type Outcome = { from: 'hub'; answer: Answer } | { from: 'desk'; decision: 'allow' | 'deny' | null } | { from: 'cancel' } | { from: 'handoff' };

type Waiting = { handle: RequestHandle; settle: FirstAnswer<Outcome>['settle']; sawDialog: boolean; /** When the hub's answer came (bench timings). */ answeredAt?: number };

/** claude drops its hook request when the desk presses Esc in the dialog, a moment before the
 *  transcript records the rejection: this long the runner waits for that record before it takes the
 *  drop for claude going away (withdrawn). */
const CANCEL_GRACE_MS = 1_500;
/** claude 2.1.330 kept its permission dialog on screen more than 150 ms after the hook's answer (an
 *  e2e run caught the dialog bridge raising it): for this long after a request closed, a dialog on
 *  screen is looked at again before it is asked (dialogs/bridge.ts `closing`). */
const CLOSED_DIALOG_GRACE_MS = 2_000;
/** PreToolUse calls remembered for matching a PermissionRequest to its tool_use_id. */
const MAX_RECENT_CALLS = 64;

function callKey(toolName: string, toolInput: unknown): string {
  return `${toolName}\u0000${JSON.stringify(toolInput)}`;
}

/** A request stopped waiting: what claude is told (null: its own dialog decides, or already did)
 *  and what the hub hears. `toolInput` is claude's own, not what the phone was shown. */
async function closeRequest(o: {
  outcome: Outcome;
  handle: RequestHandle;
  toolInput: Record<string, unknown>;
  link: HubLink;
  desk: DeskAnswers;
  log: (line: string) => void;
  onPlanApproved?: (options: { planMode: Answer['planMode'] }) => void;
}): Promise<Verdict | null> {
  const { outcome, link } = o;
  const { request } = o.handle;
  o.log(`approval ${request.id} (${request.toolName}): ${outcome.from === 'hub' ? `answered on the hub: ${outcome.answer.decision}` : outcome.from === 'desk' ? 'answered at the desk' : outcome.from === 'handoff' ? 'handed to the desk' : 'claude stopped waiting'}`);
  switch (outcome.from) {
    case 'handoff':
      o.handle.withdraw('the desk took it: the agent asks in its own dialog');
      return null;
    case 'cancel':
      o.handle.withdraw('claude stopped waiting');
      return null;
    case 'hub': {
      o.handle.close();
      const verdict = verdictFor({ request: { ...request, toolInput: o.toolInput }, answer: outcome.answer });
      if (request.kind === 'plan' && verdict.behavior === 'allow') o.onPlanApproved?.({ planMode: outcome.answer.planMode });
      return verdict;
    }
    case 'desk':
      // desk-answer.ts tells the hub, and what was chosen once the tool's result says.
      o.handle.close();
      await o.desk.answered({ link, request, decision: outcome.decision });
      return null;
    default: {
      const never: never = outcome;
      return never;
    }
  }
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
  /** The session's registry (one for every kind of request); its own when none is given (tests). */
  requests?: RequestRegistry;
  /** A rule the person accepted covers this call: the update that has the agent write it (the call
   *  is then allowed without asking anyone: the person's yes to the rule covers it). */
  ruleFor?: (call: { toolName: string; toolInput: Record<string, unknown> }) => PermissionUpdate[] | null;
}): Approvals {
  const requests = options.requests ?? createRequestRegistry({ sessionId: options.sessionId, link: options.link });
  const waiting = new Set<Waiting>();
  /** When the last request stopped waiting (see CLOSED_DIALOG_GRACE_MS). */
  let lastClosedAt = 0;
  const recentCalls = new Map<string, string>();
  const log = options.log ?? (() => {});
  let stopped = false;
  const desk = createDeskAnswers({ sessionId: options.sessionId, link: options.link, log, stopped: () => stopped });

  const settleDesk = (entry: Waiting, decision: 'allow' | 'deny' | null) => entry.settle({ from: 'desk', decision });

  return {
    toolStarted: (payload) => {
      if (typeof payload.tool_name !== 'string' || typeof payload.tool_use_id !== 'string') return;
      const key = callKey(payload.tool_name, payload.tool_input ?? {});
      recentCalls.delete(key);
      recentCalls.set(key, payload.tool_use_id);
      if (recentCalls.size > MAX_RECENT_CALLS) recentCalls.delete(recentCalls.keys().next().value!);
    },

    ask: async ({ toolName, toolInput, toolUseId, askedBy, signal }) => {
      const rule = options.ruleFor?.({ toolName, toolInput });
      if (rule) return { behavior: 'allow', updatedPermissions: rule };
      const link = options.link();
      if (!link) return null;
      const { settle, settled } = firstAnswer<Outcome>();
      const callId = toolUseId ?? recentCalls.get(callKey(toolName, toolInput)) ?? null;
      const shown = options.describe ? await options.describe({ toolName, toolInput, toolUseId: callId }) : toolInput;
      const request: PendingRequest = {
        id: crypto.randomUUID(),
        sessionId: options.sessionId(),
        kind: requestKindForTool(toolName),
        toolName,
        toolInput: shown,
        toolUseId: callId,
        createdAt: Date.now(),
        ...(askedBy ? { askedBy } : {}),
      };
      const entry = { settle, sawDialog: false } as Waiting;
      entry.handle = requests.open({
        request,
        onAnswer: (answer) => {
          entry.answeredAt = wallNow();
          settle({ from: 'hub', answer });
        },
      });
      // Waiting before it is sent, so a desk answer given meanwhile is seen.
      waiting.add(entry);
      const onCancel = () => settle({ from: 'cancel' });
      if (signal.aborted) onCancel();
      signal.addEventListener('abort', onCancel);
      const sentAt = wallNow();
      const sent = await entry.handle.send();
      if (!sent) {
        signal.removeEventListener('abort', onCancel);
        entry.handle.close();
        waiting.delete(entry);
        lastClosedAt = Date.now();
        log(`approval for ${toolName}: the hub did not take it; claude's own prompt decides`);
        return null;
      }
      let outcome = await settled;
      signal.removeEventListener('abort', onCancel);
      if (outcome.from === 'hub' && entry.answeredAt) recordHookTiming({ role: 'runner', event: 'permission-request', sent: sentAt, answered: entry.answeredAt });
      if (outcome.from === 'cancel' && entry.handle.request.toolUseId) {
        const decided = await desk.resultWithin({ toolUseId: entry.handle.request.toolUseId, ms: CANCEL_GRACE_MS });
        if (decided) outcome = { from: 'desk', decision: decided };
      }
      waiting.delete(entry);
      // Handed to the desk: the agent's dialog comes next and is the bridge's to raise, at once.
      lastClosedAt = outcome.from === 'handoff' ? 0 : Date.now();
      return closeRequest({ outcome, handle: entry.handle, toolInput, link, desk, log, onPlanApproved: options.onPlanApproved });
    },

    answered: ({ requestId, answer }) => {
      if ([...waiting].some((entry) => entry.handle.request.id === requestId)) requests.answered({ requestId, answer });
    },

    toolResult: ({ toolUseId, rejected }) => {
      const decision = rejected ? 'deny' : 'allow';
      desk.result(toolUseId, decision);
      for (const entry of waiting) {
        if (entry.handle.request.toolUseId === toolUseId) settleDesk(entry, decision);
      }
    },

    screen: (kind) => {
      for (const entry of waiting) {
        if (kind === 'dialog') entry.sawDialog = true;
        else if (entry.sawDialog && (kind === 'busy' || kind === 'ready')) settleDesk(entry, null);
      }
    },

    open: () => waiting.size > 0,
    closing: () => waiting.size === 0 && Date.now() - lastClosedAt < CLOSED_DIALOG_GRACE_MS,

    handToDesk: () => {
      const permissions = [...waiting].filter((entry) => entry.handle.request.kind === 'permission');
      for (const entry of permissions) entry.settle({ from: 'handoff' });
      return permissions.length > 0;
    },

    stop: () => {
      stopped = true;
      for (const entry of waiting) entry.settle({ from: 'cancel' });
      waiting.clear();
    },
  };
}
