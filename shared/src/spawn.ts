// spawn.ts: starting, stopping and resuming sessions on a machine from afar (the web's new-session
// form, `tether spawn/stop/attach`), and the hub ⇄ daemon commands that carry it out.
//
//   web ─session:spawn─► hub ─daemon:spawn (ack: runner started)─► daemon ─► runner process
//   web ◄─ack {session} once the runner reports the session ready (idle), or the real error ─┘
//
// Invariant: a spawn ack is `ok` only when the session is ready; every failure carries a `reason`
// a client can switch on and an `error` a person can read.
import { z } from 'zod';
import { AgentSessionIdSchema, BackgroundIdSchema, MachineIdSchema, SessionIdSchema } from './ids.ts';
import { MAX_LABEL_CHARS, MAX_PATH_CHARS } from './limits.ts';
import { AddedDirsSchema } from './added-dirs.ts';
import { AgentKindSchema, DEFAULT_AGENT, LaunchKindSchema, PermissionModeSchema, type LaunchKind } from './session.ts';
import { LAUNCH_KINDS } from './wire.ts';
import { AckErrorSchema, ackError, ackSchemaOf, type AckError, type ErrorCode } from './protocol.ts';
import { LiveReviewsChoiceSchema } from './reviews.ts';
import { DaemonOutsideSchema } from './outside.ts';
import { DaemonRulesRemoveAckSchema, DaemonRulesRemoveSchema, type DaemonRulesRemoveAck } from './project-rules.ts';
import { DaemonShellCommandAckSchemas, DaemonShellCommandSchemas, type DaemonShellCommandAcks } from './shell.ts';
import { DaemonWorktreeCommandAckSchemas, DaemonWorktreeCommandSchemas, SessionWorktreeSchema, SpawnWorktreeSchema, type DaemonWorktreeCommandAcks } from './worktrees.ts';


const PathString = z.string().min(1).max(MAX_PATH_CHARS);

/** How a spawn starts its session: one of the launch kinds, or `attached`: the runner attaches to a
 *  background session the agent runs on its own (`backgroundId`: claude's `claude --bg`) in a PTY of
 *  its own, and the session is a `pty` one from then on (its terminal is mirrored), with
 *  `capabilities.adopted` saying what it lacks. */
export const SpawnLaunchKindSchema = z.enum([...LAUNCH_KINDS, 'attached']);
export type SpawnLaunchKind = z.infer<typeof SpawnLaunchKindSchema>;

/** The launch kind the session a spawn of `kind` starts is recorded with. */
export function sessionLaunchKind(kind: SpawnLaunchKind): LaunchKind {
  return kind === 'attached' ? 'pty' : kind;
}

/** `attached` names the background session it attaches to, and only it does. */
function backgroundIdMatchesKind(spawn: { launchKind: SpawnLaunchKind; backgroundId?: string | null | undefined }, ctx: z.RefinementCtx): void {
  const named = spawn.backgroundId !== undefined && spawn.backgroundId !== null;
  if (named !== (spawn.launchKind === 'attached')) {
    ctx.addIssue({ code: 'custom', path: ['backgroundId'], message: 'backgroundId is given exactly when launchKind is attached' });
  }
}
const ModelString = z.string().min(1).max(200);

/** Web → hub: start a session on a machine. Default launch kind is headless (chat only). */
export const SessionSpawnSchema = z.object({
  machineId: MachineIdSchema,
  /** Absolute directory on that machine (`~` and `~/x` are expanded by the daemon). */
  cwd: PathString,
  launchKind: SpawnLaunchKindSchema.default('headless'),
  /** `attached`: the agent's background session to attach to (its id in the agent's own listing). */
  backgroundId: BackgroundIdSchema.optional(),
  /** The agent to run: one the machine's daemon found installed. Codex runs in a PTY only. */
  agent: AgentKindSchema.default(DEFAULT_AGENT),
  model: ModelString.optional(),
  permissionMode: PermissionModeSchema.optional(),
  /** Create the directory (and parents) when it does not exist; otherwise that is an error. */
  createDir: z.boolean().default(false),
  /** Continue this claude session (`claude --resume <id>`) in a new tether session. */
  resumeAgentSessionId: AgentSessionIdSchema.optional(),
  /** Start in a new git worktree of `cwd`'s repository, on a new branch (worktrees.ts). */
  worktree: SpawnWorktreeSchema.optional(),
}).superRefine(backgroundIdMatchesKind);
export type SessionSpawn = z.input<typeof SessionSpawnSchema>;

