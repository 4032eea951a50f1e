// events/web.ts: the `/web` socket.io namespace, spoken by browsers (and `tether` CLI verbs that
// act like a phone: send, answer, chat --follow).
import { z } from 'zod';
import { RequestIdSchema, SessionIdSchema, SeqSchema } from '../ids.ts';
import { PromptEditSchema, PromptSendSchema, PromptWithdrawSchema, type Prompt } from '../prompts.ts';
import { AnswerSchema, type PendingRequest, type Resolution } from '../approvals.ts';
import { TerminalDeskSchema, TerminalInputSchema, TerminalResizeSchema, TerminalSubscribeSchema, type TerminalSizeNotice } from '../terminal.ts';
import { EffortLevelSchema, PermissionModeSchema, SessionArchiveSchema, SessionPinSchema, type Session, type SessionCommandFinished } from '../session.ts';
import { SessionResumeSchema, SessionSpawnSchema, SessionStopSchema } from '../spawn.ts';
import { SessionLimitContinueSchema } from '../usage-limit.ts';
import type { ChatMessage } from '../chat.ts';
import type { Machine } from '../machine.ts';
import { ClientVisibilitySchema } from '../push.ts';
import { ShellInputSchema, ShellOpenSchema, ShellRefSchema, ShellResizeSchema, type ShellOpenAck } from '../shell.ts';
import type { AckFn } from '../protocol.ts';
import { WorktreeInspectSchema, WorktreeProbeSchema, WorktreeRemoveSchema, type WorktreeInspectAck, type WorktreeLoss, type WorktreeProbeAck } from '../worktrees.ts';
import { MachineOutsideSchema, OutsideAdoptSchema } from '../outside.ts';
import { ScheduleCreateSchema, ScheduleRefSchema, ScheduleUpdateSchema, type Schedule } from '../schedules.ts';
import { RuleAcceptSchema, RuleListSchema, RuleRevokeSchema, type ProjectRule } from '../project-rules.ts';
import { UnattendedSetSchema, type UnattendedGuard } from '../unattended.ts';
import { ReviewAskSchema, ReviewEndSchema, ReviewListSchema, ReviewSendSchema, ReviewStartSchema, type Review } from '../reviews.ts';

