// session.ts: one agent process from start to exit, as the hub and every viewer see it.
// Status moves starting → idle ⇄ thinking ⇄ waiting → ended | failed; ended/failed are final.
import { z } from 'zod';
import { AgentSessionIdSchema, MachineIdSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { MAX_LABEL_CHARS, MAX_PATH_CHARS } from './limits.ts';
import { SESSION_STATUSES } from './wire.ts';

import { AgentKindSchema, DEFAULT_AGENT, EffortLevelSchema, LaunchKindSchema, PermissionModeSchema } from './agent-terms.ts';
import { AgentCapabilitiesSchema } from './agent-capabilities.ts';
import { LiveReviewsChoiceSchema } from './reviews.ts';
import { SessionWorktreeSchema } from './worktrees.ts';
import { AddedDirsSchema } from './added-dirs.ts';
import { UsageLimitReportSchema, UsageLimitSchema } from './usage-limit.ts';
import { LimitContinueSchema } from './limit-continue.ts';
export { AgentKindSchema, DEFAULT_AGENT, EffortLevelSchema, LaunchKindSchema, PermissionModeSchema } from './agent-terms.ts';
export type { AgentKind, LaunchKind, PermissionMode } from './agent-terms.ts';

export const SessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

export { FINAL_STATUSES, isArchived, isFinalStatus } from './wire.ts';
export type { EffortLevel } from './wire.ts';

/** Who drove the session last: the desk terminal or a remote client (phone, `tether send`). */
export const ControllerSchema = z.enum(['desk', 'remote']);
export type Controller = z.infer<typeof ControllerSchema>;

const Label = z.string().max(MAX_LABEL_CHARS);

/** A session's running token total: 10^12 is far past any session's spend (a million-token context
 *  re-sent a million times), and far under 2^53, so sums stay exact. */
const MAX_TOTAL_TOKENS = 1e12;
/** One request's tokens, or a model's context window: 10^8 is 50× the largest window offered today. */
const MAX_CONTEXT_TOKENS = 1e8;
const Tokens = (max: number) => z.number().int().min(0).max(max);

/** The tokens a session has used, as its agent's transcript states them (docs/decisions/usage.md).
 *  Totals count every request of the session (subagents included), across a resume. `inputTokens`
 *  is every input token sent, `cachedInputTokens` the part of it read from the provider's cache.
 *  `contextTokens` is the last request's input plus output (what the conversation holds now),
 *  `contextWindow` the model's window when the agent states it (Codex does; claude does not). */
export const SessionUsageSchema = z
  .object({
    inputTokens: Tokens(MAX_TOTAL_TOKENS),
    cachedInputTokens: Tokens(MAX_TOTAL_TOKENS),
    outputTokens: Tokens(MAX_TOTAL_TOKENS),
    contextTokens: Tokens(MAX_CONTEXT_TOKENS),
    contextWindow: Tokens(MAX_CONTEXT_TOKENS).positive().nullable(),
  })
  .strict()
  .refine((u) => u.cachedInputTokens <= u.inputTokens, { message: 'cachedInputTokens is part of inputTokens' });
export type SessionUsage = z.infer<typeof SessionUsageSchema>;
const PathString = z.string().min(1).max(MAX_PATH_CHARS);

export const SessionSchema = z.object({
  id: SessionIdSchema,
  machineId: MachineIdSchema.nullable(),
  title: Label,
  cwd: PathString,
  launchKind: LaunchKindSchema,
  /** The coding agent it runs (a hub older than Codex support leaves it out: claude). */
  agent: AgentKindSchema.default(DEFAULT_AGENT),
  status: SessionStatusSchema,
  /** The agent's own id of its conversation (claude's session id, Codex's thread id): what a
   *  resume names. Null until the agent started one. */
  agentSessionId: z.string().max(128).nullable(),
  /** What the phone may do with it, as its runner stated (null: a runner older than capabilities,
   *  so nothing is switched from here; absent from an older hub). */
  capabilities: AgentCapabilitiesSchema.nullable().optional(),
  model: Label.nullable(),
  permissionMode: PermissionModeSchema,
  /** The effort level once the runner has read it (footer or hook payloads); absent before. */
  effort: EffortLevelSchema.nullable().optional(),
  /** Tokens used so far, once the runner has read any (null before; absent from an older hub). */
  usage: SessionUsageSchema.nullable().optional(),
  /** The agent is at its usage limit until `limit.resetsAt` (usage-limit.ts); null when not, absent
   *  from an older hub. */
  limit: UsageLimitSchema.nullable().optional(),
  /** The person's continue-at-reset choice for this session; null: the hub's default. */
  limitContinue: LimitContinueSchema.nullable().optional(),
  controller: ControllerSchema.nullable(),
  /** Whether a desk terminal is attached right now (it then owns the PTY size). */
  deskAttached: z.boolean(),
  failureReason: Label.nullable(),
  exitCode: z.number().int().nullable(),
  pendingCount: z.number().int().min(0),
  /** Permission prompts are skipped (bypassPermissions): only ever because the user asked for it
   *  when starting the session. Viewers show a "bypass" badge. Derived from permissionMode. */
  bypass: z.boolean().optional(),
  lastSeq: z.number().int().min(0),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  endedAt: TimestampSchema.nullable(),
  /** When a person pinned it (any device of the namespace): it sorts near the top of the list. */
  pinnedAt: TimestampSchema.nullable().optional(),
  /** When a person archived it: out of the list, in its Archived section. Only an ended session is
   *  ever archived; one that runs again (resumed) is unarchived by the hub. Pinned and archived
   *  exclude each other. Absent from a hub older than both fields. */
  archivedAt: TimestampSchema.nullable().optional(),
  /** The session this one reviews (reviews.ts), null for any other; absent from an older hub. */
  parentId: SessionIdSchema.nullable().optional(),
  /** The git worktree the daemon made for it (worktrees.ts), null for any other; absent from an older hub. */
  worktree: SessionWorktreeSchema.nullable().optional(),
  /** The folders its agent was given beyond `cwd` (added-dirs.ts): a resume gives them again.
   *  Absent from an older hub. */
  addedDirs: AddedDirsSchema.optional(),
});
export type Session = z.infer<typeof SessionSchema>;

/** What a runner tells the hub when it starts (or re-registers after a reconnect). */
export const SessionRegistrationSchema = z.object({
  id: SessionIdSchema,
  machineId: MachineIdSchema.nullable().default(null),
  /** The machine's secret, read from TETHER_HOME/machine-secret by a runner on that machine (spawned
   *  by its daemon or started at its desk): the hub keeps `machineId` only when it matches the
   *  vouch the machine's daemon registered. */
  machineProof: z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional(),
  title: Label.default(''),
  cwd: PathString,
  launchKind: LaunchKindSchema,
  agent: AgentKindSchema.default(DEFAULT_AGENT),
  status: SessionStatusSchema.default('starting'),
  agentSessionId: AgentSessionIdSchema.nullable().default(null),
  /** Its agent's capabilities (agent-capabilities.ts); an older runner sends none. */
  capabilities: AgentCapabilitiesSchema.nullable().default(null),
  model: Label.nullable().default(null),
  permissionMode: PermissionModeSchema.default('default'),
  deskAttached: z.boolean().default(false),
  createdAt: TimestampSchema.optional(),
  /** The folders its agent was given beyond `cwd`, absolute (added-dirs.ts); an older runner sends none. */
  addedDirs: AddedDirsSchema.default([]),
});
export type SessionRegistration = z.input<typeof SessionRegistrationSchema>;

/** Fields a runner may change on its own session. Status `ended`/`failed` go through session:end. */
export const SessionPatchSchema = z
  .object({
    title: Label,
    status: SessionStatusSchema.exclude(['ended', 'failed']),
    agentSessionId: AgentSessionIdSchema.nullable(),
    model: Label.nullable(),
    permissionMode: PermissionModeSchema,
    effort: EffortLevelSchema,
    usage: SessionUsageSchema,
    /** The agent said it is at its usage limit (null: it went on, the limit is over). */
    limit: UsageLimitReportSchema.nullable(),
    controller: ControllerSchema.nullable(),
    deskAttached: z.boolean(),
  })
  .partial()
  .strict();
export type SessionPatch = z.infer<typeof SessionPatchSchema>;

export const SessionEndSchema = z.object({
  sessionId: SessionIdSchema,
  status: z.enum(['ended', 'failed']),
  exitCode: z.number().int().nullable().default(null),
  reason: Label.nullable().default(null),
});
export type SessionEnd = z.input<typeof SessionEndSchema>;

/** Pin or unpin a session (web `session:pin`); kept on the hub, so every device of the namespace
 *  sees it. Pinning an archived session brings it back. */
export const SessionPinSchema = z.object({ sessionId: SessionIdSchema, pinned: z.boolean() });
export type SessionPin = z.infer<typeof SessionPinSchema>;

/** Archive or unarchive a session (web `session:archive`): hidden from the list, never deleted.
 *  Only an ended session may be archived (`conflict` otherwise). `reviews`: what becomes of its
 *  reviews that still run (reviews.ts); needed only when archiving one that has some. */
export const SessionArchiveSchema = z.object({ sessionId: SessionIdSchema, archived: z.boolean(), reviews: LiveReviewsChoiceSchema.optional() });
export type SessionArchive = z.infer<typeof SessionArchiveSchema>;

/** Runner → hub → every tab of the namespace: a command typed into claude for someone (the phone's
 *  model picker, the desk) has finished, whichever way it went. claude may keep what it had
 *  ("Switch model?" answered "No": `kept`), so a viewer waiting on the request cannot learn that it
 *  ended from the session record alone. Not stored. */
export const SessionCommandFinishedSchema = z.object({
  sessionId: SessionIdSchema,
  /** claude's command as typed (`/model`). */
  command: z.string().min(1).max(50),
  /** Its arguments (`sonnet`). */
  args: z.string().max(200),
  /** `applied`: claude did it; `kept`: claude kept what it had. */
  outcome: z.enum(['applied', 'kept']),
});
export type SessionCommandFinished = z.infer<typeof SessionCommandFinishedSchema>;