/** Web → hub: stop a running session (graceful, then forced after a grace period). */
/** `reviews`: what becomes of its live reviews (reviews.ts); needed only when it has some. */
/** `stopInPool`: a session tether attached to (capabilities.adopted) is stopped in the agent's own pool
 *  (claude stop), not only detached from; only a person's confirmed request sends it, and the hub
 *  refuses it for a session whose runner cannot (capabilities.adopted.stop absent). */
export const SessionStopSchema = z.object({ sessionId: SessionIdSchema, reviews: LiveReviewsChoiceSchema.optional(), stopInPool: z.boolean().default(false) });
export type SessionStop = z.input<typeof SessionStopSchema>;

/** Web → hub: continue an ended session (same tether session, same claude session id). */
export const SessionResumeSchema = z.object({
  sessionId: SessionIdSchema,
  /** Default: the session's own launch kind. `pty` is how `tether attach` takes over a headless one. */
  launchKind: LaunchKindSchema.optional(),
  /** Continue its conversation in a NEW session with its history, the original left as it was (live
   *  or ended): the agent's fork (AgentCapabilities.fork), else `not_resumable` with its reason. */
  fork: z.boolean().default(false),
});

/** Why a spawn/resume/stop was refused; clients switch on this, people read `error`. */
export const SpawnFailureReasonSchema = z.enum([
  'machine_unknown',
  'machine_offline',
  'agent_missing',
  'dir_missing',
  'not_a_directory',
  'session_live',
  'not_resumable',
  'runner_failed',
  /** The new worktree could not be made: not a repository, a branch that exists, a dirty base. */
  'worktree_failed',
  'claude_failed',
  'timeout',
  /** Ending it would leave live reviews: say whether they end too (SessionStop.reviews). */
  'reviews_live',
]);
export type SpawnFailureReason = z.infer<typeof SpawnFailureReasonSchema>;
export type SpawnAckError = AckError & { reason: SpawnFailureReason };

export function spawnError(code: ErrorCode, reason: SpawnFailureReason, error: string): SpawnAckError {
  return { ...ackError(code, error), reason };
}

/** Hub → daemon: start a runner process for `sessionId`. The ack means "process started". */
export const DaemonSpawnSchema = z.object({
  sessionId: SessionIdSchema,
  cwd: PathString,
  launchKind: SpawnLaunchKindSchema,
  /** `attached`: the agent's background session the runner attaches to (absent otherwise). */
  backgroundId: BackgroundIdSchema.nullish(),
  agent: AgentKindSchema.default(DEFAULT_AGENT),
  model: ModelString.nullable().default(null),
  permissionMode: PermissionModeSchema.nullable().default(null),
  createDir: z.boolean().default(false),
  resumeAgentSessionId: AgentSessionIdSchema.nullable().default(null),
  /** Start the agent read-only in its own terms (a reviewer: reviews.ts); the hub asks only a
   *  daemon whose agent's capabilities say `readOnly`. */
  readOnly: z.boolean().default(false),
  /** Make a new worktree of `cwd`'s repository first and run the session in it. */
  worktree: SpawnWorktreeSchema.nullable().default(null),
  /** The folders the agent gets beyond `cwd` (a resume: the ones the session had). Each must exist
   *  on the machine: the daemon refuses the start naming one that does not (dir_missing). */
  addedDirs: AddedDirsSchema.default([]),
  /** The resumed conversation was found on the machine (outside.ts): the daemon checks again that no
   *  live process writes it and that its record is one it can continue (size, form) before starting. */
  adopting: z.boolean().default(false),
  /** Continue the resumed conversation in a new one of its own, leaving it as it was (the agent's
   *  fork: claude's --fork-session); only for an agent whose capabilities state `fork`. */
  fork: z.boolean().default(false),
}).superRefine(backgroundIdMatchesKind);
export type DaemonSpawn = z.infer<typeof DaemonSpawnSchema>;
/** The runner process started: its pid, the directory it runs in (`~` expanded), its log file. */
export const DaemonSpawnAckSchema = z.object({
  pid: z.number().int().positive(),
  cwd: PathString,
  logFile: PathString,
  /** The worktree made for it (then `cwd` is its path); absent or null without one. */
  worktree: SessionWorktreeSchema.nullable().optional(),
});
export type DaemonSpawnAck = z.infer<typeof DaemonSpawnAckSchema>;