export const WebEventSchemas = {
  /** Join a session's room; the ack backfills messages after `afterSeq` and the pending requests. */
  'session:watch': z.object({ sessionId: SessionIdSchema, afterSeq: SeqSchema.optional() }),
  'session:unwatch': z.object({ sessionId: SessionIdSchema }),
  'prompt:send': PromptSendSchema,
  /** New text for, or the withdrawal of, a prompt the hub still holds (not yet handed to the
   *  runner: `conflict` once it was); every tab hears the result as `prompt:updated`. */
  'prompt:edit': PromptEditSchema,
  'prompt:withdraw': PromptWithdrawSchema,
  'session:abort': z.object({ sessionId: SessionIdSchema }),
  'session:set-model': z.object({ sessionId: SessionIdSchema, model: z.string().min(1).max(200) }),
  'session:set-effort': z.object({ sessionId: SessionIdSchema, level: EffortLevelSchema }),
  'session:set-mode': z.object({ sessionId: SessionIdSchema, mode: PermissionModeSchema }),
  /** Pin or unpin; archive or unarchive (hidden from the list, never deleted). Acked with the
   *  session as it now is; every tab of the namespace hears it as `session:updated`. */
  'session:pin': SessionPinSchema,
  'session:archive': SessionArchiveSchema,
  /** Continue this session at its usage limit's reset, with which prompt (or not; null: the hub's
   *  default). Acked with the session; every tab hears it as `session:updated`. */
  'session:limit-continue': SessionLimitContinueSchema,
  'approval:answer': z.object({ requestId: RequestIdSchema, answer: AnswerSchema }),
  'terminal:subscribe': TerminalSubscribeSchema,
  'terminal:unsubscribe': z.object({ sessionId: SessionIdSchema }),
  'terminal:input': TerminalInputSchema,
  'terminal:resize': TerminalResizeSchema,
  /** This subscribed viewer is a desk terminal (`tether attach`): it owns the PTY size while
   *  attached, and its keystrokes make the desk the controller. Re-sent with the new size on resize;
   *  unsubscribing or disconnecting detaches it. */
  'terminal:desk': TerminalDeskSchema,
  /** The viewer has written bytes up to `offset` into its emulator; unacked bytes beyond a bound
   *  pause that viewer (only it) until it catches up. */
  'terminal:ack': z.object({ sessionId: SessionIdSchema, offset: z.number().int().min(0) }),
  /** Start a session on a machine; acked once it is ready (errors carry a `reason`, spawn.ts). */
  'session:spawn': SessionSpawnSchema,
  /** Stop a running session: graceful, then forced; acked once it has ended. */
  'session:stop': SessionStopSchema,
  /** Continue an ended session (same claude session id); acked once it is ready. */
  'session:resume': SessionResumeSchema,
  /** This tab went on or off screen; web push is sent only when no tab of the namespace is visible. */
  'client:visibility': ClientVisibilitySchema,
  /** Open (or reattach to) this tab's shell on a machine (shell.ts); off unless the hub and the
   *  machine's daemon both allow shells. Output follows as `shell:output` to this socket only. */
  'shell:open': ShellOpenSchema,
  'shell:input': ShellInputSchema,
  'shell:resize': ShellResizeSchema,
  /** Kill the shell. */
  'shell:close': ShellRefSchema,
  /** Stop watching (the view went away); the shell lives on for SHELL_IDLE_MS. */
  'shell:leave': ShellRefSchema,
  /** Start a review of a session by another agent (reviews.ts); acked once the reviewer is ready
   *  and its first prompt is queued. */
  'review:start': ReviewStartSchema,
  /** Queue the findings (edited or not) as a prompt in the reviewed session. */
  'review:send': ReviewSendSchema,
  /** A follow-up prompt to the reviewer. */
  'review:ask': ReviewAskSchema,
  /** Stop the reviewer; acked once its session ended. */
  'review:end': ReviewEndSchema,
  /** A session's reviews (its cards). */
  'review:list': ReviewListSchema,
  /** Is this folder of that machine in a git repository (the form's "In a new worktree"). */
  'worktree:probe': WorktreeProbeSchema,
  /** What removing an ended session's worktree would lose (asked before Archive). */
  'worktree:inspect': WorktreeInspectSchema,
  /** Remove an ended session's worktree; with anything to lose only with `confirm`. */
  'worktree:remove': WorktreeRemoveSchema,
  /** Continue a conversation found on a machine (outside.ts) as a tether session; acked once ready.
   *  Of two adopts of one conversation one wins, the other is refused (`conflict`). */
  'outside:adopt': OutsideAdoptSchema,
  /** Switch finding conversations on a machine on or off; acked with the machine. */
  'machine:outside': MachineOutsideSchema,
  /** A prompt sent later, once or on a cron (schedules.ts); refused in words when the timing can
   *  never run, runs more often than every five minutes or is in the past. */
  'schedule:create': ScheduleCreateSchema,
  /** The namespace's schedules, oldest first. */
  'schedule:list': z.object({}),
  /** New timing, prompt, missed-run choice, or pause / resume; the next run is counted from now. */
  'schedule:update': ScheduleUpdateSchema,
  'schedule:remove': ScheduleRefSchema,
  /** The namespace's guard on unattended work (unattended.ts): paused?, the day's cap, today's runs. */
  'unattended:get': z.object({}),
  /** Pause or resume everything unattended, change the day's cap, or the continue-at-reset default of
   *  sessions with no choice of their own; every tab hears `unattended:updated`. */
  'unattended:set': UnattendedSetSchema,
  /** The rules tether proposed from a person's repeated allows, and what became of them (project-rules.ts). */
  'rules:list': RuleListSchema,
  /** The person's yes to a proposed rule (optionally a prefix they picked); acked with the rule. */
  'rules:accept': RuleAcceptSchema,
  /** No to a proposal, or take back an accepted rule: its entry leaves the project's file. */
  'rules:revoke': RuleRevokeSchema,
} as const;
export type WebEventName = keyof typeof WebEventSchemas;
export type WebPayload<E extends WebEventName> = z.input<(typeof WebEventSchemas)[E]>;

export type WebAcks = {
  /** `prompts`: its prompts still queued (absent from an older hub), so a tab sees the queue after a reload. */
  'session:watch': { session: Session; messages: ChatMessage[]; more: boolean; pending: PendingRequest[]; prompts?: Prompt[] };
  'session:unwatch': object;
  'prompt:send': { prompt: Prompt };
  'prompt:edit': { prompt: Prompt };
  'prompt:withdraw': { prompt: Prompt };
  'session:abort': object;
  'session:set-model': object;
  'session:set-effort': object;
  'session:set-mode': object;
  'session:pin': { session: Session };
  'session:archive': { session: Session };
  'session:limit-continue': { session: Session };
  'approval:answer': { resolution: Resolution };
  'terminal:subscribe': { mode: 'bytes' | 'snapshot'; offset: number };
  'terminal:unsubscribe': object;
  'terminal:input': object;
  'terminal:resize': object;
  'terminal:desk': object;
  'terminal:ack': object;
  'session:spawn': { session: Session };
  'session:stop': { session: Session };
  'session:resume': { session: Session };
  'client:visibility': object;
  'shell:open': ShellOpenAck;
  'shell:input': object;
  'shell:resize': object;
  'shell:close': object;
  'shell:leave': object;
  'review:start': { review: Review; session: Session };
  'review:send': { prompt: Prompt };
  'review:ask': { prompt: Prompt };
  'review:end': { review: Review };
  'review:list': { reviews: Review[] };
  'worktree:probe': WorktreeProbeAck;
  'worktree:inspect': WorktreeInspectAck;
  'worktree:remove': { session: Session; lost: WorktreeLoss };
  'outside:adopt': { session: Session };
  'machine:outside': { machine: Machine };
  'schedule:create': { schedule: Schedule };
  'schedule:list': { schedules: Schedule[] };
  'schedule:update': { schedule: Schedule };
  'schedule:remove': object;
  'unattended:get': { guard: UnattendedGuard };
  'unattended:set': { guard: UnattendedGuard };
  'rules:list': { rules: ProjectRule[] };
  'rules:accept': { rule: ProjectRule };
  'rules:revoke': { rule: ProjectRule };
};

export type WebClientToServer = {
  [E in WebEventName]: (payload: WebPayload<E>, ack: AckFn<WebAcks[E]>) => void;
};

/** Hub → browser facts. */
/** A `session:attention` as the hub republishes it (validated on the way in). */
export type SessionAttentionFact = { sessionId: string; notificationType: string; message: string };

export type WebServerToClient = {
  'session:updated': (session: Session) => void;
  'message:added': (payload: { sessionId: string; messages: ChatMessage[] }) => void;
  'prompt:updated': (prompt: Prompt) => void;
  'approval:requested': (request: PendingRequest) => void;
  'approval:resolved': (resolution: Resolution) => void;
  /** claude said a person is needed outside any request (a dialog, a background agent's question). */
  'session:attention': (attention: SessionAttentionFact) => void;
  /** A command typed into claude for someone finished (set or kept): a model chip stops waiting. */
  'session:command-finished': (finished: SessionCommandFinished) => void;
  'machine:updated': (machine: Machine) => void;
  /** A review of a session changed (started, answered, ended): the parent's card, to the parent's room. */
  'review:updated': (review: Review) => void;
  /** A schedule of the namespace was made, changed or ran; or removed (by a person or with its device). */
  'schedule:updated': (schedule: Schedule) => void;
  'schedule:removed': (payload: { id: string }) => void;
  /** The namespace's unattended guard changed (paused, its cap, a run counted). */
  'unattended:updated': (guard: UnattendedGuard) => void;
  /** A rule tether proposed changed (proposed, accepted, written, revoked): every tab of the namespace. */
  'rule:updated': (rule: ProjectRule) => void;
  'terminal:output': (payload: { sessionId: string; offset: number; data: Uint8Array | ArrayBuffer }) => void;
  'terminal:snapshot': (payload: { sessionId: string; offset: number; cols: number; rows: number; data: string }) => void;
  'terminal:size': (payload: TerminalSizeNotice) => void;
  'shell:output': (payload: { shellId: string; offset: number; data: Uint8Array | ArrayBuffer; reset?: boolean }) => void;
  'shell:exit': (payload: { shellId: string; exitCode: number | null; signal: string | null; reason: string }) => void;
};