/** Hub → daemon: a stop's grace period ran out; SIGKILL the runner of this session. */
export const DaemonKillSchema = z.object({ sessionId: SessionIdSchema });
export const DaemonKillAckSchema = z.object({ killed: z.boolean() });
export type DaemonKillAck = z.infer<typeof DaemonKillAckSchema>;

/** Daemon → hub: a runner it started exited (or could not start). Ends a session the runner could
 *  not end itself (killed, crashed before registering). */
export const RunnerExitedSchema = z.object({
  sessionId: SessionIdSchema,
  /** The runner's pid: a report about an earlier runner of a resumed session is ignored. */
  pid: z.number().int().positive().nullable().default(null),
  exitCode: z.number().int().nullable(),
  signal: z.string().max(32).nullable().default(null),
  /** The last lines of the runner's log: what a person needs to see why. */
  reason: z.string().max(MAX_LABEL_CHARS).nullable().default(null),
});
export type RunnerExited = z.input<typeof RunnerExitedSchema>;

/** Hub → daemon commands with their acks (emitted with a timeout, never broadcast). */
export const DaemonCommandSchemas = {
  'daemon:spawn': DaemonSpawnSchema,
  'daemon:kill': DaemonKillSchema,
  'daemon:outside': DaemonOutsideSchema,
  'daemon:rules-remove': DaemonRulesRemoveSchema,
  ...DaemonShellCommandSchemas,
  ...DaemonWorktreeCommandSchemas,
} as const;
export type DaemonCommandAcks = {
  'daemon:spawn': DaemonSpawnAck;
  'daemon:kill': DaemonKillAck;
  'daemon:outside': object;
  'daemon:rules-remove': DaemonRulesRemoveAck;
} & DaemonShellCommandAcks &
  DaemonWorktreeCommandAcks;

/** A daemon's refusal: an error ack, with the spawn failure's reason when it has one. */
const DaemonAckErrorSchema = AckErrorSchema.extend({ reason: SpawnFailureReasonSchema.optional() });
/** Each command's whole ack as the hub receives it (machines/daemons.ts parses every one). */
export const DaemonCommandAckSchemas = {
  'daemon:spawn': ackSchemaOf(DaemonSpawnAckSchema, DaemonAckErrorSchema),
  'daemon:kill': ackSchemaOf(DaemonKillAckSchema, DaemonAckErrorSchema),
  'daemon:outside': ackSchemaOf(z.object({}), DaemonAckErrorSchema),
  'daemon:rules-remove': ackSchemaOf(DaemonRulesRemoveAckSchema, DaemonAckErrorSchema),
  'daemon:shell-open': ackSchemaOf(DaemonShellCommandAckSchemas['daemon:shell-open'], DaemonAckErrorSchema),
  'daemon:shell-input': ackSchemaOf(DaemonShellCommandAckSchemas['daemon:shell-input'], DaemonAckErrorSchema),
  'daemon:shell-resize': ackSchemaOf(DaemonShellCommandAckSchemas['daemon:shell-resize'], DaemonAckErrorSchema),
  'daemon:shell-close': ackSchemaOf(DaemonShellCommandAckSchemas['daemon:shell-close'], DaemonAckErrorSchema),
  'daemon:shell-detach': ackSchemaOf(DaemonShellCommandAckSchemas['daemon:shell-detach'], DaemonAckErrorSchema),
  'daemon:worktree-probe': ackSchemaOf(DaemonWorktreeCommandAckSchemas['daemon:worktree-probe'], DaemonAckErrorSchema),
  'daemon:worktree-inspect': ackSchemaOf(DaemonWorktreeCommandAckSchemas['daemon:worktree-inspect'], DaemonAckErrorSchema),
  'daemon:worktree-remove': ackSchemaOf(DaemonWorktreeCommandAckSchemas['daemon:worktree-remove'], DaemonAckErrorSchema),
} as const satisfies Record<keyof DaemonCommandAcks, unknown>;
